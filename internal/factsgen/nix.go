package factsgen

import "github.com/agyconf/agyconf/internal/agy"

// nixFacts is nix/agy-facts.json: what the Nix module and nix/model.nix
// read with builtins.fromJSON — the events (option name, block name,
// shape, first version) and the limits its option descriptions quote.
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
	facts := struct {
		Comment string           `json:"//"`
		Events  []event          `json:"events"`
		Limits  map[string]limit `json:"limits"`
	}{
		Comment: "Generated from internal/agy by `go test ./internal/factsgen -update`; do not edit.",
		Limits:  map[string]limit{},
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
