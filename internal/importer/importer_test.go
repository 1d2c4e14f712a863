package importer

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

var update = flag.Bool("update", false, "rewrite the golden reports")

// copyTree copies a testdata tree into a fresh root, modes included.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	root := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(root, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// decodeRender writes the imported config (and its files) into a folder,
// decodes it with internal/config, expands harnesses and renders it. With
// Options.Out, dir must be it: secret_file() names the secrets written
// there by absolute path.
func decodeRender(t *testing.T, res *Result, dir string) *render.Plan {
	t.Helper()
	for rel, f := range res.Files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		switch {
		case f.Secret:
			mode = 0o600
		case f.Executable:
			mode = 0o755
		}
		if err := os.WriteFile(p, f.Data, mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "agyconf.hcl"), res.HCL, 0o644); err != nil {
		t.Fatal(err)
	}
	p := config.NewParser()
	cfg, diags := p.LoadConfig(filepath.Join(dir, "agyconf.hcl"))
	if !diags.HasErrors() {
		diags = append(diags, harness.Expand(cfg)...)
	}
	if diags.HasErrors() {
		t.Fatalf("the imported config does not decode: %s\n%s", diags.Error(), res.HCL)
	}
	plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
	if diags.HasErrors() {
		t.Fatalf("the imported config does not render: %s\n%s", diags.Error(), res.HCL)
	}
	return plan
}

func readJSONFile(t *testing.T, p string) any {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return parseJSON(t, data)
}

func parseJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return v
}

// changed reports whether the report lists something about unit (or
// one of its parts) of path: such a unit is compared without those parts,
// or not at all when it was converted.
func changed(items []Item, path, unit string) (drop []string, converted bool) {
	for _, it := range items {
		if it.Path != path || it.Unit == "" || it.Kind == KindSecret || it.Kind == KindHarness {
			continue
		}
		if unit == "" {
			drop = append(drop, it.Unit)
			converted = converted || it.Kind == KindConverted
			continue
		}
		if it.Unit == unit || strings.HasPrefix(it.Unit, unit+".") || strings.HasPrefix(it.Unit, unit+"[") {
			if it.Kind == KindConverted || strings.Contains(it.Unit, "[") {
				converted = true
			}
			drop = append(drop, strings.TrimPrefix(strings.TrimPrefix(it.Unit, unit), "."))
		}
	}
	return drop, converted
}

// readSecretFile reads a secret file as agyconf's secret_file() does,
// without one trailing "\n" and then one "\r".
func readSecretFile(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r"), nil
}

// secretReader reads the secrets of an imported config: from the files
// import wrote (--out) or the report's commands created, else the value a
// placeholder stands for.
func secretReader(res *Result) render.SecretReader {
	return func(p string) (string, error) {
		if v, err := readSecretFile(p); err == nil {
			return v, nil
		}
		v, ok := res.secretFiles[p]
		if !ok {
			return "", fmt.Errorf("secret file %s: neither written nor a placeholder", p)
		}
		return v, nil
	}
}

// checkRoundTrip renders the imported config (from out, where --out wrote
// it, or a fresh folder) and compares every unit it writes with the live
// tree. It returns the plan, for exact comparisons.
func checkRoundTrip(t *testing.T, root, out string, res *Result) *render.Plan {
	t.Helper()
	if out == "" {
		out = t.TempDir()
	}
	plan := decodeRender(t, res, out)
	read := secretReader(res)
	compared := 0
	for _, d := range plan.Documents {
		full := filepath.Join(root, filepath.FromSlash(d.Path))
		liveData, err := os.ReadFile(full)
		if err != nil {
			if conv := changedPath(res.Items, d.Path); conv {
				continue
			}
			t.Errorf("%s: rendered but not in the live tree", d.Path)
			continue
		}
		data, err := d.Bytes(read)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case d.Kind == render.ManagedBlock:
			if !bytes.Contains(liveData, data) {
				t.Errorf("%s: managed block differs:\n%s", d.Path, data)
			}
			compared++
		case d.JSON != nil:
			got, live := parseJSON(t, data).(map[string]any), readJSONFile(t, full).(map[string]any)
			units := map[string][2]any{}
			if servers, ok := got["mcpServers"].(map[string]any); ok {
				lm, _ := live["mcpServers"].(map[string]any)
				for k, v := range servers {
					units["mcpServers."+k] = [2]any{v, lm[k]}
				}
			} else if d.Merge != nil && len(d.Merge.Parent) > 0 {
				// Entries of the parent one by one, list items one by one
				// (config.json's plugins and shared grants).
				parent := strings.Join(d.Merge.Parent, ".")
				gm, _ := valueAt(got, d.Merge.Parent).(map[string]any)
				lm, _ := valueAt(live, d.Merge.Parent).(map[string]any)
				for k, v := range gm {
					units[parent+"."+k] = [2]any{v, lm[k]}
				}
				for _, ip := range d.Merge.Items {
					gl, _ := valueAt(got, ip).([]any)
					ll, _ := valueAt(live, ip).([]any)
					for _, x := range gl {
						if !containsAny(ll, x) {
							t.Errorf("%s: %s item %v is not live", d.Path, strings.Join(ip, "."), x)
						}
						compared++
					}
				}
			} else {
				for k, v := range got {
					units[k] = [2]any{v, live[k]}
				}
			}
			for unit, pair := range units {
				drop, conv := changed(res.Items, d.Path, unit)
				if conv {
					continue
				}
				lv := pair[1]
				if len(drop) > 0 {
					lv = parseJSON(t, []byte(jsonText(lv))) // a copy
					for _, k := range drop {
						deletePath(lv, strings.Split(k, "."))
					}
				}
				if unit == "permissions" {
					// Items are owned one by one; an invalid live one is
					// listed and left out.
					lv = pair[0]
					for _, l := range []string{"allow", "ask", "deny"} {
						for _, x := range asList(pair[0], l) {
							if !containsAny(asList(live["permissions"], l), x) {
								t.Errorf("%s: permission %s %v is not live", d.Path, l, x)
							}
						}
					}
				}
				if !reflect.DeepEqual(pair[0], lv) {
					t.Errorf("%s %s: rendered %s, live %s", d.Path, unit, jsonText(pair[0]), jsonText(lv))
				}
				compared++
			}
		case strings.HasSuffix(d.Path, ".md") && d.Schema != "":
			gfm, gbody, err := Markdown(data)
			if err != nil {
				t.Fatal(err)
			}
			lfm, lbody, err := Markdown(liveData)
			if err != nil {
				t.Fatal(err)
			}
			drop, conv := changed(res.Items, d.Path, "")
			if !conv {
				for _, k := range drop {
					delete(lfm, k)
				}
				if !reflect.DeepEqual(gfm, lfm) || gbody != lbody {
					t.Errorf("%s: rendered %v %q, live %v %q", d.Path, gfm, gbody, lfm, lbody)
				}
			}
			compared++
		default:
			if !bytes.Equal(data, liveData) {
				t.Errorf("%s: rendered bytes differ from the live file", d.Path)
			}
			compared++
		}
	}
	if compared == 0 {
		t.Error("nothing compared")
	}
	return plan
}

