package importer

import (
	"errors"
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
		return "", errors.New(res.Redact("rendering the harness blocks: " + diags.Error()))
	}
	changes, err := engine.DecideFresh(plan, root, cfg.Agyconf, engine.Options{Adopt: true})
	if err != nil {
		// A message may quote a live file's content.
		return "", errors.New(res.Redact(err.Error()))
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
	return res.Redact(b.String()), nil
}

// Redact replaces every secret value the import found in text by
// <secret>: the one function through which everything the importer
// prints passes — report items (Import), the migration diff and its
// errors — so that a value some message happens to quote is still never
// shown.
func (res *Result) Redact(text string) string { return redactValues(text, res.Secrets) }

// redactItem is an item with every secret value redacted from its text.
func redactItem(it Item, values []string) Item {
	it.Path = redactValues(it.Path, values)
	it.Unit = redactValues(it.Unit, values)
	it.Reason = redactValues(it.Reason, values)
	it.Command = redactValues(it.Command, values)
	return it
}

// redactValues replaces each value, as written and JSON-escaped (with
// and without HTML escapes), by the placeholder.
func redactValues(text string, values []string) string {
	for _, v := range values {
		if v == "" {
			continue
		}
		text = replaceValue(text, v)
		for _, e := range jsonEscapes(v) {
			if e != v {
				text = replaceValue(text, e)
			}
		}
	}
	return text
}

// shortValue is the length below which a value is replaced only where it
// stands alone: the key rule also takes KEYBOARD_LAYOUT = "us" for a
// credential, and replacing every "us" inside a word would garble the
// report, while a short value inside a longer word is no leak of it.
const shortValue = 6

// replaceValue replaces v in text by the placeholder: everywhere, or, when
// v is short, where no letter or digit adjoins it.
func replaceValue(text, v string) string {
	if len(v) >= shortValue {
		return strings.ReplaceAll(text, v, render.Placeholder)
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	var b strings.Builder
	for {
		i := strings.Index(text, v)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		end := i + len(v)
		if (i > 0 && alnum(text[i-1]) && alnum(v[0])) || (end < len(text) && alnum(text[end]) && alnum(v[len(v)-1])) {
			// Inside a word: keep it and look on after its first byte.
			b.WriteString(text[:i+1])
			text = text[i+1:]
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(render.Placeholder)
		text = text[end:]
	}
}
