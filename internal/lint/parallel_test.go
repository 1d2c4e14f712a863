package lint_test

import (
	"fmt"
	iofs "io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/lint"
)

// TestParallelPathsAgree is a property: for random trees of every kind
// of file validate reads — good and bad documents, rule texts judged
// together against the rule budget, plugins whose servers settings files
// name, files too large to read — Paths gives the same findings in the
// same order, and the same error, on one goroutine and on several, run
// after run. AGYCONF_PARALLEL_TREES sets how many trees (default 40).
func TestParallelPathsAgree(t *testing.T) {
	trees := 40
	if s := os.Getenv("AGYCONF_PARALLEL_TREES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("AGYCONF_PARALLEL_TREES=%q: %v", s, err)
		}
		trees = n
	}
	look := func(n string) (string, error) {
		if len(n)%2 == 0 {
			return "/usr/bin/" + n, nil
		}
		return "", fmt.Errorf("%s: not found", n)
	}
	run := func(root string, procs int) ([]lint.Finding, string) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		fs, err := lint.Paths([]string{root}, lint.Options{LookPath: look})
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		return fs, msg
	}
	failing := 0
	for seed := range trees {
		r := rand.New(rand.NewPCG(uint64(seed), 18))
		root := t.TempDir()
		plantTree(t, r, root)
		want, wantErr := run(root, 1)
		// The error is the first unreadable file's in the walk's order.
		first := ""
		filepath.WalkDir(root, func(p string, d iofs.DirEntry, err error) error {
			if fi, err := os.Stat(p); first == "" && err == nil && fi.Size() > lint.MaxFileSize {
				first = p
			}
			return nil
		})
		if first == "" && wantErr != "" || first != "" && !strings.HasPrefix(wantErr, first+" is ") {
			t.Fatalf("seed %d: error %q, want the one of %s", seed, wantErr, first)
		}
		if wantErr != "" {
			failing++
		}
		for _, procs := range []int{2, 3, 8, 8} {
			got, gotErr := run(root, procs)
			if gotErr != wantErr {
				t.Fatalf("seed %d, %d goroutines: error %q, one goroutine %q", seed, procs, gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d, %d goroutines: %d findings differ from one goroutine's %d", seed, procs, len(got), len(want))
			}
		}
	}
	// The property says something about errors only if some trees fail.
	if trees >= 20 && (failing == 0 || failing == trees) {
		t.Fatalf("%d of %d trees failed to read: the generator should make both kinds", failing, trees)
	}
}

// plantTree writes a random Antigravity tree under root.
func plantTree(t *testing.T, r *rand.Rand, root string) {
	t.Helper()
	docs := map[string][]string{
		"mcp": {
			`{"mcpServers": {"a": {"command": "ab"}, "b": {"command": "abc", "bogus": 1}}}`,
			`{"mcpServers": {"c": {"serverUrl": "https://example.com"}}}`,
			`{"mcpServers": {"d": {"command": 3}}}`,
			`{"mcpServers": {`,
		},
		"hooks": {
			`{"h": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/nowhere/x"}]}]}}`,
			`{"h": {"Stop": [{"type": "command", "command": "ab"}]}, "g": {"PreToolUse": [{"matcher": "run_command\\|view_file", "hooks": []}]}}`,
			`{"enabled": true}`,
		},
		"skill": {
			"---\nname: s\ndescription: a skill\n---\nbody\n",
			"---\nname: [\n---\n",
			"no frontmatter\n",
		},
		"rule":     {"---\ntrigger: always_on\n---\nrule text\n", "---\ntrigger: sometimes\n---\n"},
		"settings": {`{"permissions": {"allow": ["mcp(a)", "mcp(p_a)", "mcp(srv)"]}}`, `{"permissions": 1}`},
		"plugin":   {`{"name": "p"}`, `{"name": 1}`},
		"text":     {"a global rule\n"},
	}
	// Documents of 16 KiB and more have their rules run by another
	// checker while their own checks their schema (queue.help).
	var big strings.Builder
	big.WriteString(`{"mcpServers": {`)
	for i := range 400 {
		if i > 0 {
			big.WriteString(", ")
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&big, `"s%d": {"command": "ab%d", "bogus%d": 1}`, i, i, i)
		case 1:
			fmt.Fprintf(&big, `"s%d": {"command": %d}`, i, i)
		default:
			fmt.Fprintf(&big, `"s%d": {"command": "/nowhere/p%d", "args": ["--port", "%d"]}`, i, i, i)
		}
	}
	big.WriteString("}}")
	docs["mcp"] = append(docs["mcp"], big.String())
	var hooks strings.Builder
	hooks.WriteString(`{`)
	for i := range 200 {
		if i > 0 {
			hooks.WriteString(", ")
		}
		fmt.Fprintf(&hooks, `"h%d": {"PreToolUse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "/nowhere/h%d", "timeout": %d}]}]}`, i, i, i%3)
	}
	hooks.WriteString("}")
	docs["hooks"] = append(docs["hooks"], hooks.String())
	for _, d := range []string{big.String(), hooks.String()} {
		if len(d) < 16<<10 {
			t.Fatalf("a large document of %d bytes: the rules run alongside from 16 KiB", len(d))
		}
	}
	pick := func(kind string) string { d := docs[kind]; return d[r.IntN(len(d))] }
	put := func(rel, content string) { write(t, root, rel, content) }
	for i := range 3 + r.IntN(30) {
		n := strconv.Itoa(i)
		switch r.IntN(9) {
		case 0:
			put(".gemini/config/skills/s"+n+"/SKILL.md", pick("skill"))
		case 1:
			put("ws"+n+"/.agents/rules/r.md", pick("rule"))
		case 2:
			put("ws"+n+"/.agents/mcp_config.json", pick("mcp"))
		case 3:
			put(".gemini/config/plugins/p"+n+"/plugin.json", pick("plugin"))
			put(".gemini/config/plugins/p"+n+"/mcp_config.json", pick("mcp"))
			put(".gemini/config/plugins/p"+n+"/hooks.json", pick("hooks"))
		case 4:
			put(".gemini/antigravity-cli/settings.json", pick("settings"))
		case 5:
			put(".gemini/config/hooks.json", pick("hooks"))
		case 6:
			put(".gemini/GEMINI.md", pick("text"))
			put("ws"+n+"/AGENTS.md", pick("text"))
		case 7:
			put(".gemini/config/mcp_config.json", pick("mcp"))
		case 8:
			// Too large to read: the check of this file fails.
			rel := []string{"ws" + n + "/.agents/hooks.json", ".gemini/config/skills/big" + n + "/SKILL.md", "ws" + n + "/.agents/rules/big.md"}[r.IntN(3)]
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(lint.MaxFileSize + 1); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
}
