package codex

import (
	"context"
	"errors"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// MaxSearchResults caps a search, as the advisor's search_codex tool does.
const MaxSearchResults = 8

// SearchOptions narrow a search. Zero values mean no filter.
type SearchOptions struct {
	Type   Type
	Tags   []string
	Status Status
	// Limit is at most MaxSearchResults; zero means the maximum.
	Limit int
}

// ErrEmptyQuery is returned for a search with nothing to search for.
var ErrEmptyQuery = errors.New("search query is empty")

// Field boosts: a hit on a name says more than a hit in the body.
const (
	boostExactKey = 10
	boostName     = 5
	boostAlias    = 4
	boostTitle    = 3
	boostSummary  = 2
	boostPath     = 1.5
	boostType     = 1.5
	boostBody     = 1
	boostFuzzy    = 0.5
)

// search runs q over name, aliases, title, type, path, summary and body
// and returns entry IDs with scores, best first.
func (ix *bleveIndex) search(ctx context.Context, q string, opt SearchOptions) (ids []scoredID, err error) {
	defer guard(&err, "search index")()
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	norm := Normalize(q)
	folded := Fold(q)
	match := func(field string, boost float64) query.Query {
		m := bleve.NewMatchQuery(folded)
		m.SetField(field)
		m.SetBoost(boost)
		return m
	}
	term := func(field, value string, boost float64) query.Query {
		t := bleve.NewTermQuery(value)
		t.SetField(field)
		t.SetBoost(boost)
		return t
	}
	fuzzy := func(field string) query.Query {
		m := bleve.NewMatchQuery(folded)
		m.SetField(field)
		m.SetFuzziness(1)
		m.SetBoost(boostFuzzy)
		return m
	}
	anyOf := bleve.NewDisjunctionQuery(
		term(fieldNameKey, norm, boostExactKey),
		term(fieldAliasKeys, norm, boostExactKey),
		match(fieldName, boostName),
		match(fieldAliases, boostAlias),
		match(fieldTitle, boostTitle),
		match(fieldSummary, boostSummary),
		match(fieldPath, boostPath),
		term(fieldType, string(ParseType(q)), boostType),
		match(fieldBody, boostBody),
	)
	filters := func(q query.Query) query.Query {
		if opt.Type == "" && len(opt.Tags) == 0 && opt.Status == "" {
			return q
		}
		must := []query.Query{q}
		if opt.Type != "" {
			must = append(must, term(fieldType, string(opt.Type), 0))
		}
		for _, tag := range opt.Tags {
			must = append(must, term(fieldTags, Normalize(tag), 0))
		}
		if opt.Status != "" {
			must = append(must, term(fieldStatus, string(opt.Status), 0))
		}
		return bleve.NewConjunctionQuery(must...)
	}
	limit := opt.resultLimit()
	res, err := ix.idx.SearchInContext(ctx, bleve.NewSearchRequestOptions(filters(anyOf), limit, 0, false))
	if err == nil && len(res.Hits) < limit {
		// Too few exact hits: allow a typo in names and aliases. Fuzzy
		// terms cost a walk of the term dictionary, so only now.
		anyOf.AddQuery(fuzzy(fieldName), fuzzy(fieldAliases))
		res, err = ix.idx.SearchInContext(ctx, bleve.NewSearchRequestOptions(filters(anyOf), limit, 0, false))
	}
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", q, err)
	}
	out := make([]scoredID, 0, len(res.Hits))
	for _, h := range res.Hits {
		out = append(out, scoredID{h.ID, h.Score})
	}
	return out, nil
}

type scoredID struct {
	id    string
	score float64
}
