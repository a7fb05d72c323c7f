package server

import "github.com/quire-ink/quire/codex"

func (p *project) catalog() *codex.Catalog { return p.store.Catalog() }