// checkSameBytes asserts that the plan writes exactly the live file's
// bytes to path, secrets read by read.
func checkSameBytes(t *testing.T, plan *render.Plan, root, path string, read render.SecretReader) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range plan.Documents {
		if d.Path != path {
			continue
		}
		got, err := d.Bytes(read)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("re-rendered %s differs:\n%s\nwant:\n%s", path, got, want)
		}
		return
	}
	t.Errorf("the imported config does not render %s", path)
}

// checkSecretsKept asserts that no secret the import found, and no canary
// (text containing "canary", which the test trees put in secret values
// only), is in what import prints — the config, the report and its
// commands — or in a file it writes other than that secret's own; that
// each secret file holds one secret; and that ReadsSecrets says whether
// the config calls secret_file().
func checkSecretsKept(t *testing.T, root string, res *Result) {
	t.Helper()
	shown := map[string]string{"the config": string(res.HCL), "the report": report(res, root)}
	for rel, f := range res.Files {
		if f.Secret {
			v := string(f.Data)
			if strings.HasSuffix(v, "\r\n") {
				v = strings.TrimSuffix(v, "\r\n")
			}
			if !slices.Contains(res.Secrets, v) {
				t.Errorf("secret file %s holds no secret the import found", rel)
			}
			continue
		}
		shown[rel] = string(f.Data)
	}
	for where, text := range shown {
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "canary") {
				t.Errorf("%s shows a canary: %s", where, line)
			}
		}
		for _, v := range res.Secrets {
			if strings.Contains(text, v) {
				t.Errorf("%s shows the secret value %q", where, v[:min(3, len(v))]+"…")
			}
		}
	}
	if calls := bytes.Contains(res.HCL, []byte("secret_file(")); res.ReadsSecrets != calls {
		t.Errorf("ReadsSecrets is %v, but the config calling secret_file() is %v", res.ReadsSecrets, calls)
	}
}

func valueAt(v any, path []string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func deletePath(v any, keys []string) {
	m, ok := v.(map[string]any)
	if !ok || len(keys) == 0 {
		return
	}
	if len(keys) == 1 {
		delete(m, keys[0])
		return
	}
	deletePath(m[keys[0]], keys[1:])
	if sub, ok := m[keys[0]].(map[string]any); ok && len(sub) == 0 {
		delete(m, keys[0])
	}
}

func changedPath(items []Item, p string) bool {
	for _, it := range items {
		if it.Kind == KindConverted && strings.Contains(it.Reason, strings.TrimSuffix(p[:strings.LastIndex(p, "/")], "/")) {
			return true
		}
	}
	return false
}

func asList(v any, k string) []any {
	m, _ := v.(map[string]any)
	xs, _ := m[k].([]any)
	return xs
}

func containsAny(xs []any, x any) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// report is the golden form of an import's report: one item a line, the
// temporary root replaced by $ROOT.
func report(res *Result, root string) string {
	var b strings.Builder
	for _, it := range res.Items {
		b.WriteString(it.String())
		b.WriteString("\n")
		if it.Command != "" {
			b.WriteString("  create it: " + it.Command + "\n")
		}
	}
	return strings.ReplaceAll(b.String(), root, "$ROOT")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test -update rewrites it):\n--- want\n%s\n--- got\n%s", p, want, got)
	}
}

func TestImportRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		tree  string
		scope model.Scope
		out   bool
		// links, when set, plants symbolic links in the copied tree and
		// returns what the import must then show of them.
		links func(t *testing.T, root string) func(t *testing.T, res *Result)
	}{
		{"global", model.ScopeGlobal, false, globalLinks},
		{"global", model.ScopeGlobal, true, globalLinks},
		{"workspace", model.ScopeWorkspace, false, workspaceLinks},
		{"workspace", model.ScopeWorkspace, true, workspaceLinks},
		// Hand-written credentials in every position, no state: the
		// key-name and value rule (secrets.go).
		{"secrets", model.ScopeGlobal, false, nil},
		{"secrets", model.ScopeGlobal, true, nil},
	} {
		name := tc.tree
		if tc.out {
			name += "-out"
		}
		t.Run(name, func(t *testing.T) {
			root := copyTree(t, filepath.Join("testdata", tc.tree))
			var checkLinks func(t *testing.T, res *Result)
			if tc.links != nil {
				checkLinks = tc.links(t, root)
			}
			// As the CLI sets it: links out are read in the user's own
			// home only.
			opts := Options{Root: root, Scope: tc.scope, Product: model.ProductBoth, FollowLinksOut: tc.scope == model.ScopeGlobal}
			if tc.out {
				opts.Out = t.TempDir()
			}
			res, err := Import(opts)
			if err != nil {
				t.Fatal(err)
			}
			if checkLinks != nil {
				checkLinks(t, res)
				checkSecretsKept(t, root, res)
			}
			if tc.scope == model.ScopeWorkspace && !tc.out {
				// Skill sources are relative to the workspace root, where
				// the config is meant to be saved.
				res.HCL = bytes.ReplaceAll(res.HCL, []byte(`source = "`), []byte(`source = "`+root+"/"))
				if bytes.Contains(res.HCL, []byte("source")) {
					t.Skip("absolute sources are refused in workspace scope; covered with --out")
				}
			}
			checkSecretsKept(t, root, res)
			if tc.tree == "secrets" && !tc.out {
				runCommands(t, res)
			}
			plan := checkRoundTrip(t, root, opts.Out, res)
			if tc.tree == "workspace" && !hasDocument(plan, ".antigravityignore") {
				t.Error("the block of .antigravityignore was not imported")
			}
			if tc.tree == "secrets" {
				checkSameBytes(t, plan, root, ".gemini/config/mcp_config.json", secretReader(res))
				checkSecretsTree(t, res, tc.out)
			}
			if !tc.out {
				golden(t, tc.tree+".report", report(res, root))
			} else if len(res.Files) == 0 {
				t.Error("--out wrote no body files")
			}
			// Deterministic: a second import prints the same bytes.
			again, err := Import(opts)
			if err != nil {
				t.Fatal(err)
			}
			if tc.scope == model.ScopeWorkspace && !tc.out {
				again.HCL = bytes.ReplaceAll(again.HCL, []byte(`source = "`), []byte(`source = "`+root+"/"))
			}
			if !bytes.Equal(again.HCL, res.HCL) {
				t.Error("two imports of one tree differ")
			}
		})
	}
}

