package manuscript

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGuessLanguage: the openings of public-domain novels, each read as
// its language; prose of no language quire knows, or too little, is
// none.
func TestGuessLanguage(t *testing.T) {
	tests := []struct{ want, text string }{
		{"en", "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife. However little known the feelings or views of such a man may be on his first entering a neighbourhood, this truth is so well fixed in the minds of the surrounding families, that he is considered the rightful property of some one or other of their daughters."},
		{"fr", "Nous étions à l'Étude, quand le Proviseur entra, suivi d'un nouveau habillé en bourgeois et d'un garçon de classe qui portait un grand pupitre. Ceux qui dormaient se réveillèrent, et chacun se leva comme surpris dans son travail."},
		{"de", "In Front des schon seit Kurfürst Georg Wilhelm von der Familie von Briest bewohnten Herrenhauses zu Hohen-Cremmen fiel heller Sonnenschein auf die mittagsstille Dorfstraße, während nach der Park- und Gartenseite hin ein rechtwinklig angebauter Seitenflügel einen breiten Schatten erst auf einen weiß und grün quadrierten Fliesengang und dann über diesen hinaus auf ein großes, in seiner Mitte mit einer Sonnenuhr und an seinem Rande mit Canna indica und Rhabarberstauden besetztes Rondell warf."},
		{"es", "En un lugar de la Mancha, de cuyo nombre no quiero acordarme, no ha mucho tiempo que vivía un hidalgo de los de lanza en astillero, adarga antigua, rocín flaco y galgo corredor. Una olla de algo más vaca que carnero, salpicón las más noches, duelos y quebrantos los sábados, lentejas los viernes, algún palomino de añadidura los domingos, consumían las tres partes de su hacienda."},
		{"it", "Quel ramo del lago di Como, che volge a mezzogiorno, tra due catene non interrotte di monti, tutto a seni e a golfi, a seconda dello sporgere e del rientrare di quelli, vien, quasi a un tratto, a ristringersi, e a prender corso e figura di fiume, tra un promontorio a destra, e un'ampia costiera dall'altra parte; e il ponte, che ivi congiunge le due rive, par che renda ancor più sensibile all'occhio questa trasformazione."},
		{"pt", "Uma noite destas, vindo da cidade para o Engenho Novo, encontrei no trem da Central um rapaz aqui do bairro, que eu conheço de vista e de chapéu. Cumprimentou-me, sentou-se ao pé de mim, falou da lua e dos ministros, e acabou recitando-me versos."},
		{"nl", "Ik ben makelaar in koffie, en woon op de Lauriergracht, No. 37. Het is mijn gewoonte niet, romans te schrijven, of zulke dingen, en het heeft dan ook lang geduurd, voor ik er toe overging een paar riem papier extra te bestellen, en het werk aan te vangen, dat gij, lieve lezer, zoo-even in de hand hebt genomen."},
		{"ru", "Все счастливые семьи похожи друг на друга, каждая несчастливая семья несчастлива по-своему. Все смешалось в доме Облонских. Жена узнала, что муж был в связи с бывшею в их доме француженкою-гувернанткой, и объявила мужу, что не может жить с ним в одном доме."},
		{"uk", "Він сказав, що вона прийде до нас увечері, але її не було, і ми чекали на неї, поки не стемніло. Та коли вона прийшла, він уже спав, і ніхто не знав, що їй сказати."},
		{"pl", "W początkach roku 1878, kiedy świat polityczny zajmował się pokojem San Stefano, wyborem nowego papieża albo szansami europejskiej wojny, warszawscy kupcy tudzież inteligencja pewnej okolicy Krakowskiego Przedmieścia niemniej gorąco interesowała się przyszłością galanteryjnego sklepu pod firmą J. Mincel i S. Wokulski. Nie było to jednak tak, jak się wydawało, i nikt nie wiedział, co będzie dalej."},
		{"", ""},
		{"", "Quire. Codex. Manuscript. Harbor Tally. Teodora Quill."},
	}
	for _, tt := range tests {
		t.Run(tt.want+" "+strings.Join(strings.Fields(tt.text)[:min(3, len(strings.Fields(tt.text)))], " "), func(t *testing.T) {
			assert.Equal(t, tt.want, GuessLanguage(tt.text))
		})
	}
	// The first 20,000 words decide: a book in English with a long
	// French chapter last stays English.
	english := strings.Repeat("She said that it was not the house he had in mind. ", languageSample/11+1)
	french := strings.Repeat("Elle dit que ce n'était pas la maison qu'il avait en tête. ", languageSample)
	assert.Equal(t, "en", GuessLanguage(english, french))
	assert.Equal(t, "Russian", LanguageName("ru"))
	assert.Equal(t, "xx", LanguageName("xx"))
}
