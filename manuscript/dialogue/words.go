package dialogue

import "strings"

// speechVerbs are the verbs of a speech tag, in the forms a tag uses
// ("said Emma", "Emma replied", "she asks").
var speechVerbs = wordSet(`said says say saying asked asks ask asking replied replies reply
answered answers answer cried cries exclaimed exclaims added adds continued continues
returned returns rejoined rejoins observed observes remarked remarks whispered whispers
shouted shouts muttered mutters murmured murmurs called calls began begins repeated repeats
insisted insists interrupted interrupts resumed resumes declared declares demanded demands
inquired inquires enquired enquires responded responds retorted retorts sighed sighs
laughed laughs exclaimed suggested suggests urged urges pleaded pleads protested protests
explained explains admitted admits agreed agrees objected objects persisted persists
stammered stammers faltered falters sobbed sobs groaned groans growled growls snapped snaps
screamed screams yelled yells roared roars gasped gasps breathed breathes hissed hisses
drawled drawls grumbled grumbles grunted grunts chuckled chuckles smiled smiles
thought thinks wondered wonders went concluded concludes ventured ventures
interposed interposes put mused muses pursued pursues rejoined cautioned warned warns
assented assents confessed confesses announced announces explained shrieked shrieks
moaned moans wailed wails called commented comments corrected corrects conceded concedes
prompted prompts queried queries told tells spoke speaks bellowed bellows sneered sneers
stated states ordered orders commanded commands begged begs implored implores entreated
observed reasoned reasons echoed echoes offered offers proposed proposes
rebuked rebukes reproved reproves scolded scolds remonstrated remonstrates expostulated
expostulates quavered quavers whimpered whimpers snarled snarls mumbled mumbles blurted
blurts piped pipes squeaked squeaks ejaculated hazarded hazards volunteered volunteers
coaxed coaxes teased teases soothed soothes chimed
interjected bawled reiterated scoffed complained questioned wheezed exploded`)

// pronouns of a tag's subject, by the gender they name.
var pronounGender = map[string]Gender{
	"he": GenderMale, "she": GenderFemale, "they": GenderThey,
}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// isSpeechVerb says w is a verb of a tag: English, French, German,
// Spanish, Italian or Russian ("said", "dit-elle", "sagte", "сказал").
func isSpeechVerb(w string) bool {
	lower := strings.ToLower(w)
	if speechVerbs[lower] || otherSpeechVerbs[lower] {
		return true
	}
	_, _, ok := frenchVerbLower(lower)
	return ok
}

func isPronoun(w string) bool {
	switch strings.ToLower(w) {
	case "he", "she", "they", "i", "we", "you", "it":
		return true
	}
	return false
}
