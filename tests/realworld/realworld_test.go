// Package realworld checks agyconf against the Antigravity setups people
// published (shared/realworld: 44 cases, each with its source and what
// agy makes of it): validate calls no case that loads in agy wrong, and
// import then render gives back every file agy reads.
package realworld_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/importer"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// corpus is shared/realworld, beside the checkout (CI has it there). The
// test skips only where CI is unset and the folder is missing.
func corpus(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "realworld"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("%s: %v (CI unset: skipped; CI has shared/ beside the checkout)", dir, err)
		}
		t.Fatalf("%s: %v, and CI is set", dir, err)
	}
	return dir
}

// testCase is a row of MANIFEST.tsv.
type testCase struct {
	name, verdict string
}

func manifest(t *testing.T, dir string) []testCase {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []testCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 || cols[0] == "case" {
			continue
		}
		out = append(out, testCase{name: cols[0], verdict: cols[5]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < 40 {
		t.Fatalf("MANIFEST.tsv lists %d cases, want the corpus's 44", len(out))
	}
	return out
}

// targets are the paths check.sh gives validate for a case: every plugin
// folder, every workspace (the folder above a customization root),
// .gemini unless the case folder itself is a workspace, loose samples.
func targets(t *testing.T, dir string) []string {
	t.Helper()
	set := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case !d.IsDir() && d.Name() == "plugin.json" && !strings.Contains(p, ".claude-plugin") && !strings.Contains(p, ".codex-plugin"):
			set[filepath.Dir(rel)] = true
		case d.IsDir() && agy.IsWorkspaceRoot(d.Name()):
			set[filepath.Dir(rel)] = true
		case !d.IsDir() && strings.HasPrefix(rel, "samples"+string(filepath.Separator)):
			set[rel] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".gemini")); err == nil && fi.IsDir() && !set["."] {
		set[".gemini"] = true
	}
	var out []string
	for p := range set {
		out = append(out, filepath.Join(dir, p))
	}
	sort.Strings(out)
	return out
}

// found finds everything: a published setup names programs of its
// author's machine, and those findings are warnings anyway.
func found(name string) (string, error) { return "/usr/bin/" + name, nil }

// TestValidate: no case agy loads gets an error from validate (check.sh's
// measure), and validate finds its way through every case.
func TestValidate(t *testing.T) {
	dir := corpus(t)
	falseErrors := 0
	for _, c := range manifest(t, dir) {
		fs, err := lint.Paths(targets(t, filepath.Join(dir, c.name)), lint.Options{LookPath: found})
		if err != nil {
			t.Errorf("%s: validate failed: %v", c.name, err)
			continue
		}
		if !strings.HasPrefix(c.verdict, "loads") {
			continue
		}
		for _, f := range fs {
			if f.Severity == lint.Error {
				falseErrors++
				t.Errorf("%s loads in agy, yet: %s:%d:%d %s: %s", c.name, f.File, f.Line, f.Column, f.Rule, f.Message)
			}
		}
	}
	t.Logf("cases that load with an error: %d", falseErrors)
}

// tree is one thing import reads in a case: a home (its .gemini), a
// workspace, or a plugin folder, imported from a workspace's
// .agents/plugins/ (where import finds plugins).
type tree struct {
	scope model.Scope
	// root is what import reads; prefix is, below it, where the files
	// compared are (".gemini", a workspace root, the plugin's folder).
	root     string
	prefixes []string
	// from maps a file compared, relative to root, to where it is in the
	// case (for messages).
	shown func(rel string) string
}

