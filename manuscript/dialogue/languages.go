package dialogue

// The conventions quire finds serve other languages than English and
// French: German's „…“ and »…«, and the dash of Spanish, Italian and
// Russian. Their tags are read as English ones are, a speech verb beside
// a name ("sagte Effi", "—dijo Juan—", "— сказал Левин") or a pronoun
// after it ("sagte er", "dijo ella", "сказала она"); these are the verbs
// and pronouns. Words English writes too are left out: Spanish and
// Italian "dice", Italian "replica".

// otherSpeechVerbs are the verbs of a German, Spanish, Italian or
// Russian tag, in the forms a tag uses: the past a novel tells in, and
// the present.
var otherSpeechVerbs = wordSet(`sagte sagten fragte fragten antwortete antworteten rief riefen meinte meinten
erwiderte erwiderten flüsterte flüsterten murmelte murmelten schrie schrien entgegnete entgegneten
erklärte bemerkte sprach versetzte wiederholte seufzte lachte dachte begann stammelte brummte knurrte
stöhnte fuhr fügte sagt fragt antwortet ruft meint erwidert flüstert murmelt schreit entgegnet
erklärt bemerkt spricht wiederholt seufzt lacht denkt beginnt
dijo dijeron preguntó respondió contestó exclamó gritó murmuró susurró añadió agregó repuso replicó
continuó prosiguió explicó insistió suspiró pensó comentó observó decía preguntaba respondía
contestaba exclamaba gritaba murmuraba pregunta responde contesta exclama grita murmura añade agrega
continúa explica insiste suspira piensa comenta
disse dissero chiese domandò rispose esclamò gridò mormorò sussurrò aggiunse replicò continuò riprese
spiegò insistette sospirò pensò osservò diceva chiedeva domandava rispondeva esclamava gridava
mormorava chiede domanda risponde esclama grida mormora aggiunge riprende spiega sospira osserva
сказал сказала сказали спросил спросила спросили ответил ответила ответили отвечал отвечала
крикнул крикнула кричал кричала закричал закричала прошептал прошептала шептал шептала
пробормотал пробормотала воскликнул воскликнула произнёс произнес произнесла добавил добавила
прибавил прибавила продолжал продолжала заметил заметила возразил возразила проговорил проговорила
говорил говорила спрашивал спрашивала начал начала подумал подумала думал думала повторил
повторила твердил твердила вскрикнул вскрикнула перебил перебила подхватил подхватила
отозвался отозвалась вздохнул вздохнула говорит спрашивает отвечает кричит шепчет`)

// otherSubjects are the subject pronouns of those tags, by the gender
// they name; the first person is the narrator. German "sie" after a
// speech verb is "she" far more often than "they".
var otherSubjects = map[string]Gender{
	"er": GenderMale, "sie": GenderFemale, "ich": genderI,
	"él": GenderMale, "ella": GenderFemale, "yo": genderI,
	"lui": GenderMale, "lei": GenderFemale, "egli": GenderMale, "io": genderI,
	"он": GenderMale, "она": GenderFemale, "я": genderI,
}
