package clitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	owned := map[string]map[string]bool{} // file -> entry pointers ("" = the whole file)
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
				ptr, _, _ = strings.Cut(ptr, "[]")
				if owned[file] == nil {
					owned[file] = map[string]bool{}
				}
				owned[file][ptr] = true
			}
		}
	}
	if len(owned) == 0 {
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
		if mine {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s: %s", rel, f.Line, f.Column, f.Rule, f.Message))
		}
	}
	return out, nil
}