func trees(t *testing.T, dir string) []tree {
	t.Helper()
	var out []tree
	caseRel := func(root string) func(string) string {
		return func(rel string) string {
			r, _ := filepath.Rel(dir, filepath.Join(root, rel))
			return filepath.ToSlash(r)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, ".gemini")); err == nil && fi.IsDir() {
		out = append(out, tree{scope: model.ScopeGlobal, root: dir, prefixes: []string{".gemini"}, shown: caseRel(dir)})
	}
	workspaces := map[string][]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.IsDir() && agy.IsWorkspaceRoot(d.Name()):
			workspaces[filepath.Dir(p)] = append(workspaces[filepath.Dir(p)], d.Name())
		case !d.IsDir() && d.Name() == "plugin.json" && !strings.Contains(p, "/.agents/plugins/") && !strings.Contains(p, ".claude-plugin"):
			// A plugin folder of its own: copied into a scratch
			// workspace's .agents/plugins/, where import finds plugins.
			src := filepath.Dir(p)
			ws := t.TempDir()
			name := filepath.Base(src)
			if err := os.CopyFS(filepath.Join(ws, ".agents", "plugins", name), os.DirFS(src)); err != nil {
				return err
			}
			out = append(out, tree{scope: model.ScopeWorkspace, root: ws, prefixes: []string{".agents/plugins/" + name}, shown: func(rel string) string {
				r, _ := filepath.Rel(dir, filepath.Join(src, strings.TrimPrefix(rel, ".agents/plugins/"+name+"/")))
				return filepath.ToSlash(r)
			}})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for ws, roots := range workspaces {
		out = append(out, tree{scope: model.ScopeWorkspace, root: ws, prefixes: roots, shown: caseRel(ws)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].root+string(out[i].scope) < out[j].root+string(out[j].scope) })
	return out
}

// TestRoundTrip: import each tree of each case, render the config into a
// fresh root, and every file agy reads (the files validate finds as
// read) comes back: JSON with every member and its value (members render
// adds, such as a handler's timeout, allowed), Markdown with the same
// frontmatter mapping and body. Three kinds of difference are allowed,
// each with its reason: what validate calls refused, dropped, misread or
// never read (an error finding on the file, or on the member) is not
// something agy reads as written; what import lists as converted (url as
// serverUrl, a default left out, a legacy place written where agyconf
// writes) is compared where render writes it; and the user's own text of
// GEMINI.md outside agyconf's block, which import leaves where it is and
// render never touches.
func TestRoundTrip(t *testing.T) {
	dir := corpus(t)
	files, losses := 0, 0
	for _, c := range manifest(t, dir) {
		if c.name == "26-agy-workshop-samples" {
			continue // loose sample files, in no place agy reads them from
		}
		for _, tr := range trees(t, filepath.Join(dir, c.name)) {
			n, l := roundTrip(t, c.name, tr)
			files, losses = files+n, losses+l
		}
	}
	t.Logf("files agy reads compared: %d; files with a loss: %d", files, losses)
	if files < 80 {
		t.Errorf("only %d files compared: the corpus walk is broken", files)
	}
}

