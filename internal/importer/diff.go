package importer

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// MigrationDiff renders only the harness blocks of an import against the
// live files under root, decided as `agyconf render --adopt` would with no
// state (apply.Decide), and returns the unified diff per file that
// switching to them would write: empty when the live wiring already is
// what the harness renders. Secrets are never shown: strings agyconf
// marks as secret are redacted by apply, and the inline values the import
// found are replaced by <secret> wherever else they appear.
func MigrationDiff(res *Result, root string) (string, error) {
	if len(res.Config.Harnesses) == 0 {
		return "", nil
	}
	cfg := &model.Config{Agyconf: res.Config.Agyconf, Tools: res.Config.Tools}
	for _, h := range res.Config.Harnesses {
		c := *h
		cfg.Harnesses = append(cfg.Harnesses, &c)
	}
	// The pipeline every command shares (engine.Build), then the decision
	// a first render with --adopt would make.
	plan, diags := engine.Build(cfg)
	if diags.HasErrors() {
		return "", fmt.Errorf("rendering the harness blocks: %s", diags.Error())
	}
	changes, err := engine.DecideFresh(plan, root, cfg.Agyconf, engine.Options{Adopt: true})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, ch := range apply.Files(changes) {
		if ch.Action == apply.Conflict || ch.Action == apply.Keep {
			fmt.Fprintf(&b, "%s %s: %s\n", ch.Action, ch.Name(), ch.Reason)
			continue
		}
		before, after := ch.Shown()
		b.WriteString(udiff.Unified("a/"+ch.Path, "b/"+ch.Path, before, after))
	}
	return redactValues(b.String(), res.Secrets), nil
}

// redactValues replaces each value, as written and JSON-escaped (with
// and without HTML escapes), by the placeholder.
func redactValues(text string, values []string) string {
	for _, v := range values {
		if v == "" {
			continue
		}
		text = strings.ReplaceAll(text, v, render.Placeholder)
		for _, e := range jsonEscapes(v) {
			if e != v {
				text = strings.ReplaceAll(text, e, render.Placeholder)
			}
		}
	}
	return text
}
