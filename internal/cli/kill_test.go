package cli

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/apply"
)

// TestKilledRenders kills renders at random moments, alternating between two
// configs that rewrite most of the tree, and checks after every kill that no
// shared file is torn or has lost an entry of the user's, that every file
// agyconf writes is whole, and at the end that a render converges without a
// conflict. AGYCONF_KILLS sets the number of kills (CI runs 500).
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
	cfgs := []string{writeKillConfig(t, dir, "a"), writeKillConfig(t, dir, "b")}
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

	rng := rand.New(rand.NewPCG(1, 2)) // fixed: a failure can be replayed
	for i := 0; i < kills; i++ {
		cmd := exec.Command(bin, "render", "--config", cfgs[i%2], "--root", root, "--instance", "k")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(60_000)) * time.Microsecond)
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
}

// writeKillConfig writes a config whose entries are named after tag, so
// that the two configs of the test replace each other's entries.
func writeKillConfig(t *testing.T, dir, tag string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("agyconf {\n  scope   = \"global\"\n  product = \"cli\"\n}\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "mcp_server \"%s-%d\" {\n  command = \"srv-%d\"\n}\n", tag, i, i)
		fmt.Fprintf(&b, "skill \"%s-skill-%d\" {\n  description = \"Skill %d of %s\"\n  body        = \"Do step %d.\"\n}\n", tag, i, i, tag, i)
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
