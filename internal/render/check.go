package render

import (
	"fmt"
	"strings"

	"github.com/agyconf/agyconf/schema"
)

// Check validates every document of the plan that has a schema, with
// secrets redacted: JSON documents whole, markdown documents by their
// frontmatter. The decoder is meant to make a failure impossible, so one
// is a bug in agyconf; the error says so.
func (p *Plan) Check() error {
	names := p.schemaNames()
	if len(names) == 0 {
		return nil // NewValidator() with no names would compile them all
	}
	v, err := schema.NewValidator(names...)
	if err != nil {
		return err
	}
	var bad []string
	for _, d := range p.Documents {
		if d.Schema == "" {
			continue
		}
		b, err := d.Bytes(Redact)
		if err != nil {
			return err
		}
		if d.JSON != nil {
			err = v.ValidateJSON(d.Schema, b)
		} else {
			err = v.ValidateMarkdown(d.Schema, b)
		}
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", d.Path, err))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("internal error: agyconf rendered documents that fail its own schemas, so nothing was written. Please report this as a bug in agyconf, with the config:\n  %s", strings.Join(bad, "\n  "))
}

// schemaNames lists the schemas the plan's documents use, so that only
// those are compiled.
func (p *Plan) schemaNames() []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range p.Documents {
		if d.Schema != "" && !seen[d.Schema] {
			seen[d.Schema] = true
			out = append(out, d.Schema)
		}
	}
	return out
}