func roundTrip(t *testing.T, name string, tr tree) (files, losses int) {
	t.Helper()
	out := t.TempDir()
	res, err := importer.Import(importer.Options{Root: tr.root, Scope: tr.scope, Product: model.ProductBoth, Out: out, FollowLinksOut: tr.scope == model.ScopeGlobal})
	if err != nil {
		t.Errorf("%s: import failed: %v", name, err)
		return 0, 0
	}
	for rel, f := range res.Files {
		p := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "agyconf.hcl"), res.HCL, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.NewParser().LoadConfig(out)
	if !diags.HasErrors() {
		diags = append(diags, harness.Expand(cfg)...)
	}
	if diags.HasErrors() {
		t.Errorf("%s: the imported config does not decode:\n%s\n%s", name, diags.Error(), res.HCL)
		return 0, 0
	}
	plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
	if diags.HasErrors() {
		t.Errorf("%s: the imported config does not render: %s", name, diags.Error())
		return 0, 0
	}
	fresh := t.TempDir()
	for _, d := range plan.Documents {
		data, err := d.Bytes(readSecret)
		if err != nil {
			t.Fatal(err)
		}
		if d.Kind == render.ManagedBlock {
			begin, end := d.Block.Markers()
			data = []byte(begin + "\n" + string(data) + end + "\n")
		}
		p := filepath.Join(fresh, filepath.FromSlash(d.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, p := range tr.prefixes {
		paths = append(paths, filepath.Join(tr.root, p))
	}
	read, err := lint.Files(paths)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	findings, err := lint.Paths(paths, lint.Options{LookPath: found})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, f := range read {
		rel, err := filepath.Rel(tr.root, f)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		files++
		if l := compare(tr.root, fresh, rel, res.Items, errorsOn(findings, f)); len(l) > 0 {
			losses++
			t.Errorf("%s: %s: %s", name, tr.shown(rel), strings.Join(l, "; "))
		}
	}
	return files, losses
}

func readSecret(p string) (string, error) {
	b, err := os.ReadFile(p)
	return strings.TrimSuffix(string(b), "\n"), err
}

// errorsOn are the pointers of the error findings validate has on a file:
// what agy refuses, drops, misreads or never reads there ("" for the whole
// file).
func errorsOn(fs []lint.Finding, file string) []string {
	var out []string
	for _, f := range fs {
		if f.File == file && f.Severity == lint.Error {
			out = append(out, f.Pointer)
		}
	}
	return out
}

// excused reports whether a member at ptr is one agy does not read as
// written: an error finding on it, above it, or on the whole file.
func excused(errs []string, ptr string) bool {
	for _, e := range errs {
		if e == "" || e == ptr || strings.HasPrefix(ptr, e+"/") {
			return true
		}
	}
	return false
}

// converted finds the report's converted line about file (relative to
// the root), and about a unit of it when unit is not "".
func converted(items []importer.Item, file, unit string) bool {
	for _, it := range items {
		if it.Kind == importer.KindConverted && (it.Path == file || strings.HasPrefix(file, it.Path+"/")) && (unit == "" || it.Unit == unit || strings.HasPrefix(unit, it.Unit+".")) {
			return true
		}
	}
	return false
}

// leftInPlace reports whether import said the file stays as it is, the
// user's (GEMINI.md's text outside agyconf's block).
func leftInPlace(items []importer.Item, file string) bool {
	for _, it := range items {
		if it.Kind == importer.KindNotImported && it.Path == file && strings.Contains(it.Reason, "yours and stay") {
			return true
		}
	}
	return false
}

// where is where render writes what import read at rel: rel, or the place
// import's report says it converted it to.
func where(items []importer.Item, rel string) string {
	for _, r := range agy.WorkspaceRoots() {
		if rest, ok := strings.CutPrefix(rel, r.Path+"/"); ok && r.Legacy && converted(items, r.Path, "") {
			rel = agy.WorkspaceRoots()[0].Path + "/" + rest
		}
	}
	switch dir, base := path.Split(rel); {
	case rel == ".gemini/antigravity/mcp_config.json":
		return ".gemini/config/mcp_config.json"
	case strings.HasPrefix(rel, ".gemini/skills/") && converted(items, rel, ""):
		return ".gemini/antigravity-cli/skills/" + strings.TrimPrefix(rel, ".gemini/skills/")
	case path.Base(dir) == "agents" && strings.HasSuffix(base, ".md") && converted(items, rel, ""):
		return dir + strings.TrimSuffix(base, ".md") + "/agent.md"
	case path.Base(dir) == "skills" && strings.HasSuffix(base, ".md") && converted(items, rel, ""):
		return dir + strings.TrimSuffix(base, ".md") + "/SKILL.md"
	}
	return rel
}

// compare lists what of the live file at rel the render under fresh lost.
func compare(root, fresh, rel string, items []importer.Item, errs []string) []string {
	if excused(errs, "") {
		return nil
	}
	live, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return []string{err.Error()}
	}
	target := where(items, rel)
	got, err := os.ReadFile(filepath.Join(fresh, filepath.FromSlash(target)))
	switch {
	case strings.HasSuffix(rel, ".json") && len(bytes.TrimSpace(live)) == 0:
		return nil // agy's own empty mcp_config.json: no servers
	case err != nil && leftInPlace(items, rel):
		return nil
	case err != nil:
		return []string{"not rendered (at " + target + ")"}
	}
	if strings.HasSuffix(rel, ".json") {
		a, b := parseJSON(live), parseJSON(got)
		var out []string
		subJSON(a, b, "", func(ptr, what string) {
			if excused(errs, ptr) || allowedJSON(items, rel, ptr, a, b) {
				return
			}
			out = append(out, ptr+": "+what)
		})
		return out
	}
	if !strings.HasSuffix(rel, ".md") {
		if !bytes.Equal(bytes.TrimRight(live, "\n"), bytes.TrimRight(got, "\n")) {
			return []string{"the text differs"}
		}
		return nil
	}
	if leftInPlace(items, rel) {
		return nil
	}
	fa, ba := splitMarkdown(live)
	fb, bb := splitMarkdown(got)
	var out []string
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		if jsonText(fa[k]) != jsonText(fb[k]) && !excused(errs, "/"+k) && !converted(items, rel, k) {
			out = append(out, fmt.Sprintf("frontmatter %s: %s became %s", k, short(fa[k]), short(fb[k])))
		}
	}
	if ba != bb {
		out = append(out, "the body differs")
	}
	return out
}

// allowedJSON: a member the report says was converted to an equivalent
// one (url written as serverUrl, "disabled": false left out as agy's
// default).
func allowedJSON(items []importer.Item, rel, ptr string, a, b any) bool {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	unit := strings.Join(segs, ".")
	if !converted(items, rel, unit) {
		return false
	}
	last := segs[len(segs)-1]
	parentA, _ := at(a, segs[:len(segs)-1]).(map[string]any)
	parentB, _ := at(b, segs[:len(segs)-1]).(map[string]any)
	switch last {
	case "url", "httpUrl":
		return parentA[last] == parentB["serverUrl"]
	case "disabled":
		return parentA[last] == false
	}
	return false
}

func at(v any, segs []string) any {
	for _, s := range segs {
		m, _ := v.(map[string]any)
		v = m[s]
	}
	return v
}

// subJSON calls lost for every member of a missing from b or holding
// another value; lists are compared item by item.
func subJSON(a, b any, ptr string, lost func(ptr, what string)) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			lost(ptr, "is no longer an object")
			return
		}
		for k, v := range x {
			w, has := y[k]
			if !has {
				lost(ptr+"/"+k, "dropped")
				continue
			}
			subJSON(v, w, ptr+"/"+k, lost)
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			lost(ptr, fmt.Sprintf("%s became %s", short(a), short(b)))
			return
		}
		for i := range x {
			subJSON(x[i], y[i], fmt.Sprintf("%s/%d", ptr, i), lost)
		}
	default:
		if jsonText(a) != jsonText(b) {
			lost(ptr, fmt.Sprintf("%s became %s", short(a), short(b)))
		}
	}
}

