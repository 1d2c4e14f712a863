package clitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/model"
)

// OwnedLintErrors lints the tree under root with the rules that depend on
// the files alone (validate PATH's, without PATH lookups or modes) and
// returns every error-level finding inside a file or an entry agyconf's
// states under root say it owns: what render must never write. A user's
// own bad entry is not agyconf's and does not count.
func OwnedLintErrors(root string) ([]string, error) {
	owned := map[string]map[string]bool{}            // file -> entry pointers ("" = the whole file)
	items := map[string]map[string]map[string]bool{} // file -> list pointer -> the items agyconf owns
	for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
		states, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(layout.StateDir(scope)), "*.json"))
		for _, p := range states {
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			var st struct {
				Files map[string]json.RawMessage `json:"files"`
			}
			if err := json.Unmarshal(data, &st); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			for key := range st.Files {
				file, ptr, _ := strings.Cut(key, "#")
				ptr, item, isItem := strings.Cut(ptr, "[]")
				if isItem {
					// An item of a list: agyconf owns that item, not
					// the list, whose other items are someone else's.
					if items[file] == nil {
						items[file] = map[string]map[string]bool{}
					}
					if items[file][ptr] == nil {
						items[file][ptr] = map[string]bool{}
					}
					items[file][ptr][item] = true
					continue
				}
				if owned[file] == nil {
					owned[file] = map[string]bool{}
				}
				owned[file][ptr] = true
			}
		}
	}
	if len(owned) == 0 && len(items) == 0 {
		return nil, nil
	}
	findings, err := lint.Paths([]string{root}, lint.Options{BytesOnly: true})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range findings {
		if f.Severity != lint.Error {
			continue
		}
		rel, err := filepath.Rel(root, f.File)
		if err != nil {
			continue
		}
		entries := owned[filepath.ToSlash(rel)]
		mine := entries[""] // the whole file is agyconf's
		for ptr := range entries {
			if ptr != "" && f.Pointer != "" && (f.Pointer == ptr || strings.HasPrefix(f.Pointer, ptr+"/")) {
				mine = true
			}
		}
		for list, owns := range items[filepath.ToSlash(rel)] {
			if f.Pointer == list {
				mine = true // the list itself
			}
			if i, ok := strings.CutPrefix(f.Pointer, list+"/"); ok {
				item, known := itemAt(f.File, list, i)
				mine = mine || !known || owns[item]
			}
		}
		if mine {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s: %s", rel, f.Line, f.Column, f.Rule, f.Message))
		}
	}
	return out, nil
}

// itemAt reads the string at index i of the list at ptr in a JSON file;
// known is false when it cannot (the caller then counts the item as
// agyconf's, to err on the side of a failure).
func itemAt(file, ptr, i string) (item string, known bool) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", false
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return "", false
	}
	for _, seg := range append(strings.Split(strings.TrimPrefix(ptr, "/"), "/"), i) {
		switch x := v.(type) {
		case map[string]any:
			v = x[strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")]
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(x) {
				return "", false
			}
			v = x[n]
		default:
			return "", false
		}
	}
	item, known = v.(string)
	return item, known
}
