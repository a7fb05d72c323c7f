package keys

import "errors"

// Advice says how to give quire the key for the provider at base, for
// a message that ends "…; " + Advice(…). env is the variable quire
// reads it from; stored is what asking the keychain answered (nil or
// ErrNotFound when it answered). Where no keychain answers, the advice
// names only the ways that work there: the variable, the key file and
// the editor's secret storage; `quire key set` alone would fail.
// Every piece of key advice in quire comes from here.
func Advice(base, env string, stored error) string {
	base = shortNameOf(base)
	editor := "in VS Code, the command quire: Set API Key keeps it in VS Code's secret storage"
	if KeychainDown(stored) {
		return "no keychain answers on this computer, so set " + env + " in your shell, or keep the key in a file only you can read with quire key set --file " + base + "; " + editor
	}
	return "store it in your keychain with quire key set " + base + ", or set " + env + "; " + editor
}

// KeychainDown is whether stored, the answer of asking the keychain, says
// that none answered.
func KeychainDown(stored error) bool {
	return stored != nil && errors.Is(stored, ErrNoKeychain)
}

// shortNameOf is the short name a writer can type for the provider at
// base (openai, openrouter, …), else base.
func shortNameOf(base string) string {
	at, err := Normalize(base)
	if err != nil {
		return base
	}
	for _, name := range ShortNames() {
		if u, err := ProviderURL(name); err == nil && u == at {
			return name
		}
	}
	return base
}
