package engine

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// wantOf reads a corpus config's "# WANT: …" first line: an error's
// summary, or a warning's rule.
func wantOf(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	want, ok := strings.CutPrefix(strings.TrimSpace(line), "# WANT: ")
	if !ok {
		t.Fatalf("%s: the first line must be # WANT: SUMMARY", path)
	}
	return want
}

// TestAfterDecode: each config of the corpus decodes without an error —
// the decoder alone, which validate --config used to be, calls it valid —
// and fails in the engine with the summary its first line names, located
// in the config. These are the configs validate used to let through.
func TestAfterDecode(t *testing.T) {
	paths, err := filepath.Glob("testdata/after-decode/*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 34 {
		t.Fatalf("the corpus has %d configs, want at least 34", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			want := wantOf(t, p)
			if _, diags := config.NewParser().LoadConfig(p); diags.HasErrors() {
				t.Fatalf("the decoder already refuses it, so it is not a case for this corpus:\n%s", diags.Error())
			}
			c := Load(p)
			if c.OK() {
				t.Fatalf("the engine accepts it (%d diagnostics), want %q", len(c.Diags), want)
			}
			var found *hcl.Diagnostic
			for _, d := range c.Diags {
				if d.Severity == hcl.DiagError && d.Summary == want {
					found = d
				}
			}
			if found == nil {
				t.Fatalf("no error %q among:\n%s", want, c.Diags.Error())
			}
			if found.Subject == nil || found.Subject.Filename != p || found.Subject.Start.Line < 2 {
				t.Errorf("%q is not located in the config: %v", want, found.Subject)
			}
		})
	}
}

// TestAfterDecodeWarns: each config of this corpus decodes, renders, and
// gets from the engine a warning of the rule its first line names, located in the
// config: what agy loads and likely fails to run (a relative command) or
// what the sources contest (~ in a command agy starts without a shell) is
// a warning under agy's severity policy (agy.Effect), for render as for
// validate.
func TestAfterDecodeWarns(t *testing.T) {
	paths, err := filepath.Glob("testdata/after-decode-warn/*.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 8 {
		t.Fatalf("the corpus has %d configs, want at least 8", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			want := wantOf(t, p)
			c := Load(p)
			if !c.OK() {
				t.Fatalf("the engine refuses it:\n%s", c.Diags.Error())
			}
			var found *hcl.Diagnostic
			for _, d := range c.Diags {
				if d.Severity == hcl.DiagWarning && rulebook.IDOf(d) == want {
					found = d
				}
			}
			if found == nil {
				t.Fatalf("no warning %q among:\n%s", want, c.Diags.Error())
			}
			if found.Subject == nil || found.Subject.Filename != p || found.Subject.Start.Line < 2 {
				t.Errorf("%q is not located in the config: %v", want, found.Subject)
			}
		})
	}
}

// TestCheckReportsRenderedDocuments: a document that breaks its schema is
// an error naming the path and the rule, at the block that wrote it.
func TestCheckReportsRenderedDocuments(t *testing.T) {
	rng := hcl.Range{Filename: "agyconf.hcl", Start: hcl.Pos{Line: 3, Column: 1}, End: hcl.Pos{Line: 3, Column: 5}}
	bad := &render.Plan{Documents: []*render.Document{{
		Path: ".agents/hooks.json", Schema: render.SchemaOf(agy.Hooks),
		JSON: map[string]any{"enabled": true}, Origin: rng,
	}}}
	diags := Check(bad, agy.Version{})
	if !diags.HasErrors() {
		t.Fatal("no error")
	}
	d := diags[0]
	if rulebook.IDOf(d) != "hooks/top-level-enabled" || !strings.Contains(d.Summary, " — move enabled into a named hook") || !strings.Contains(d.Detail, ".agents/hooks.json") || d.Subject == nil || d.Subject.Start.Line != 3 {
		t.Errorf("got %s: %s at %v", d.Summary, d.Detail, d.Subject)
	}
}

// TestWarnedOnce: a deprecated permission and a literal rule that reads
// like a pattern are each one warning, the decoder's, not a second one
// from the rendered settings.json.
func TestWarnedOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), "agyconf.hcl")
	src := "permissions {\n  allow = [\"unsandboxed(make)\", \"command(^git status$)\"]\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Load(p)
	if !c.OK() {
		t.Fatalf("not accepted:\n%s", c.Diags.Error())
	}
	got := map[string]int{}
	for _, d := range c.Diags {
		got[rulebook.IDOf(d)]++
		if d.Severity != hcl.DiagWarning || d.Subject == nil || d.Subject.Start.Line != 2 {
			t.Errorf("%s: %s at %v, want a warning on line 2", d.Summary, d.Detail, d.Subject)
		}
	}
	if len(c.Diags) != 2 || got["settings/deprecated-action"] != 1 || got["settings/literal-pattern"] != 1 {
		t.Errorf("want one warning each, got %v", got)
	}
}

