package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
)

// applyUnified applies the unified diffs of text (agyconf diff's output:
// for each file "--- a/P" or "--- /dev/null", "+++ b/P" or "+++
// /dev/null", hunks) to the tree at root, checking
// every context and removed line against the file: a diff that does not
// describe the file as it is fails.
func applyUnified(t *testing.T, root, text string) {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	hunk := regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(lines[i], "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			i++ // a conflict or keep line, or the note on a secret's value
			continue
		}
		// As GNU patch reads it: /dev/null on one side creates or
		// removes the file; any other name keeps it, empty if need be.
		from := strings.TrimSuffix(strings.TrimPrefix(lines[i], "--- "), "\n")
		to := strings.TrimSuffix(strings.TrimPrefix(lines[i+1], "+++ "), "\n")
		name, removes := strings.TrimPrefix(from, "a/"), to == "/dev/null"
		if from == "/dev/null" {
			name = strings.TrimPrefix(to, "b/")
		}
		i += 2
		full := filepath.Join(root, filepath.FromSlash(name))
		old, err := os.ReadFile(full)
		if from == "/dev/null" && err == nil {
			t.Fatalf("%s: the diff creates it, and it is there", name)
		}
		if from != "/dev/null" && err != nil {
			t.Fatalf("%s: the diff changes it, and it is not there: %v", name, err)
		}
		src := strings.SplitAfter(string(old), "\n")
		if len(src) > 0 && src[len(src)-1] == "" {
			src = src[:len(src)-1]
		}
		var out []string
		at := 0 // next line of src to copy
		for i < len(lines) && strings.HasPrefix(lines[i], "@@") {
			m := hunk.FindStringSubmatch(lines[i])
			if m == nil {
				t.Fatalf("%s: not a hunk header: %q", name, lines[i])
			}
			start, _ := strconv.Atoi(m[1])
			count, newCount := 1, 1
			if m[2] != "" {
				count, _ = strconv.Atoi(m[2])
			}
			if m[4] != "" {
				newCount, _ = strconv.Atoi(m[4])
			}
			if count == 0 {
				start++ // "-0,0": insert before line 1
			}
			out = append(out, src[at:start-1]...)
			at = start - 1
			i++
			// The hunk is as long as its header says: a removed line of
			// text may itself begin with "---".
			for i < len(lines) && (count > 0 || newCount > 0 || strings.HasPrefix(lines[i], "\\")) {
				l := lines[i]
				switch l[0] {
				case ' ':
					count--
					newCount--
				case '-':
					count--
				case '+':
					newCount--
				}
				switch l[0] {
				case '\\': // "\ No newline at end of file": the previous line has none
					last := len(out) - 1
					if strings.HasPrefix(lines[i-1], "+") && last >= 0 {
						out[last] = strings.TrimSuffix(out[last], "\n")
					}
				case ' ', '-':
					if at >= len(src) || strings.TrimSuffix(src[at], "\n") != strings.TrimSuffix(l[1:], "\n") {
						t.Fatalf("%s: the diff says line %d is %q, the file has %q", name, at+1, l[1:], src[min(at, len(src)-1)])
					}
					if l[0] == ' ' {
						out = append(out, src[at])
					}
					at++
				case '+':
					out = append(out, l[1:])
				}
				i++
			}
		}
		out = append(out, src[at:]...)
		data := strings.Join(out, "")
		if removes {
			if data != "" {
				t.Fatalf("%s: the diff removes it, and lines are left: %q", name, data)
			}
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// treeFiles maps every file below root but agyconf's own folders to its
// content.
func treeFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == ".agyconf" || rel == ".local/state/agyconf" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// redactRendered replaces, in the files render wrote, the strings the
// state says hold secrets, the way diff shows them.
func redactRendered(t *testing.T, root string, files map[string]string) {
	t.Helper()
	states, _ := filepath.Glob(filepath.Join(root, ".local/state/agyconf/*.json"))
	ws, _ := filepath.Glob(filepath.Join(root, ".agyconf/*.json"))
	ptrs := map[string][]string{}
	for _, p := range append(states, ws...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Files map[string]struct {
				Secrets []string `json:"secrets"`
			} `json:"files"`
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		for key, f := range st.Files {
			file, entry, _ := strings.Cut(key, "#")
			for _, s := range f.Secrets {
				ptrs[file] = append(ptrs[file], entry+s)
			}
		}
	}
	for file, ps := range ptrs {
		if text, ok := files[file]; ok {
			out, _ := jsonmerge.RedactStrings([]byte(text), ps, `"<secret>"`, jsonmerge.JSONC)
			files[file] = string(out)
		}
	}
}

// seedUser writes what a user and agy have before agyconf, and after:
// their own servers, hooks, settings keys and permission grants, and a
// GEMINI.md of their own.
func seedUser(t *testing.T, root string, workspace bool, round int) {
	t.Helper()
	dir, settings := ".gemini/config", ".gemini/antigravity-cli/settings.json"
	if workspace {
		dir, settings = ".agents", ".antigravity/settings.json"
	}
	write := func(rel, text string) {
		full := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(rel string, f func(doc *jsonmerge.Doc)) {
		full := filepath.Join(root, filepath.FromSlash(rel))
		data, err := os.ReadFile(full)
		if err != nil {
			data = []byte("{}")
		}
		doc, err := jsonmerge.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		f(doc)
		write(rel, string(doc.Bytes()))
	}
	set := func(doc *jsonmerge.Doc, v string, p ...string) {
		if err := doc.Set(json.RawMessage(v), p...); err != nil {
			t.Fatal(err)
		}
	}
	edit(path.Join(dir, "mcp_config.json"), func(d *jsonmerge.Doc) {
		set(d, fmt.Sprintf(`{"command": "mine-%d", "args": ["--flag", "---not a header---"]}`, round), "mcpServers", "mine")
		set(d, fmt.Sprintf(`{"agy wrote": %d}`, round), "agyState")
	})
	edit(path.Join(dir, "hooks.json"), func(d *jsonmerge.Doc) {
		set(d, fmt.Sprintf(`{"enabled": true, "Stop": [{"type": "command", "command": "/bin/true", "timeout": %d}]}`, 10+round), "theirs")
	})
	edit(settings, func(d *jsonmerge.Doc) {
		set(d, fmt.Sprintf(`"their-%d"`, round), "theme")
		if err := d.AddString(fmt.Sprintf("read_file(/their/%d)", round), "permissions", "allow"); err != nil {
			t.Fatal(err)
		}
	})
	if !workspace {
		gm := filepath.Join(root, ".gemini/GEMINI.md")
		old, _ := os.ReadFile(gm)
		write(".gemini/GEMINI.md", fmt.Sprintf("%s# My notes %d\n\n--- a line that looks like a diff header\n", old, round))
	}
}

var secretCall = regexp.MustCompile(`secret_file\("([^"]+)"\)`)

// TestDiffIsWhatRenderWrites: for every config under tests/render and
// examples/, rendered into a root that already holds a user's own
// entries, agy's keys and foreign text, `agyconf diff` applied to a copy
// of the root gives byte for byte what `agyconf render` writes (secrets
// shown as <secret> on both sides; agyconf's state excluded). Then again
// after the user and agy changed things.
func TestDiffIsWhatRenderWrites(t *testing.T) {
	var configs []string
	rs, _ := filepath.Glob("../../tests/render/*.hcl")
	configs = append(configs, rs...)
	exs, _ := filepath.Glob("../../examples/*")
	for _, e := range exs {
		if st, err := os.Stat(filepath.Join(e, "expected")); err == nil && st.IsDir() {
			configs = append(configs, e)
		}
	}
	for _, cfg := range configs {
		t.Run(filepath.Base(cfg), func(t *testing.T) {
			dir := t.TempDir()
			cfgCopy := copyConfig(t, cfg, dir)
			text := readAll(t, cfgCopy)
			workspace := strings.Contains(text, `scope = "workspace"`) || strings.Contains(text, `"scope": "workspace"`)
			root := filepath.Join(dir, "root")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			for round := 0; round < 2; round++ {
				seedUser(t, root, workspace, round)
				patched := filepath.Join(dir, fmt.Sprintf("patched-%d", round))
				copyDir(t, root, patched)
				var out, errb bytes.Buffer
				if code := Main([]string{"agyconf", "diff", "--config", cfgCopy, "--root", root, "--color", "never"}, &out, &errb); code != 0 {
					t.Fatalf("diff: exit %d\n%s%s", code, out.String(), errb.String())
				}
				applyUnified(t, patched, out.String())
				if code := Main([]string{"agyconf", "render", "--config", cfgCopy, "--root", root}, &out, &errb); code != 0 {
					t.Fatalf("render: exit %d\n%s%s", code, out.String(), errb.String())
				}
				// Secrets are <secret> in the diff, on both sides: the copy
				// keeps the real ones of the last round where nothing
				// changed, so both trees are compared redacted.
				want, got := treeFiles(t, root), treeFiles(t, patched)
				redactRendered(t, root, want)
				redactRendered(t, root, got)
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("round %d: the diff applied is not what render wrote (-rendered +patched):\n%s\nthe diff:\n%s", round, d, out.String())
				}
			}
		})
	}
}

// copyConfig copies a config (a file or a folder, with what its file()
// and source arguments read) into dir, its secret_file() paths pointed at
// files in dir that hold readable secrets, and returns its new path.
func copyConfig(t *testing.T, cfg, dir string) string {
	t.Helper()
	st, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "cfg")
	if st.IsDir() {
		copyDir(t, cfg, dst)
		if err := os.RemoveAll(filepath.Join(dst, "expected")); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(cfg)
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(cfg)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secrets := filepath.Join(dir, "secrets")
	files, _ := filepath.Glob(filepath.Join(dst, "*"))
	n := 0
	for _, f := range files {
		if ext := filepath.Ext(f); ext != ".hcl" && ext != ".json" {
			continue
		}
		b, _ := os.ReadFile(f)
		b = secretCall.ReplaceAllFunc(b, func(m []byte) []byte {
			orig := string(secretCall.FindSubmatch(m)[1])
			p := filepath.Join(secrets, strings.ReplaceAll(strings.TrimPrefix(orig, "/"), "/", "_"))
			if _, err := os.Stat(p); err != nil {
				n++
				if err := os.MkdirAll(secrets, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(fmt.Sprintf("sekret-%d\n", n)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			return []byte(`secret_file("` + p + `")`)
		})
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !st.IsDir() {
		return filepath.Join(dst, filepath.Base(cfg))
	}
	return dst
}

func readAll(t *testing.T, cfg string) string {
	t.Helper()
	st, _ := os.Stat(cfg)
	if !st.IsDir() {
		b, _ := os.ReadFile(cfg)
		return string(b)
	}
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(cfg, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	return b.String()
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDiffOverConflicts: a config rendered, agyconf's files and entries
// then edited by hand (each with chance one half) and the user's own
// file put where the next config writes one, the next config's diff,
// applied with patch -p1 to a copy of the root, gives byte for byte what
// render --force --adopt then writes: diff and render share one plan, so
// a conflict is listed and its file shown once, as the render leaves it.
// AGYCONF_DIFF_CASES sets how many pairs of configs (default 12).
func TestDiffOverConflicts(t *testing.T) {
	cases := 12
	if s := os.Getenv("AGYCONF_DIFF_CASES"); s != "" {
		var err error
		if cases, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	configs := []string{"../../tests/render/global-both.hcl", "../../tests/render/global-cli.hcl", "../../tests/render/global-ide.hcl", "../../examples/global", "../../examples/plugin", "../../examples/harnesses"}
	rng := rand.New(rand.NewPCG(29, 6))
	conflicts := 0
	for i := 0; i < cases; i++ {
		a, b := configs[rng.IntN(len(configs))], configs[rng.IntN(len(configs))]
		t.Run(fmt.Sprintf("%d-%s-%s", i, filepath.Base(a), filepath.Base(b)), func(t *testing.T) {
			dir := t.TempDir()
			cfgA := copyConfig(t, a, filepath.Join(dir, "a"))
			cfgB := copyConfig(t, b, filepath.Join(dir, "b"))
			root := filepath.Join(dir, "root")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			seedUser(t, root, false, 0)
			var out, errb bytes.Buffer
			run := func(args ...string) int {
				out.Reset()
				errb.Reset()
				return Main(append([]string{"agyconf"}, args...), &out, &errb)
			}
			if code := run("render", "--config", cfgA, "--root", root, "--instance", "x"); code != 0 {
				t.Fatalf("render A: exit %d\n%s%s", code, out.String(), errb.String())
			}
			edited := editByHand(t, rng, root)
			// The user's own file where B writes one, if A did not.
			if code := run("render", "--config", cfgB, "--root", root, "--instance", "x", "--dry-run"); code == 0 || code == 3 {
				for _, l := range strings.Split(out.String(), "\n") {
					if f := strings.Fields(l); len(f) == 2 && f[0] == "create" && strings.HasSuffix(f[1], ".md") && rng.IntN(2) == 0 {
						full := filepath.Join(root, filepath.FromSlash(f[1]))
						if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(full, []byte("the user's own "+f[1]+"\n"), 0o644); err != nil {
							t.Fatal(err)
						}
						edited++
					}
				}
			}
			patched := filepath.Join(dir, "patched")
			copyDir(t, root, patched)
			// The diff shows every string that holds a secret, live or
			// planned, as <secret>: so does the copy it applies to.
			ptrs := diffPointers(t, root, cfgB)
			redactOnDisk(t, root, patched, ptrs)
			if code := run("diff", "--config", cfgB, "--root", root, "--instance", "x", "--color", "never"); code != 0 {
				t.Fatalf("diff: exit %d\n%s%s", code, out.String(), errb.String())
			}
			diff := out.String()
			if strings.Contains(diff, "\nconflict ") || strings.HasPrefix(diff, "conflict ") {
				conflicts++
			}
			// One section per file: named once as the old side ("--- a/")
			// and once as the new ("+++ b/"), /dev/null aside.
			seen := map[string]bool{}
			for _, l := range strings.Split(diff, "\n") {
				for _, side := range []string{"--- a/", "+++ b/"} {
					if name, ok := strings.CutPrefix(l, side); ok {
						if seen[side+name] {
							t.Fatalf("two sections for %s:\n%s", name, diff)
						}
						seen[side+name] = true
					}
				}
			}
			applyUnified(t, patched, diff)
			if code := run("render", "--config", cfgB, "--root", root, "--instance", "x", "--force", "--adopt"); code != 0 {
				t.Fatalf("render --force --adopt: exit %d\n%s%s", code, out.String(), errb.String())
			}
			// Both as the diff shows them: redacted where the state said
			// secrets were and where the config puts them.
			want, got := treeFiles(t, root), treeFiles(t, patched)
			redactFiles(want, ptrs)
			redactFiles(got, ptrs)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%d hand edits: the diff applied is not what render --force --adopt wrote (-rendered +patched):\n%s\nthe diff:\n%s", edited, d, diff)
			}
		})
	}
	t.Logf("%d of %d cases had a conflict", conflicts, cases)
}

// diffPointers are, by file, where diff shows <secret>: where the state
// under root says secrets are and where the config cfg puts them.
func diffPointers(t *testing.T, root, cfg string) map[string][]string {
	t.Helper()
	ptrs := map[string][]string{}
	states, _ := filepath.Glob(filepath.Join(root, ".local/state/agyconf/*.json"))
	for _, p := range states {
		b, _ := os.ReadFile(p)
		var st struct {
			Files map[string]struct {
				Secrets []string `json:"secrets"`
			} `json:"files"`
		}
		if json.Unmarshal(b, &st) != nil {
			continue
		}
		for key, f := range st.Files {
			file, entry, _ := strings.Cut(key, "#")
			for _, s := range f.Secrets {
				ptrs[file] = append(ptrs[file], entry+s)
			}
		}
	}
	c := engine.Load(cfg)
	if !c.OK() {
		t.Fatalf("%s: %v", cfg, c.Diags)
	}
	for _, d := range c.Plan.Documents {
		ptrs[d.Path] = append(ptrs[d.Path], d.SecretPointers()...)
	}
	return ptrs
}

// redactFiles redacts files (by path) at ptrs, as diff shows them.
func redactFiles(files map[string]string, ptrs map[string][]string) {
	for file, ps := range ptrs {
		if text, ok := files[file]; ok {
			if out, ok := jsonmerge.RedactStrings([]byte(text), ps, `"<secret>"`, jsonmerge.JSONC); ok {
				files[file] = string(out)
			}
		}
	}
}

// redactOnDisk redacts the copy of root at dst at ptrs: the text the diff
// is taken from, as it shows it.
func redactOnDisk(t *testing.T, root, dst string, ptrs map[string][]string) {
	t.Helper()
	files := treeFiles(t, root)
	redactFiles(files, ptrs)
	for file := range ptrs {
		if text, ok := files[file]; ok {
			if err := os.WriteFile(filepath.Join(dst, filepath.FromSlash(file)), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// editByHand edits, each with chance one half, the files and the entries
// of shared files that the state under root says agyconf wrote, and
// returns how many it edited.
func editByHand(t *testing.T, rng *rand.Rand, root string) int {
	t.Helper()
	states, _ := filepath.Glob(filepath.Join(root, ".local/state/agyconf/*.json"))
	n := 0
	for _, p := range states {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Files map[string]struct {
				Block bool `json:"block"`
				Item  bool `json:"item"`
			} `json:"files"`
		}
		if err := json.Unmarshal(b, &st); err != nil {
			t.Fatal(err)
		}
		keys := make([]string, 0, len(st.Files))
		for k := range st.Files {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f := st.Files[k]
			if f.Item || f.Block || rng.IntN(2) == 0 {
				continue
			}
			file, ptr, shared := strings.Cut(k, "#")
			full := filepath.Join(root, filepath.FromSlash(file))
			data, err := os.ReadFile(full)
			if err != nil {
				continue
			}
			if !shared {
				if strings.HasSuffix(file, ".json") {
					continue
				}
				data = append(data, []byte("A line the user added.\n")...)
			} else {
				doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
				if err != nil {
					t.Fatal(err)
				}
				var path []string
				for _, seg := range strings.Split(ptr, "/")[1:] {
					path = append(path, strings.NewReplacer("~1", "/", "~0", "~").Replace(seg))
				}
				raw, ok := doc.Get(path...)
				if !ok || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
					continue
				}
				if err := doc.Set(json.RawMessage(`"edited by hand"`), append(path, "note")...); err != nil {
					t.Fatal(err)
				}
				data = doc.Bytes()
			}
			if err := os.WriteFile(full, data, 0o600); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	return n
}
