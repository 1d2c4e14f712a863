package factsgen

import "github.com/agyconf/agyconf/internal/agy"

// nixFacts is nix/agy-facts.json: what the Nix module and nix/model.nix
// read with builtins.fromJSON — the events (option name, block name,
// shape, first version), the kinds' global places, and the limits its
// option descriptions quote.
func nixFacts() ([]byte, error) {
	type event struct {
		Name    string `json:"name"`
		Block   string `json:"block"`
		Option  string `json:"option"`
		Grouped bool   `json:"grouped"`
		Since   string `json:"since,omitempty"`
		When    string `json:"when"`
	}
	type limit struct {
		Max  int    `json:"max"`
		Unit string `json:"unit"`
	}
	// A kind's places in global scope (the module renders a home), by
	// product, and where one item of a folder kind lives in its folder:
	// what the module's evaluation-time check of other modules' home.file
	// entries compares against.
	type kind struct {
		Item   string              `json:"item,omitempty"`
		Places map[string][]string `json:"places"`
	}
	facts := struct {
		Comment string           `json:"//"`
		Events  []event          `json:"events"`
		Kinds   map[string]kind  `json:"kinds"`
		Limits  map[string]limit `json:"limits"`
	}{
		Comment: "Generated from internal/agy by `go test ./internal/factsgen -update`; do not edit.",
		Kinds:   map[string]kind{},
		Limits:  map[string]limit{},
	}
	for _, k := range agy.Kinds() {
		places := map[string][]string{}
		for _, p := range agy.Products() {
			if ps := k.PathsFor(agy.ScopeGlobal, p); len(ps) > 0 {
				places[string(p)] = ps
			}
		}
		if len(places) > 0 {
			facts.Kinds[string(k.ID)] = kind{Item: k.Item, Places: places}
		}
	}
	for _, e := range agy.Events() {
		ev := event{Name: string(e.Name), Block: e.Block(), Option: e.Option(), Grouped: e.Grouped, When: e.When}
		if e.Since.Known() {
			ev.Since = e.Since.String()
		}
		facts.Events = append(facts.Events, ev)
	}
	for _, l := range agy.Limits() {
		facts.Limits[string(l.ID)] = limit{l.Max, string(l.Unit)}
	}
	b, err := encodeIndent(facts)
	if err != nil {
		return nil, err
	}
	return b, nil
}