// parseJSON reads a JSON file as agyconf reads live files, comments and
// trailing commas included (an mcp_config.json may hold them).
func parseJSON(data []byte) any {
	t, err := jsonmerge.Read(data, jsonmerge.AgySyntax("mcp_config"))
	if err != nil {
		return fmt.Sprintf("(does not parse: %v)", err)
	}
	return t.Value()
}

// splitMarkdown is a document's frontmatter as JSON-like values, and its
// body without surrounding blank lines.
func splitMarkdown(doc []byte) (map[string]any, string) {
	fm, body, _, err := frontmatter.Split(bytes.TrimPrefix(doc, []byte("\xef\xbb\xbf")))
	if err != nil {
		return map[string]any{}, strings.Trim(string(doc), "\n")
	}
	m, err := frontmatter.Parse(fm)
	if err != nil {
		return map[string]any{"(does not parse)": err.Error()}, strings.Trim(string(body), "\n")
	}
	return m, strings.Trim(string(body), "\n")
}

func jsonText(v any) string {
	b, err := json.Marshal(normal(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// normal makes YAML's numbers and JSON's compare alike.
func normal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = normal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normal(e)
		}
		return out
	case json.Number:
		var f float64
		if _, err := fmt.Sscan(x.String(), &f); err == nil {
			return f
		}
	case int:
		return float64(x)
	}
	return v
}

func short(v any) string {
	s := jsonText(v)
	if v == nil {
		s = "(absent)"
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return slices.Sorted(slices.Values(out))
}
