// Package harness expands `harness` blocks into the ordinary model values
// they stand for — MCP servers, hooks, skills — before render, so that
// schemas, ownership, diff and validate treat them like hand-written
// blocks.
package harness

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/model"
)

// Expand replaces every harness block it knows by its values, in place,
// and leaves any other for render to refuse. A name the harness needs
// that the config already declares by hand is an error: one entry, one
// owner.
func Expand(cfg *model.Config) hcl.Diagnostics {
	var diags hcl.Diagnostics
	var rest []*model.Harness
	for _, h := range cfg.Harnesses {
		switch {
		case h.Xmsg != nil:
			diags = append(diags, expandXmsg(cfg, h)...)
		case h.MemPalace != nil:
			diags = append(diags, expandMemPalace(cfg, h)...)
		default:
			rest = append(rest, h)
		}
	}
	cfg.Harnesses = rest
	return diags
}

func clash(h *model.Harness, what, name string, first hcl.Range) *hcl.Diagnostic {
	r := h.Range
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Declared twice",
		Detail:   fmt.Sprintf("harness %q declares the %s %q, which the config also declares at %s:%d; remove one of them.", h.Kind, what, name, first.Filename, first.Start.Line),
		Subject:  &r,
	}
}

// insertSorted adds v to a name-sorted list, keeping it sorted.
func insertSorted[T any](xs []T, v T, name func(T) string) []T {
	i := 0
	for i < len(xs) && name(xs[i]) < name(v) {
		i++
	}
	xs = append(xs, v)
	copy(xs[i+1:], xs[i:])
	xs[i] = v
	return xs
}
