package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// noLoops refuses for expressions ([for x in …: …], {for …}) and %{for}
// template directives in a parsed file. A config has no variables, so a
// loop can only run over values written out beside it — and loops nest:
// seven of them over ten-element lists are ten million iterations, a
// 304-byte config that runs for minutes and takes gigabytes, which no
// bound on nesting or size prevents. Writing the values out is always
// possible. The check walks the syntax tree (native) or every JSON string
// that holds a template, before anything is evaluated.
func noLoops(f *hcl.File, data []byte, filename string) hcl.Diagnostics {
	if body, ok := f.Body.(*hclsyntax.Body); ok {
		return loopsIn(body)
	}
	if !bytes.Contains(data, []byte("for")) {
		return nil // escapes aside, a loop spells "for"; checked below anyway
	}
	// HCL's JSON syntax parses every string, keys included, as a template.
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := int(dec.InputOffset())
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return nil // the parser reported what does not parse
		}
		s, ok := tok.(string)
		if !ok || !(strings.Contains(s, "${") || strings.Contains(s, "%{")) {
			continue
		}
		expr, diags := hclsyntax.ParseTemplate([]byte(s), filename, hcl.InitialPos)
		if diags.HasErrors() {
			continue // reported when it is evaluated
		}
		if d := loopsIn(expr); d.HasErrors() {
			// Positions inside a JSON string are the string's own; point
			// at the string in the file.
			for start < len(data) && strings.IndexByte(" \t\r\n:,", data[start]) >= 0 {
				start++ // to the string's opening quote
			}
			rng := hcl.Range{Filename: filename, Start: posAt(data, start), End: posAt(data, int(dec.InputOffset()))}
			d[0].Subject = &rng
			return d
		}
	}
}

// loopsIn walks a syntax tree for loops.
func loopsIn(n hclsyntax.Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		if len(diags) > 0 {
			return nil
		}
		// A %{for} directive parses into a ForExpr too.
		if _, ok := n.(*hclsyntax.ForExpr); !ok {
			return nil
		}
		what := "A for expression or %{for} directive"
		rng := n.Range()
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Loops are not supported",
			Detail:   fmt.Sprintf("%s runs over values written out beside it — a config has no variables — and loops nest without bound (seven of them over ten-element lists are ten million iterations). Write the values out instead.", what),
			Subject:  &rng,
		})
		return nil
	})
	return diags
}

// posAt is the position of a byte offset of data.
func posAt(data []byte, off int) hcl.Pos {
	off = min(off, len(data))
	line, col := 1, 1
	for _, b := range data[:off] {
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return hcl.Pos{Line: line, Column: col, Byte: off}
}
