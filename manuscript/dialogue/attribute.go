package dialogue

func attribute(ch Chapter, utts []Utterance, cast *Cast) {} // being written
