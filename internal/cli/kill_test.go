package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/apply"
)

// TestKilledRenders kills renders at random moments, taking three configs
// that rewrite most of the tree in turn, in chains of one to four kills in a
// row, and checks after every kill that no shared file is torn or has lost
// an entry of the user's and that every file agyconf writes is whole, and
// after every chain that a render of the last config converges without a
// conflict: two interrupted renders of different configs in a row once left
// dozens of false "edited since agyconf wrote it" conflicts. AGYCONF_KILLS
// sets the number of kills (CI runs 500).
func TestKilledRenders(t *testing.T) {
	kills := 40
	if s := os.Getenv("AGYCONF_KILLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("AGYCONF_KILLS=%q: %v", s, err)
		}
		kills = n
	}
	bin, err := exec.LookPath("agyconf") // testscript.Main put it on PATH
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "home")
	// Three configs in turn: a render cut short between two others leaves
	// a file holding neither what the state last recorded nor what the
	// next render means to write.
	cfgs := []string{writeKillConfig(t, dir, "a"), writeKillConfig(t, dir, "b"), writeKillConfig(t, dir, "c")}
	user := map[string]string{
		".gemini/config/mcp_config.json":        `{"zeta": 1, "mcpServers": {"mine": {"command": "mine"}}}`,
		".gemini/config/hooks.json":             `{"user-hook": {"Stop": [{"type": "command", "command": "u"}]}}`,
		".gemini/antigravity-cli/settings.json": `{"trustedWorkspaces": ["/src"], "permissions": {"allow": ["read_file"]}}`,
	}
	for p, content := range user {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustSurvive := map[string][]string{
		".gemini/config/mcp_config.json":        {`"zeta"`, `"mine"`},
		".gemini/config/hooks.json":             {`"user-hook"`},
		".gemini/antigravity-cli/settings.json": {`"trustedWorkspaces"`, `"read_file"`},
	}

	// Kills land anywhere in a render: the delay is drawn from the
	// length of a whole one on this machine, so a slow or fast machine
	// still cuts renders in their batch.
	span := renderSpan(t, bin, cfgs, root)
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: a failure can be replayed
	chain := 1 + rng.IntN(4)           // kills left before the next full render
	for i := 0; i < kills; i++ {
		cmd := exec.Command(bin, "render", "--config", cfgs[i%len(cfgs)], "--root", root, "--instance", "k")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(span))))
		_ = cmd.Process.Kill()
		_ = cmd.Wait()

		for p, needles := range mustSurvive {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				t.Fatalf("kill %d: %s: %v", i, p, err)
			}
			if !json.Valid(data) {
				t.Fatalf("kill %d: %s is torn:\n%s", i, p, data)
			}
			for _, n := range needles {
				if !strings.Contains(string(data), n) {
					t.Fatalf("kill %d: %s lost the user's %s:\n%s", i, p, n, data)
				}
			}
		}
		err := filepath.WalkDir(filepath.Join(root, ".gemini", "config", "skills"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".agyconf-tmp-") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if !strings.HasPrefix(string(data), "---\n") || !strings.HasSuffix(string(data), "\n") {
				return fmt.Errorf("kill %d: %s is torn:\n%s", i, p, data)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := loadsOrAbsent(filepath.Join(root, ".local", "state", "agyconf", "k.json")); err != nil {
			t.Fatalf("kill %d: %v", i, err)
		}
		if chain--; chain == 0 {
			// The last config, rendered to the end, converges: no kill
			// in the chain left a false conflict.
			if out, err := exec.Command(bin, "render", "--config", cfgs[i%len(cfgs)], "--root", root, "--instance", "k").CombinedOutput(); err != nil {
				t.Fatalf("kill %d: the render after the chain: %v\n%s", i, err, out)
			}
			chain = 1 + rng.IntN(4)
		}
	}

	// After any kill, a render finishes without a conflict and leaves the
	// root in sync.
	for _, cfg := range cfgs {
		if out, err := exec.Command(bin, "render", "--config", cfg, "--root", root, "--instance", "k").CombinedOutput(); err != nil {
			t.Fatalf("render after the kills: %v\n%s", err, out)
		}
		if out, err := exec.Command(bin, "render", "--config", cfg, "--root", root, "--instance", "k", "--check").CombinedOutput(); err != nil {
			t.Fatalf("--check after the kills: %v\n%s", err, out)
		}
	}
	stale, _ := filepath.Glob(filepath.Join(root, ".gemini", "config", "*", ".agyconf-tmp-*"))
	if len(stale) > 0 {
		t.Errorf("temporary files left after a full render: %v", stale)
	}

	// No kill made agyconf take what it created for something it found:
	// clean removes all of it and gives back exactly the user's files.
	last := cfgs[len(cfgs)-1]
	if out, err := exec.Command(bin, "clean", "--config", last, "--root", root, "--instance", "k").CombinedOutput(); err != nil {
		t.Fatalf("clean after the kills: %v\n%s", err, out)
	}
	for p, content := range user {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			t.Fatalf("after clean: %v", err)
		}
		var got, want any
		if json.Unmarshal(data, &got) != nil || json.Unmarshal([]byte(content), &want) != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after clean, %s is not the user's own:\n%s\nwant\n%s", p, data, content)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".gemini", "config", "skills", "*")); len(left) > 0 {
		t.Errorf("clean left skills agyconf created: %v", left)
	}
}

// writeKillConfig writes a config whose entries differ from the other
// tags': half of them by content, half by name.
func writeKillConfig(t *testing.T, dir, tag string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("agyconf {\n  scope   = \"global\"\n  product = \"cli\"\n}\n")
	for i := 0; i < 30; i++ {
		// Even entries are the same units in both configs with other
		// content (a render updates what the last one wrote, or was
		// writing); odd ones are each config's own (a render prunes the
		// other's).
		name := fmt.Sprintf("%d", i)
		if i%2 == 1 {
			name = fmt.Sprintf("%s-%d", tag, i)
		}
		fmt.Fprintf(&b, "mcp_server \"srv-%s\" {\n  command = \"srv-%s-%d\"\n}\n", name, tag, i)
		fmt.Fprintf(&b, "skill \"skill-%s\" {\n  description = \"Skill %d of %s\"\n  body        = \"Do step %d.\"\n}\n", name, i, tag, i)
	}
	fmt.Fprintf(&b, "hook \"%s-hook\" {\n  stop {\n    command = \"%s-stop\"\n  }\n}\n", tag, tag)
	fmt.Fprintf(&b, "permissions {\n  allow = [\"command(%s *)\"]\n}\n", tag)
	p := filepath.Join(dir, tag+".hcl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadsOrAbsent checks that a state file, if there is one, parses.
func loadsOrAbsent(path string) error {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = apply.ParseState(path, data)
	return err
}

// renderSpan is how long a whole render of the test's configs takes here,
// the slowest of a few, measured into a scratch root beside root.
func renderSpan(t *testing.T, bin string, cfgs []string, root string) time.Duration {
	t.Helper()
	scratch := root + "-span"
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	var span time.Duration
	for i := 0; i < 4; i++ {
		start := time.Now()
		if out, err := exec.Command(bin, "render", "--config", cfgs[i%len(cfgs)], "--root", scratch, "--instance", "k").CombinedOutput(); err != nil {
			t.Fatalf("render: %v\n%s", err, out)
		}
		span = max(span, time.Since(start))
	}
	return span
}
