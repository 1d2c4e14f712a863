package rulebook

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ruleIDRe is what a rule id looks like: KIND/NAME.
var ruleIDRe = regexp.MustCompile(`^[a-z]+/[a-z0-9]+(-[a-z0-9]+)*$`)

// emitters are the functions a warning's or a finding's rule id is passed
// to: the decoder's and render's warnf, the engine's machineCheck, Line,
// and lint's sinks (add, addAs, addSince, at), lookups and unknown-key
// checks.
var emitters = map[string]bool{"warnf": true, "machineCheck": true, "Line": true, "add": true, "addAs": true, "addSince": true,
	"at": true, "severityOf": true, "sourceOf": true, "ruleOf": true, "unknownFields": true, "unknownKeys": true, "Lookup": true}

// emittedIDs walks the Go sources outside tests and returns every rule id
// written where an id is emitted: a field Rule: "…" (a Tag, a lint
// finding), an argument of an emitter, a value assigned to a variable
// named rule, a result of lint's map* and byteLevel (a schema finding's rule)
// and a case of a switch over a rule. Each is returned with where it is.
func emittedIDs(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	add := func(e ast.Expr) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !ruleIDRe.MatchString(s) {
			return
		}
		out[s] = append(out[s], fset.Position(lit.Pos()).String())
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if (strings.HasPrefix(n.Name.Name, "map") || n.Name.Name == "byteLevel") && n.Body != nil {
					ast.Inspect(n.Body, func(m ast.Node) bool {
						if r, ok := m.(*ast.ReturnStmt); ok {
							for _, e := range r.Results {
								add(e)
							}
						}
						return true
					})
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Rule" {
					add(n.Value)
				}
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				if emitters[name] {
					for _, a := range n.Args {
						add(a)
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "rule" && i < len(n.Rhs) {
						add(n.Rhs[i])
					}
				}
			case *ast.SwitchStmt:
				if id, ok := n.Tag.(*ast.Ident); ok && id.Name == "rule" {
					for _, s := range n.Body.List {
						for _, e := range s.(*ast.CaseClause).List {
							add(e)
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEmittedRulesKnown: every rule id the code emits a warning or a
// finding with is in the table (so --explain, agyconf explain and
// docs/validate.md know it), and every rule of the table is emitted
// somewhere (no rule documents a check nobody makes). The config,
// engine and script corpora check the same from the other side: every
// warning they see names a rule (config's TestInvalid, the CLI's scripts).
func TestEmittedRulesKnown(t *testing.T) {
	emitted := emittedIDs(t, "../..")
	if len(emitted) < 60 {
		t.Fatalf("found %d rule ids in the code: the scan is broken", len(emitted))
	}
	for id, where := range emitted {
		if _, ok := Lookup(id); !ok {
			t.Errorf("%s is emitted (%s) but the table has no such rule", id, strings.Join(where, ", "))
		}
	}
	for _, r := range All() {
		if _, ok := emitted[r.ID]; !ok {
			t.Errorf("%s is in the table, but no code emits it", r.ID)
		}
	}
}
