package engine

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/render"
)

// LiveWarnings lints each shared file the decided changes write into and
// that was there before — hooks.json, mcp_config.json, settings.json, as
// it will be after the merge, secrets redacted — by the rules Check runs
// on rendered documents (the ones that depend on the bytes alone), and
// returns as warnings about this machine what agy rejects there in a part
// agyconf does not manage: agy drops a whole hooks.json over one quoted
// timeout, agyconf's entries with it, and the merge would otherwise say
// nothing. Agyconf's own entries were checked before the plan existed
// (Check). Each warning is located in the file (absolute path, line and
// column); files holds the merged text for the snippets.
func (s *Session) LiveWarnings() (diags hcl.Diagnostics, files map[string]*hcl.File) {
	if s.Config == nil || s.Config.Plan == nil {
		return nil, nil
	}
	docs := map[string]*render.Document{}
	for _, d := range s.Config.Plan.Documents {
		if d.Merge != nil && d.Schema != "" {
			docs[d.Path] = d
		}
	}
	v, _ := agy.ParseVersion(s.Config.Model.Agyconf.AgyVersion)
	checker := lint.NewDocumentChecker()
	files = map[string]*hcl.File{}
	for _, ch := range s.Changes {
		d := docs[ch.Path]
		if d == nil || ch.Unit != "" || !ch.Writes() {
			continue
		}
		before, after := ch.Shown()
		if before == "" || after == "" {
			continue // a new file is the rendered document: all agyconf's
		}
		findings, err := checker.Check(ch.Path, d.Schema, []byte(after), lint.DocumentOptions{AgyVersion: v})
		if err != nil {
			continue // what cannot be linted was refused before a merge
		}
		// The merged value, read only if a finding needs it (an item of
		// a list agyconf owns items of is told apart by its value).
		var tree any
		read := false
		value := func() any {
			if !read {
				read = true
				if t, err := jsonmerge.Read([]byte(after), jsonmerge.AgySyntax(d.Schema)); err == nil {
					tree = t.Value()
				}
			}
			return tree
		}
		file := filepath.Join(s.Root, filepath.FromSlash(ch.Path))
		for _, f := range findings {
			if f.Severity != lint.Error || managed(d, f.Pointer, value) {
				continue
			}
			files[file] = &hcl.File{Bytes: []byte(after)}
			diags = append(diags, liveDiag(file, []byte(after), f))
		}
	}
	return diags, files
}

// liveDiag is a finding in a live shared file as a warning about this
// machine, located in that file.
func liveDiag(file string, text []byte, f lint.Finding) *hcl.Diagnostic {
	where := ""
	if f.Pointer != "" {
		where = ", at " + f.Pointer
	}
	d := &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  f.Message,
		Detail: fmt.Sprintf("In a part of %s agyconf does not manage%s. agyconf writes its entries into this file, and agy may drop the whole file over such a part, agyconf's entries with it: fix it there (agyconf validate reports the same on the file).",
			filepath.Base(file), where),
		Extra: machineCheck(f.Rule),
	}
	if f.Line > 0 {
		start := posAt(text, f.Line, max(f.Column, 1))
		end := start
		if end.Byte < len(text) && text[end.Byte] != '\n' {
			_, size := utf8.DecodeRune(text[end.Byte:])
			end.Byte += size
			end.Column++
		}
		d.Subject = &hcl.Range{Filename: file, Start: start, End: end}
	}
	return d
}

// posAt is the position of a line and column (characters, 1-based) in
// text, with its byte offset, for the snippet.
func posAt(text []byte, line, col int) hcl.Pos {
	off, l := 0, 1
	for l < line && off < len(text) {
		i := strings.IndexByte(string(text[off:]), '\n')
		if i < 0 {
			off = len(text)
			break
		}
		off += i + 1
		l++
	}
	for c := 1; c < col && off < len(text) && text[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return hcl.Pos{Line: line, Column: col, Byte: off}
}

// managed reports whether the value at ptr is in a part of the shared file
// agyconf manages: an entry the document writes (a member of its parent
// object), a key agy rewrites itself that agyconf writes when absent, or
// an item the document owns in a list (tree gives the merged file's
// value, to read the item at ptr).
func managed(d *render.Document, ptr string, tree func() any) bool {
	segs := jsonmerge.PointerSegments(ptr)
	m := d.Merge
	parent := m.Parent
	// A list whose items the document owns is not an entry of the root
	// (apply's units): its other items are someone else's.
	itemRoot := false
	for _, items := range m.Items {
		if len(parent) == 0 && len(items) > 0 && len(segs) > 0 && segs[0] == items[0] {
			itemRoot = true
		}
	}
	if !itemRoot && len(segs) > len(parent) && hasPrefix(segs, parent) {
		if obj, ok := valueAt(d.JSON, parent).(map[string]any); ok {
			if _, ok := obj[segs[len(parent)]]; ok {
				return true
			}
		}
	}
	if len(segs) > 0 {
		for _, k := range m.Defaults {
			if segs[0] == k {
				return true
			}
		}
	}
	for _, items := range m.Items {
		if len(segs) != len(items)+1 || !hasPrefix(segs, items) {
			continue
		}
		item, ok := valueAt(tree(), segs).(string)
		if !ok {
			continue
		}
		mine, _ := valueAt(d.JSON, items).([]any)
		for _, x := range mine {
			if s, ok := literal(x); ok && s == item {
				return true
			}
		}
	}
	return false
}

func hasPrefix(segs, prefix []string) bool {
	if len(segs) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if segs[i] != p {
			return false
		}
	}
	return true
}

// valueAt walks maps and slices by segments; nil when there is nothing.
func valueAt(v any, segs []string) any {
	for _, s := range segs {
		switch x := v.(type) {
		case map[string]any:
			v = x[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// literal is the text of a plain string of a document tree (apply's
// units read items the same way).
func literal(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case interface{ Literal() (string, bool) }:
		return x.Literal()
	}
	return "", false
}