// TestSameFindingOnce: a server a layout override also writes into the
// IDE's old MCP file breaks the same rule at the same block in both
// documents: one warning, naming both files, not one per file (render
// printed each mcp/unknown-field twice).
func TestSameFindingOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), "agyconf.hcl")
	src := "agyconf {\n  layout { legacy_mcp_config = \".gemini/antigravity/mcp_config.json\" }\n}\nmcp_server \"y\" {\n  command = \"y\"\n  extra = { frobnicate = true }\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Load(p)
	if !c.OK() {
		t.Fatalf("not accepted:\n%s", c.Diags.Error())
	}
	var unknown []*hcl.Diagnostic
	for _, d := range c.Diags {
		if rulebook.IDOf(d) == "mcp/unknown-field" {
			unknown = append(unknown, d)
		}
	}
	if len(unknown) != 1 {
		t.Fatalf("%d mcp/unknown-field diagnostics, want one:\n%s", len(unknown), c.Diags.Error())
	}
	d := unknown[0]
	if !strings.Contains(d.Detail, ".gemini/antigravity/mcp_config.json and .gemini/config/mcp_config.json at /mcpServers/y/frobnicate") || d.Subject == nil || d.Subject.Start.Line != 4 {
		t.Errorf("got %s at %v", d.Detail, d.Subject)
	}
}

// TestRuleBudget: rules that fit the token budget alone and not together
// are a warning at the rule that takes them over it, never an error, in
// a workspace's rule files and in the global managed block alike; a
// plugin's rules do not count.
func TestRuleBudget(t *testing.T) {
	long := strings.Repeat("Prefer small, well-named functions.\n", 1200) // ~43 KB, ~11,000 tokens
	for _, tc := range []struct {
		name, scope, plugin string
		warn                bool
	}{
		{"workspace", "workspace", "", true},
		{"global", "global", "", true},
		{"plugin", "workspace", "plugin", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "long.md"), []byte(long), 0o644); err != nil {
				t.Fatal(err)
			}
			rules := "rule \"a\" {\n  body = file(\"long.md\")\n}\nrule \"b\" {\n  body = file(\"long.md\")\n}\n"
			if tc.plugin != "" {
				rules = "plugin \"p\" {\n" + rules + "}\n"
			}
			cfg := "agyconf {\n  scope = \"" + tc.scope + "\"\n}\n" + rules
			if err := os.WriteFile(filepath.Join(dir, "agyconf.hcl"), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			c := Load(filepath.Join(dir, "agyconf.hcl"))
			if !c.OK() {
				t.Fatalf("refused: %s", c.Diags.Error())
			}
			var got []*hcl.Diagnostic
			for _, d := range c.Diags {
				if rulebook.IDOf(d) == "rule/size" {
					got = append(got, d)
				}
			}
			if !tc.warn {
				if len(got) != 0 {
					t.Errorf("a plugin's rules count against the budget: %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Severity != hcl.DiagWarning || !strings.Contains(got[0].Summary, "over the 20000 agy reads") {
				t.Fatalf("want one warning naming the budget, got %v", got)
			}
			if tc.scope == "workspace" && (got[0].Subject == nil || got[0].Subject.Start.Line != 7) {
				t.Errorf("the warning is not at rule \"b\", which takes the rules over: %v", got[0].Subject)
			}
		})
	}
}

// TestFindingsAtTheArgument: a finding in a rendered value points at the
// argument that wrote it — a relative command at command = …, in a
// handler block, an inline handler, a plugin's hooks and an MCP server, in
// both syntaxes — not at the block; a value with no argument of its own
// (a harness's) falls back to its block.
func TestFindingsAtTheArgument(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // rule@line:column, each once
	}{
		{"agyconf.hcl", `hook "h" {
  pre_tool_use {
    matcher = "*"
    handler {
      timeout = 5
      command = "./a.sh"
    }
  }
  stop {
    command = "./b.sh"
  }
}
mcp_server "m" {
  args    = ["x"]
  command = "./srv"
}
`, []string{"hooks/relative-command@6:7", "hooks/relative-command@10:5", "mcp/relative-command@15:3"}},
		{"agyconf.json", `{
  "hook": {"h": {"stop": {
    "timeout": 5,
    "command": "./b.sh"
  }}},
  "mcp_server": {"m": {"command": "./srv"}}
}
`, []string{"hooks/relative-command@4:5", "mcp/relative-command@6:24"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(p, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := Load(p)
			got := map[string]int{}
			for _, d := range cfg.Diags {
				rule := rulebook.IDOf(d)
				if rule == "" || d.Subject == nil {
					t.Errorf("unexpected: %s: %s", d.Summary, d.Detail)
					continue
				}
				got[fmt.Sprintf("%s@%d:%d", rule, d.Subject.Start.Line, d.Subject.Start.Column)]++
			}
			for _, w := range c.want {
				if got[w] != 1 {
					t.Errorf("want %s once; got %v", w, got)
				}
			}
			if len(got) != len(c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}
