package lint

import (
	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// Rules returns the rules of the files agy reads, the ones validate PATH
// checks, sorted by id: rulebook's, where every rule agyconf reports by
// lives.
func Rules() []Rule { return rulebook.Of(rulebook.Files) }

func severityOf(id string) Severity { return ruleOf(id).Severity() }

// sourceOf is where a rule's fact is known from, as findings cite it.
func sourceOf(id string) string {
	r := ruleOf(id)
	if r.Source.Ref == "" {
		return ""
	}
	return r.Source.String()
}

// ruleOf finds a rule by id; an id not in the table (a bug, which
// TestRulesKnown catches) is an error that refuses.
func ruleOf(id string) Rule {
	if r, ok := rulebook.Lookup(id); ok {
		return r
	}
	return Rule{ID: id, Of: rulebook.Files, Effect: agy.Refuses}
}