// plant writes a file below dir, its folders made.
func plant(t *testing.T, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// symlink makes rel below root a symbolic link to target.
func symlink(t *testing.T, root, rel, target string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// outsideTree is a folder outside any root holding, in every shape import
// reads, a file that would import if it were read, each carrying
// "canary-outside": what no link out of a workspace may bring in.
func outsideTree(t *testing.T) string {
	blockBegin, blockEnd := agy.BlockHTMLComment.Markers()
	t.Helper()
	out := t.TempDir()
	for rel, data := range map[string]string{
		"mcp.json":               `{"mcpServers": {"leak": {"command": "canary-outside-mcp"}}}`,
		"legacy.json":            `{"mcpServers": {"old": {"command": "canary-outside-legacy"}}}`,
		"hooks.json":             `{"leak": {"Stop": [{"type": "command", "command": "canary-outside-hook", "timeout": 5}]}}`,
		"settings.json":          `{"model": "canary-outside-model"}`,
		"plugin.json":            `{"name": "q", "description": "canary-outside-plugin"}`,
		"rule.md":                "---\ntrigger: always_on\n---\n\ncanary-outside-rule\n",
		"a.md":                   "---\nname: a\ndescription: canary-outside-agent\n---\n\ncanary-outside-agent\n",
		"workflow.md":            "---\ndescription: canary-outside-workflow\n---\n\ncanary-outside-workflow\n",
		"GEMINI.md":              blockBegin + "\n## leak\n\ncanary-outside-gemini\n" + blockEnd + "\n",
		"skill/SKILL.md":         "---\nname: t\ndescription: canary-outside-skill\n---\n\ncanary-outside-skill\n",
		"plugin/plugin.json":     `{"name": "evil"}`,
		"plugin/mcp_config.json": `{"mcpServers": {"leak": {"command": "canary-outside-plugin-mcp"}}}`,
		"rules/r.md":             "---\ntrigger: always_on\n---\n\ncanary-outside-plugin-rule\n",
		"skills/s/SKILL.md":      "---\nname: s\ndescription: canary-outside-plugin-skill\n---\n\ncanary-outside-plugin-skill\n",
		"agents/a.md":            "---\nname: a\ndescription: canary-outside-plugin-agent\n---\n\ncanary-outside-plugin-agent\n",
	} {
		plant(t, out, rel, data)
	}
	return out
}

// linkItem is the report line for a link import refuses to read through.
func linkItem(rel, target, where string) string {
	return fmt.Sprintf("not imported: %s: is a link to %s, outside %s; agyconf does not read through it", rel, target, where)
}

// checkItems fails unless every want is a line of the report.
func checkItems(t *testing.T, res *Result, want ...string) {
	t.Helper()
	var lines []string
	for _, it := range res.Items {
		lines = append(lines, it.String())
	}
	for _, w := range want {
		if !slices.Contains(lines, w) {
			t.Errorf("the report lacks %q:\n%s", w, strings.Join(lines, "\n"))
		}
	}
}

// workspaceLinks plants links out of the workspace — absolute and
// climbing, to files and folders, to /proc/self/environ — in every folder
// import lists, one that dangles, and links that stay inside, relative
// and absolute. Nothing is read through the first kinds (checkSecretsKept
// finds no canary; each is reported); the others import, and the round
// trip compares them with the files they lead to.
func workspaceLinks(t *testing.T, root string) func(*testing.T, *Result) {
	out := outsideTree(t)
	plant(t, root, "shared/inside.md", "---\ntrigger: always_on\n---\n\nLinked from inside the project.\n")
	plant(t, root, "shared/flow.md", "---\ndescription: Linked\n---\n\nFlow through a link.\n")
	plant(t, root, ".agents/skills/peek/SKILL.md", "---\nname: peek\ndescription: Holds a link\n---\n\nPeek.\n")
	symlink(t, root, ".agents/rules/inside.md", "../../shared/inside.md")
	symlink(t, root, ".agents/workflows/flow.md", filepath.Join(root, "shared/flow.md"))
	climb, err := filepath.Rel(filepath.Join(root, ".agents/rules"), filepath.Join(out, "rule.md"))
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		".agents/rules/outside.md":  filepath.Join(out, "rule.md"),
		".agents/rules/climb.md":    climb,
		".agents/workflows/env.md":  "/proc/self/environ",
		".agents/workflows/leak.md": filepath.Join(out, "workflow.md"),
		".agents/agents/a.md":       filepath.Join(out, "a.md"),
		".agents/skills/t":          filepath.Join(out, "skill"),
		".agents/skills/peek/x.md":  filepath.Join(out, "rule.md"),
		".agents/plugins/evil":      filepath.Join(out, "plugin"),
	}
	for rel, target := range links {
		symlink(t, root, rel, target)
	}
	symlink(t, root, ".agents/rules/gone.md", "nothing-here.md")
	return func(t *testing.T, res *Result) {
		t.Helper()
		var want []string
		for rel, target := range links {
			if rel != ".agents/skills/peek/x.md" {
				want = append(want, linkItem(rel, target, "the project"))
			}
		}
		want = append(want, "not imported: .agents/rules/gone.md: is a link to nothing-here.md, which does not exist; agyconf does not read through it",
			// A link inside a skill folder is refused whatever it leads
			// to, as before.
			"not imported: .agents/skills/peek: x.md is a symbolic link, which agyconf refuses in a skill folder (it could copy anything into the tree)")
		checkItems(t, res, want...)
		for _, w := range []string{`rule "inside" {`, "Linked from inside the project.", `workflow "flow" {`, "Flow through a link."} {
			if !bytes.Contains(res.HCL, []byte(w)) && !slices.ContainsFunc(sortedKeys(res.Files), func(k string) bool { return bytes.Contains(res.Files[k].Data, []byte(w)) }) {
				t.Errorf("a link inside the project is not imported: no %q in\n%s", w, res.HCL)
			}
		}
		if bytes.Contains(res.HCL, []byte("PATH=")) || bytes.Contains(res.HCL, []byte(`"env"`)) {
			t.Errorf("/proc/self/environ was read:\n%s", res.HCL)
		}
	}
}

// globalLinks links an agent from outside the home, as a dotfiles
// checkout elsewhere or Home Manager's /nix/store would: in global scope
// (Options.FollowLinksOut, which the CLI sets there) it is read and
// imported, and the round trip compares it with the file it leads to.
func globalLinks(t *testing.T, root string) func(*testing.T, *Result) {
	dotfiles := t.TempDir()
	plant(t, dotfiles, "linked.md", "---\nname: linked\ndescription: Lives in a dotfiles checkout\n---\n\nRead through a link out of the home.\n")
	symlink(t, root, ".gemini/config/agents/linked/agent.md", filepath.Join(dotfiles, "linked.md"))
	return func(t *testing.T, res *Result) {
		t.Helper()
		if !bytes.Contains(res.HCL, []byte(`agent "linked" {`)) {
			t.Errorf("a link out of the home is not read in global scope:\n%s", res.HCL)
		}
	}
}

// renderInto renders a config text into root, as agyconf render would:
// inline secrets read from their files, the state where the CLI keeps a
// global one (root/.local/state/agyconf/test.json).
func renderInto(t *testing.T, root, hcl string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agyconf.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.NewParser().LoadConfig(filepath.Join(dir, "agyconf.hcl"))
	if !diags.HasErrors() {
		diags = append(diags, harness.Expand(cfg)...)
	}
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	fsys, err := confine.Open(root, confine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	store := apply.NewStore(fsys, ".local/state/agyconf")
	opts := apply.Options{FS: fsys, Store: store, Instance: "test", Secrets: readSecretFile}
	st, _ := store.LoadState(opts.Instance)
	changes, err := apply.Decide(plan, st, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := apply.Execute(changes, st, opts); err != nil {
		t.Fatal(err)
	}
}

func TestImportHarnessRendered(t *testing.T) {
	for _, tc := range []struct{ name, hcl, want string }{
		{"mempalace-plugin", `harness "mempalace" {
  save_interval = 7
}`, `harness "mempalace" {
  save_interval = 7
}`},
		{"mempalace-loose", `harness "mempalace" {
  mode = "loose"
  wake = false
}`, `harness "mempalace" {
  mode = "loose"
  wake = false
}`},
		{"xmsg", `harness "xmsg" {
  reply_only = true
}`, `harness "xmsg" {
  reply_only = true
}`},
		{"xmsg-legacy", `harness "xmsg" {
  legacy_hooks = true
}`, `harness "xmsg" {
  legacy_hooks = true
}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			renderInto(t, root, "agyconf {\n  scope = \"global\"\n  product = \"both\"\n}\n"+tc.hcl+"\n")
			res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(res.HCL, []byte(tc.want)) {
				t.Fatalf("no harness block %q in:\n%s", tc.want, res.HCL)
			}
			for _, kind := range []string{"mcp_server", "hook", "skill", "plugin"} {
				if bytes.Contains(res.HCL, []byte(kind+" ")) {
					t.Errorf("raw %s left beside the harness:\n%s", kind, res.HCL)
				}
			}
			diff, err := MigrationDiff(res, root)
			if err != nil {
				t.Fatal(err)
			}
			if diff != "" {
				t.Errorf("agyconf's own harness tree should import with an empty diff, got:\n%s", diff)
			}
			decodeRender(t, res, t.TempDir())
		})
	}
}

func TestImportMemPalaceBash(t *testing.T) {
	root := copyTree(t, filepath.Join("testdata", "mempalace-bash"))
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(res.HCL, []byte(`harness "mempalace" {`)) || bytes.Contains(res.HCL, []byte("plugin ")) {
		t.Fatalf("MemPalace's plugin not imported as the harness:\n%s", res.HCL)
	}
	diff, err := MigrationDiff(res, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"--- a/.gemini/config/plugins/mempalace/hooks.json",
		"-{\"mempalace-save\":{\"Stop\":[{\"type\":\"command\",\"command\":\"/home/u/.gemini/config/plugins/mempalace/hooks/mempal_save_hook_antigravity.sh\"",
		"+        \"command\": \"agyhook mempalace-save --interval 15\",",
		"--- a/.gemini/config/plugins/mempalace/skills/mempalace/SKILL.md",
	} {
		if !strings.Contains(diff, want) {
			t.Errorf("the migration diff lacks %q:\n%s", want, diff)
		}
	}
	golden(t, "mempalace-bash.report", report(res, root))
	decodeRender(t, res, t.TempDir())
}

// TestImportParseError: a shared live file that does not parse (or
// cannot be read) is reported with its position and message, and the rest
// of the tree is still imported; agy's own empty mcp_config.json is no
// servers, no problem. The config declares nothing of a file it could not
// read, so render merges nothing into it (and refuses to, until it is
// fixed).
func TestImportParseError(t *testing.T) {
	root := t.TempDir()
	plant(t, root, ".gemini/config/hooks.json", "{\n  \"a\": {\n    \"Stop\": [],\n  }\n}\n")
	plant(t, root, ".gemini/config/mcp_config.json", "")
	plant(t, root, ".gemini/antigravity-cli/settings.json", "{\"colorScheme\": \"dark\", // mine\n}\n")
	plant(t, root, ".gemini/config/agents/rev/agent.md", "---\nname: rev\ndescription: Reviews\n---\n\nReview.\n")
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth})
	if err != nil {
		t.Fatalf("import failed: %v", err)
	}
	checkItems(t, res,
		"not imported: .gemini/config/hooks.json:3:15: does not parse: trailing comma before '}'; JSON does not allow one; render refuses to merge into it until it is fixed, so nothing of it is declared",
		"not imported: .gemini/antigravity-cli/settings.json:1:25: does not parse: unexpected comment; JSON has no comments; render refuses to merge into it until it is fixed, so nothing of it is declared")
	for _, it := range res.Items {
		if strings.Contains(it.Path, "mcp_config.json") {
			t.Errorf("agy's own empty mcp_config.json is reported: %s", it)
		}
	}
	if len(res.Config.Agents) != 1 || len(res.Config.Hooks) != 0 || res.Config.Settings != nil || len(res.Config.MCPServers) != 0 {
		t.Errorf("want the subagent alone imported, got %+v", res.Config)
	}
}

// TestImportExecSecrets: a server agyconf wrote with secret_mode "exec"
// (agyhook exec-env in front of it) imports as the server it starts, its
// secrets as the secret_file() calls they came from — a whole value and a
// template — and renders back to the same mcp_config.json.
func TestImportExecSecrets(t *testing.T) {
	root := t.TempDir()
	renderInto(t, root, `agyconf {
  scope   = "global"
  product = "cli"
}
tools {
  agyhook = "/opt/bin/agyhook"
}
mcp_server "api" {
  command = "api-mcp"
  args    = ["--port", "8080"]
  env     = { TOKEN = secret_file("/run/secrets/api"), AUTH = "Bearer ${secret_file("/run/secrets/api")} $${NOT_A_VAR}", LEVEL = "debug" }
}
`)
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`command = "api-mcp"`,
		`args    = ["--port", "8080"]`,
		`"AUTH"  = "Bearer ${secret_file("/run/secrets/api")} $${NOT_A_VAR}"`,
		`"TOKEN" = secret_file("/run/secrets/api")`,
		`"LEVEL" = "debug"`,
		`agyhook = "/opt/bin/agyhook"`,
	} {
		if !bytes.Contains(res.HCL, []byte(want)) {
			t.Errorf("no %s in:\n%s", want, res.HCL)
		}
	}
	if bytes.Contains(res.HCL, []byte("exec-env")) || bytes.Contains(res.HCL, []byte("TODO")) {
		t.Errorf("the wrapping or a TODO survived:\n%s", res.HCL)
	}
	plan := decodeRender(t, res, t.TempDir())
	checkSameBytes(t, plan, root, ".gemini/config/mcp_config.json", render.Redact)

	// A credential typed into the wrapped server's env since: it is kept
	// out of the config, and the server stays exec, so that the files
	// exec-env reads are not inlined into mcp_config.json.
	mcp := filepath.Join(root, ".gemini/config/mcp_config.json")
	live, err := os.ReadFile(mcp)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(live, []byte(`"LEVEL": "debug"`), []byte(`"LEVEL": "debug", "API_TOKEN": "canary-typed-in"`), 1)
	if bytes.Equal(edited, live) {
		t.Fatalf("no LEVEL in the wrapped server's env:\n%s", live)
	}
	if err := os.WriteFile(mcp, edited, 0o600); err != nil {
		t.Fatal(err)
	}
	if res, err = Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI}); err != nil {
		t.Fatal(err)
	}
	checkSecretsKept(t, root, res)
	if bytes.Contains(res.HCL, []byte("secret_mode")) || !bytes.Contains(res.HCL, []byte(`"API_TOKEN" = secret_file(`)) {
		t.Errorf("the typed-in credential is not a secret of an exec server:\n%s", res.HCL)
	}
	if !strings.Contains(report(res, root), "converted: .gemini/config/mcp_config.json mcpServers.api.env: a credential in env moves into the agyhook exec-env wrapping") {
		t.Errorf("the move into the wrapping is not reported:\n%s", report(res, root))
	}
}

// TestImportLinksOut makes every file and folder import reads a link out
// of the root — mcp_config.json (the IDE's legacy one too), hooks.json,
// settings.json, GEMINI.md, a rule, a workflow, a subagent, a SKILL.md, a
// skill folder, a plugin folder, a plugin's manifest, servers, hooks,
// rules, skills and subagents, the legacy root — in both scopes. Without
// Options.FollowLinksOut each is reported as a link and nothing of what
// it leads to is in the config, the report or a file; with it (what the
// CLI sets in global scope) the same tree imports what the links lead to.
func TestImportLinksOut(t *testing.T) {
	kinds := map[model.Scope]struct {
		prefix string
		links  map[string]string // below the root: the outside file
	}{
		model.ScopeWorkspace: {".agents/", map[string]string{
			".agents/mcp_config.json":    "mcp.json",
			".agents/hooks.json":         "hooks.json",
			".antigravity/settings.json": "settings.json",
			".agents/rules/r.md":         "rule.md",
			".agents/workflows/w.md":     "workflow.md",
			".agent":                     ".",
		}},
		model.ScopeGlobal: {".gemini/config/", map[string]string{
			".gemini/config/mcp_config.json":                "mcp.json",
			".gemini/antigravity/mcp_config.json":           "legacy.json",
			".gemini/config/hooks.json":                     "hooks.json",
			".gemini/antigravity-cli/settings.json":         "settings.json",
			".gemini/GEMINI.md":                             "GEMINI.md",
			".gemini/antigravity-cli/global_workflows/w.md": "workflow.md",
		}},
	}
	for _, scope := range []model.Scope{model.ScopeWorkspace, model.ScopeGlobal} {
		for _, follow := range []bool{false, true} {
			if scope == model.ScopeWorkspace && follow {
				continue // the CLI never follows links out of a workspace
			}
			t.Run(fmt.Sprintf("%s-follow-%v", scope, follow), func(t *testing.T) {
				root, out := t.TempDir(), outsideTree(t)
				k := kinds[scope]
				links := map[string]string{}
				for rel, target := range k.links {
					links[rel] = filepath.Join(out, target)
				}
				for rel, target := range map[string]string{
					"agents/a.md":               "a.md",
					"skills/s/SKILL.md":         "skill/SKILL.md",
					"skills/t":                  "skill",
					"plugins/evil":              "plugin",
					"plugins/q/plugin.json":     "plugin.json",
					"plugins/k/mcp_config.json": "plugin/mcp_config.json",
					"plugins/k/hooks.json":      "hooks.json",
					"plugins/k/rules":           "rules",
					"plugins/k/skills":          "skills",
					"plugins/k/agents":          "agents",
				} {
					links[k.prefix+rel] = filepath.Join(out, target)
				}
				plant(t, root, k.prefix+"plugins/k/plugin.json", `{"name": "k"}`)
				for rel, target := range links {
					symlink(t, root, rel, filepath.Clean(target))
				}
				res, err := Import(Options{Root: root, Scope: scope, Product: model.ProductBoth, FollowLinksOut: follow})
				if err != nil {
					t.Fatal(err)
				}
				if follow {
					for _, w := range []string{"canary-outside-mcp", "canary-outside-hook", "canary-outside-model", "canary-outside-gemini",
						"canary-outside-agent", "canary-outside-workflow", "canary-outside-legacy", "canary-outside-plugin-mcp", "canary-outside-plugin-rule",
						"canary-outside-plugin-agent", "canary-outside-plugin-skill"} {
						if !bytes.Contains(res.HCL, []byte(w)) {
							t.Errorf("a link out of the home is not read: no %s in\n%s", w, res.HCL)
						}
					}
					return
				}
				var want []string
				for rel, target := range links {
					want = append(want, linkItem(rel, filepath.Clean(target), map[model.Scope]string{model.ScopeWorkspace: "the project", model.ScopeGlobal: "the root"}[scope]))
				}
				checkItems(t, res, want...)
				checkSecretsKept(t, root, res)
				if bytes.Contains(res.HCL, []byte("leak")) {
					t.Errorf("something behind a link was imported:\n%s", res.HCL)
				}
			})
		}
	}

	// A whole customization folder linked out: one item, nothing read.
	root, out := t.TempDir(), outsideTree(t)
	symlink(t, root, ".agents", filepath.Join(out, "plugin"))
	res, err := Import(Options{Root: root, Scope: model.ScopeWorkspace, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	if want := linkItem(".agents", filepath.Join(out, "plugin"), "the project"); len(res.Items) != 1 || res.Items[0].String() != want {
		t.Errorf("got %v, want the one item %q", res.Items, want)
	}
	checkSecretsKept(t, root, res)
}

// TestImportRetiredSettings: a workspace's .antigravity/settings.json,
// which agyconf no longer writes, is reported once and nothing of it is
// imported (its permissions would be refused in workspace scope).
func TestImportRetiredSettings(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".antigravity")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte("{\n  \"permissions\": {\n    \"allow\": [\"command(go test)\"]\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, product := range []model.Product{model.ProductIDE, model.ProductBoth} {
		res, err := Import(Options{Root: root, Scope: model.ScopeWorkspace, Product: product})
		if err != nil {
			t.Fatal(err)
		}
		if res.Config.Permissions != nil || len(res.Config.Settings) != 0 {
			t.Errorf("%s: imported %+v, %+v", product, res.Config.Permissions, res.Config.Settings)
		}
		if len(res.Items) != 1 || !strings.HasPrefix(res.Items[0].String(), "not imported: .antigravity/settings.json: left as it is: no source shows anything reading") {
			t.Errorf("%s: got %v", product, res.Items)
		}
	}
}

// hasDocument reports whether the plan writes path.
func hasDocument(plan *render.Plan, path string) bool {
	for _, d := range plan.Documents {
		if d.Path == path {
			return true
		}
	}
	return false
}

// TestImportForms: import reads a subagent in the folder form render
// writes and in the flat form agy may read too, and a flat skill file;
// where both forms of one name exist the folder is imported and the flat
// file reported. What only newer builds read raises the agy_version.
func TestImportForms(t *testing.T) {
	root := t.TempDir()
	agent := func(name, extra string) string {
		return "---\nname: " + name + "\ndescription: Does " + name + "\n" + extra + "---\n\nYou do " + name + ".\n"
	}
	plant(t, root, ".agents/agents/folder/agent.md", agent("folder", "rules: [style.md]\n"))
	plant(t, root, ".agents/agents/folder/notes.txt", "kept\n")
	plant(t, root, ".agents/agents/flat.md", agent("flat", "inheritCustomizations: false\n"))
	plant(t, root, ".agents/agents/both.md", agent("both", ""))
	plant(t, root, ".agents/agents/both/agent.md", agent("both", "excludeDefaultComponents: true\n"))
	plant(t, root, ".agents/agents/empty/README.md", "no agent here\n")
	plant(t, root, ".agents/skills/quick.md", "---\nname: quick\ndescription: Quick one\ndisable-slash-command: true\n---\n\nBe quick.\n")
	res, err := Import(Options{Root: root, Scope: model.ScopeWorkspace, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]*model.Agent{}
	for _, a := range res.Config.Agents {
		names[a.Name] = a
	}
	if len(names) != 3 || names["folder"] == nil || names["flat"] == nil || names["both"] == nil {
		t.Fatalf("agents imported: %v", names)
	}
	if got := names["both"].ExcludeDefaultComponents; got == nil || !*got {
		t.Errorf("both: the folder form is not the one imported: %+v", names["both"])
	}
	if got := names["folder"].Rules; len(got) != 1 || got[0] != "style.md" {
		t.Errorf("folder: rules %v", got)
	}
	if len(res.Config.Skills) != 1 || res.Config.Skills[0].Name != "quick" || res.Config.Skills[0].DisableSlashCommand == nil {
		t.Errorf("skills: %+v", res.Config.Skills)
	}
	if res.Config.Agyconf.AgyVersion != "1.2.1" {
		t.Errorf("agy_version %q, want 1.2.1 (excludeDefaultComponents)", res.Config.Agyconf.AgyVersion)
	}
	rep := report(res, root)
	for _, want := range []string{
		"converted: .agents/agents/flat.md: a flat subagent file; render writes it as .agents/agents/flat/agent.md",
		"not imported: .agents/agents/both.md: a flat file of the subagent both, which .agents/agents/both/agent.md also defines",
		"not imported: .agents/agents/folder/notes.txt: agyconf writes only agent.md",
		"not imported: .agents/agents/empty: a folder without agent.md",
		"converted: .agents/skills/quick.md: a flat skill file; render writes it as .agents/skills/quick/SKILL.md",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q:\n%s", want, rep)
		}
	}
	// What it imported renders: the folder form of every agent.
	plan := decodeRender(t, res, t.TempDir())
	var paths []string
	for _, d := range plan.Documents {
		paths = append(paths, d.Path)
	}
	for _, want := range []string{".agents/agents/both/agent.md", ".agents/agents/flat/agent.md", ".agents/agents/folder/agent.md", ".agents/skills/quick/SKILL.md"} {
		if !slices.Contains(paths, want) {
			t.Errorf("%s not rendered: %v", want, paths)
		}
	}
}

// TestImportLegacySkills: a skill in the global skills folder agy no
// longer reads is listed as not imported, with where it belongs now, and
// nothing of it reaches the config.
func TestImportLegacySkills(t *testing.T) {
	root := t.TempDir()
	plant(t, root, ".gemini/antigravity/skills/old/SKILL.md", "---\nname: old\ndescription: Old\n---\n\nOld.\n")
	plant(t, root, ".gemini/antigravity/skills/notes.txt", "kept\n")
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Config.Skills) != 0 {
		t.Errorf("imported %v", res.Config.Skills)
	}
	rep := report(res, root)
	// A compatibility link from the legacy folder to one agy reads is not
	// reported: its skills are imported from there.
	linked := t.TempDir()
	plant(t, linked, ".gemini/config/skills/new/SKILL.md", "---\nname: new\ndescription: New\n---\n\nNew.\n")
	if err := os.MkdirAll(filepath.Join(linked, ".gemini/antigravity"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../config/skills", filepath.Join(linked, ".gemini/antigravity/skills")); err != nil {
		t.Fatal(err)
	}
	lres, err := Import(Options{Root: linked, Scope: model.ScopeGlobal, Product: model.ProductBoth, FollowLinksOut: true})
	if err != nil {
		t.Fatal(err)
	}
	if lrep := report(lres, linked); strings.Contains(lrep, "antigravity/skills") || len(lres.Config.Skills) != 1 {
		t.Errorf("a linked legacy folder: %d skills, report:\n%s", len(lres.Config.Skills), lrep)
	}
	for _, want := range []string{
		"not imported: .gemini/antigravity/skills/notes.txt: in ~/.gemini/antigravity/skills, the global skills folder of IDE builds before Antigravity 2.0",
		"not imported: .gemini/antigravity/skills/old: in ~/.gemini/antigravity/skills, ",
		"move it to ~/.gemini/antigravity-cli/skills or ~/.gemini/config/skills, or declare it in the config",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q:\n%s", want, rep)
		}
	}
}

// TestImportParseErrorOther: a file render never merges into (a plugin's
// manifest, the IDE's legacy mcp_config.json, a workspace settings file
// agy does not read) that does not parse is a report line; the import
// goes on.
func TestImportParseErrorOther(t *testing.T) {
	root := t.TempDir()
	plant(t, root, ".gemini/config/plugins/p/plugin.json", "{\n  \"name\": \"p\",\n")
	plant(t, root, ".gemini/antigravity/mcp_config.json", "{\n  \"mcpServers\": {\n")
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductBoth})
	if err != nil {
		t.Fatalf("import failed: %v", err)
	}
	rep := report(res, root)
	for _, want := range []string{
		"not imported: .gemini/config/plugins/p/plugin.json:3:1: does not parse: ",
		"not imported: .gemini/antigravity/mcp_config.json:3:1: does not parse: ",
	} {
		if !strings.Contains(rep, want) {
			t.Errorf("the report lacks %q:\n%s", want, rep)
		}
	}
	ws := t.TempDir()
	plant(t, ws, ".antigravity/settings.json", "{\n  // editor settings\n  \"editor.fontSize\": 14,\n}\n")
	if _, err := Import(Options{Root: ws, Scope: model.ScopeWorkspace, Product: model.ProductBoth}); err != nil {
		t.Errorf("a retired settings file that does not parse failed the import: %v", err)
	}
}

// TestGeneratedIsFormatted: generate writes hclwrite's own output without
// formatting it a second time, which holds only while that output is
// already what hclwrite.Format makes of it (a comment token of two lines,
// for one, was not). Each tree of testdata is imported, with and without
// --out, in both scopes.
func TestGeneratedIsFormatted(t *testing.T) {
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, opts Options) {
		res, err := Import(opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.HCL) == 0 {
			t.Fatal("the import generated nothing")
		}
		if f := hclwrite.Format(res.HCL); !bytes.Equal(f, res.HCL) {
			t.Fatalf("the generated config is not formatted:\n%s", lineDiff(string(res.HCL), string(f)))
		}
		// Formatted a block at a time, or all in one file, the sections
		// join into the same bytes.
		for _, per := range []int{1, 2, 1 << 30} {
			opts.perSection = per
			other, err := Import(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(other.HCL, res.HCL) {
				t.Fatalf("formatted %d blocks at a time:\n%s", per, lineDiff(string(other.HCL), string(res.HCL)))
			}
		}
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
			for _, out := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/out=%v", e.Name(), scope, out), func(t *testing.T) {
					opts := Options{Root: copyTree(t, filepath.Join("testdata", e.Name())), Scope: scope, Product: model.ProductBoth}
					if out {
						opts.Out = t.TempDir()
					}
					check(t, opts)
				})
				n++
			}
		}
	}
	if n < 8 {
		t.Fatalf("only %d imports checked: the testdata trees are missing", n)
	}
}

// lineDiff lists the lines of got that want does not have at the same
// place, for a failure message.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var b strings.Builder
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			fmt.Fprintf(&b, "line %d: generated %q, formatted %q\n", i+1, gl, wl)
		}
	}
	return b.String()
}

// TestImportManySkills reads more skill folders than are read ahead at a
// time, mixed with entries that are not read ahead (a file, a bad name, a
// folder without SKILL.md): every skill is imported, in order, and every
// other entry is reported where it stands. The race detector runs it in CI.
func TestImportManySkills(t *testing.T) {
	root := t.TempDir()
	const dir = ".gemini/antigravity-cli/skills/"
	n := prefetchWindow*3 + 5
	var want []string
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("s%03d", i)
		switch i % 10 {
		case 3:
			// No SKILL.md.
			if err := os.MkdirAll(filepath.Join(root, dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		case 7:
			// Not a declarable name: never read ahead.
			name += "_BAD NAME"
		default:
			want = append(want, name)
		}
		plant(t, root, dir+name+"/SKILL.md", fmt.Sprintf("---\nname: %s\ndescription: Skill %d\n---\nDo step %d.\n", name, i, i))
	}
	plant(t, root, dir+"notes.txt", "x")
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Config.Skills {
		got = append(got, s.Name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("imported skills %v, want %v", got, want)
	}
	reported := map[string]bool{}
	for _, it := range res.Items {
		reported[it.Path] = true
	}
	for i := 3; i < n; i += 10 {
		if p := fmt.Sprintf(".gemini/antigravity-cli/skills/s%03d", i); !reported[p] {
			t.Errorf("%s (no SKILL.md) is not reported", p)
		}
	}
	if !reported[".gemini/antigravity-cli/skills/notes.txt"] {
		t.Error("notes.txt is not reported")
	}
}

// TestImportReadsWhatAgyReads: what agy reads beyond the places agyconf
// writes is imported, and where render writes it instead is listed as
// converted: a workspace's legacy roots (a name .agents/ also has is left
// out, said), skills in ~/.gemini/skills/, whole files of global rules
// (context blocks, their agy_version); an AGENTS.md inside .agents/, which
// no source has agy read, is listed; a rule without trigger stays so.
func TestImportReadsWhatAgyReads(t *testing.T) {
	ws := t.TempDir()
	plant(t, ws, ".agents/rules/style.md", "---\ntrigger: always_on\n---\n\nUse gofmt.\n")
	plant(t, ws, ".agent/rules/style.md", "---\ntrigger: manual\n---\n\nOther.\n")
	plant(t, ws, ".agent/rules/plain.md", "# No frontmatter\n\nBe brief.\n")
	plant(t, ws, "_agents/workflows/ship.md", "---\nname: ship\ndescription: Ship it\n---\n\nShip.\n")
	plant(t, ws, ".agents/AGENTS.md", "# Project\n")
	res, err := Import(Options{Root: ws, Scope: model.ScopeWorkspace, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	checkItems(t, res,
		"not imported: .agent rule style: .agents also holds a rule of this name, which is imported; agy reads both roots (two of one name: one wins)",
		"not imported: .agents/AGENTS.md: agy reads a workspace's AGENTS.md at the workspace's top, beside .agents/ (skillsaw, sigil), and no source has it read from .agents/: it has no effect here; move it up to keep it")
	var conv []string
	for _, it := range res.Items {
		if it.Kind == KindConverted {
			conv = append(conv, it.Path)
		}
	}
	if !slices.Contains(conv, ".agent") || !slices.Contains(conv, "_agents") {
		t.Errorf("the legacy roots are not listed as converted: %v", conv)
	}
	names := map[string]*model.Rule{}
	for _, r := range res.Config.Rules {
		names[r.Name] = r
	}
	if r := names["style"]; r == nil || r.Trigger != model.TriggerAlwaysOn {
		t.Errorf("style: %+v, want .agents/'s", r)
	}
	if r := names["plain"]; r == nil || r.Trigger != "" || r.Body != "# No frontmatter\n\nBe brief." {
		t.Errorf("plain: %+v, want it without a trigger, as it was", r)
	}
	if len(res.Config.Workflows) != 1 || string(res.Config.Workflows[0].Extra["name"]) != `"ship"` {
		t.Errorf("workflows: %+v, want ship with its name in extra", res.Config.Workflows)
	}
	if !bytes.Contains(res.HCL, []byte(`trigger = "none"`)) {
		t.Errorf("the config does not write plain without a trigger:\n%s", res.HCL)
	}

	home := t.TempDir()
	plant(t, home, ".gemini/skills/notes/SKILL.md", "---\nname: notes\ndescription: Take notes\n---\n\nWrite them down.\n")
	plant(t, home, ".gemini/config/AGENTS.md", "# House rules\n\nBe kind.\n")
	res, err = Import(Options{Root: home, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Config.Skills) != 1 || res.Config.Skills[0].Name != "notes" {
		t.Errorf("skills: %+v, want notes from ~/.gemini/skills", res.Config.Skills)
	}
	if len(res.Config.Contexts) != 1 || res.Config.Contexts[0].Path != ".gemini/config/AGENTS.md" || res.Config.Agyconf.AgyVersion != "1.2.15" {
		t.Errorf("contexts %+v, agy_version %q: want config/AGENTS.md and 1.2.15", res.Config.Contexts, res.Config.Agyconf.AgyVersion)
	}
	checkItems(t, res, "converted: .gemini/skills/notes: a skill agy reads here too (third-party report: antigravity-cli #103 comments of 2026-05-22; codegraphx, skills-manager): render writes it to .gemini/antigravity-cli/skills, a folder only third parties show the CLI reading (a workaround reported working in antigravity-cli #103; skill managers list it as the shared skills folder); agyconf writes skills where the CLI's docs and Home Manager put them, and a copy here too would be loaded twice (which one wins is unknown); remove it here once that is in place, or agy loads it twice")
	decodeRender(t, res, t.TempDir())
}

// TestImportEmptyFrontmatterValues: a rule's or workflow's description or
// globs written with no value ("globs:" with nothing after it, as
// Windsurf writes every rule; or "") is what agy's decoder reads as
// absent. Import keeps the rule, leaves the key out and says so, and the
// config renders: before, a null globs dropped the whole rule and a
// blank one gave a config render refused.
func TestImportEmptyFrontmatterValues(t *testing.T) {
	ws := t.TempDir()
	plant(t, ws, ".agents/rules/windsurf.md", "---\ntrigger: always_on\ndescription: \nglobs: \n---\n\nBe brief.\n")
	plant(t, ws, ".agents/rules/blank.md", "---\ntrigger: model_decision\ndescription: Use for Go\nglobs: \"\"\n---\n\nUse gofmt.\n")
	plant(t, ws, ".agents/workflows/ship.md", "---\ndescription: \n---\n\nShip.\n")
	res, err := Import(Options{Root: ws, Scope: model.ScopeWorkspace, Product: model.ProductBoth})
	if err != nil {
		t.Fatal(err)
	}
	checkItems(t, res,
		"converted: .agents/rules/windsurf.md description: written with no value, which agy reads as none; left out",
		"converted: .agents/rules/windsurf.md globs: written with no value, which agy reads as none; left out",
		"converted: .agents/rules/blank.md globs: written with no value, which agy reads as none; left out",
		"converted: .agents/workflows/ship.md description: written with no value, which agy reads as none; left out")
	rules := map[string]*model.Rule{}
	for _, r := range res.Config.Rules {
		rules[r.Name] = r
	}
	if r := rules["windsurf"]; r == nil || r.Trigger != model.TriggerAlwaysOn || r.Globs != nil || r.Description != "" || r.Body != "Be brief." {
		t.Errorf("windsurf: %+v, want the always_on rule without globs or description", r)
	}
	if r := rules["blank"]; r == nil || r.Trigger != model.TriggerModelDecision || r.Globs != nil || r.Description != "Use for Go" {
		t.Errorf("blank: %+v, want the model_decision rule without globs", r)
	}
	if len(res.Config.Workflows) != 1 || res.Config.Workflows[0].Body != "Ship." {
		t.Errorf("workflows: %+v, want ship", res.Config.Workflows)
	}
	decodeRender(t, res, t.TempDir())
}
