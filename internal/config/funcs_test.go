package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/model"
)

// funcTree builds the folders the function tests read from:
//
//	root/outside.md            not in the config folder
//	root/cfg/                  the config folder
//	root/cfg/notes.md          "hello\n"
//	root/cfg/sub/deep.md       "deep\n"
//	root/cfg/latin1.md         not UTF-8
//	root/cfg/alias.md       -> notes.md      (a link that stays inside)
//	root/cfg/escape.md      -> ../outside.md (a link that leaves)
//	root/cfg/up             -> ..            (a folder link that leaves)
func funcTree(t *testing.T) (root, cfg string) {
	t.Helper()
	root = t.TempDir()
	cfg = filepath.Join(root, "cfg")
	for name, text := range map[string]string{
		"outside.md":      "outside\n",
		"cfg/notes.md":    "hello\n",
		"cfg/sub/deep.md": "deep\n",
		"cfg/latin1.md":   "caf\xe9\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"alias.md":  "notes.md",
		"escape.md": filepath.Join("..", "outside.md"),
		"up":        "..",
	} {
		if err := os.Symlink(target, filepath.Join(cfg, link)); err != nil {
			t.Skipf("cannot create symbolic links here: %v", err)
		}
	}
	return root, cfg
}

// evalArg decodes a config in folder dir whose only MCP server has expr as
// its one argument, written in the given syntax, and returns that argument.
// args is used because it is the most permissive place: any string, empty
// or not, and secrets allowed (with secret_mode "inline").
func evalArg(t *testing.T, syntax string, scope model.Scope, dir, expr string) (model.Str, hcl.Diagnostics) {
	t.Helper()
	var src string
	switch syntax {
	case "hcl":
		src = fmt.Sprintf("agyconf {\n  scope = %q\n}\nmcp_server \"m\" {\n  command     = \"x\"\n  args        = [%s]\n  secret_mode = \"inline\"\n}\n", scope, expr)
	case "json":
		tmpl, err := json.Marshal("${" + expr + "}")
		if err != nil {
			t.Fatal(err)
		}
		src = fmt.Sprintf("{\n  \"agyconf\": {\"scope\": %q},\n  \"mcp_server\": {\"m\": {\"command\": \"x\", \"secret_mode\": \"inline\", \"args\": [%s]}}\n}\n", scope, tmpl)
	default:
		t.Fatalf("unknown syntax %q", syntax)
	}
	path := filepath.Join(dir, "agyconf."+syntax)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(path)
	cfg, diags := load(t, path)
	if cfg == nil {
		return nil, diags
	}
	if len(cfg.MCPServers) != 1 || len(cfg.MCPServers[0].Args) != 1 {
		t.Fatalf("%s: want one server with one argument, got %+v", path, cfg.MCPServers)
	}
	return cfg.MCPServers[0].Args[0], diags
}

// funcCase is an expression and either the argument it must produce or a
// text the detail of its one error must contain.
type funcCase struct {
	name  string
	scope model.Scope
	expr  string
	want  model.Str
	err   string
}

func text(s string) model.Str { return model.Str{{Text: s}} }

// runFuncCases runs every case in both syntaxes: the functions are the same
// whichever syntax calls them.
func runFuncCases(t *testing.T, dir string, cases []funcCase) {
	t.Helper()
	for _, tc := range cases {
		for _, syntax := range []string{"hcl", "json"} {
			t.Run(tc.name+"/"+syntax, func(t *testing.T) {
				scope := tc.scope
				if scope == "" {
					scope = model.ScopeGlobal
				}
				got, diags := evalArg(t, syntax, scope, dir, tc.expr)
				if tc.err != "" {
					if len(diags) != 1 || diags[0].Severity != hcl.DiagError || !strings.Contains(diags[0].Detail, tc.err) {
						t.Fatalf("%s: want one error containing %q, got %v", tc.expr, tc.err, diags)
					}
					if diags[0].Subject == nil || diags[0].Subject.Start.Line != argLine(syntax) {
						t.Errorf("%s: the error should point at the argument on line %d: %s", tc.expr, argLine(syntax), diagString(diags[0]))
					}
					return
				}
				for _, d := range diags {
					t.Errorf("%s: %s", tc.expr, diagString(d))
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tc.expr, diff)
				}
			})
		}
	}
}

// argLine is the line evalArg writes the expression on.
func argLine(syntax string) int {
	if syntax == "json" {
		return 3
	}
	return 6
}

func TestEnvFunc(t *testing.T) {
	t.Setenv("AGYCONF_TEST_SET", "value")
	t.Setenv("AGYCONF_TEST_EMPTY", "")
	t.Setenv("AGYCONF_TEST_UNSET", "")
	os.Unsetenv("AGYCONF_TEST_UNSET")
	runFuncCases(t, t.TempDir(), []funcCase{
		{name: "set", expr: `env("AGYCONF_TEST_SET")`, want: text("value")},
		{name: "set-ignores-default", expr: `env("AGYCONF_TEST_SET", "default")`, want: text("value")},
		{name: "set-empty", expr: `env("AGYCONF_TEST_EMPTY", "default")`, want: text("")},
		{name: "unset-default", expr: `env("AGYCONF_TEST_UNSET", "default")`, want: text("default")},
		{name: "in-template", expr: `"${env("AGYCONF_TEST_SET")}/bin"`, want: text("value/bin")},
		{name: "unset", expr: `env("AGYCONF_TEST_UNSET")`, err: `environment variable "AGYCONF_TEST_UNSET" is not set`},
		{name: "two-defaults", expr: `env("AGYCONF_TEST_UNSET", "a", "b")`, err: "at most one default"},
		{name: "workspace", scope: model.ScopeWorkspace, expr: `env("AGYCONF_TEST_SET")`, err: "env() is not allowed in workspace scope"},
		{name: "workspace-with-default", scope: model.ScopeWorkspace, expr: `env("AGYCONF_TEST_UNSET", "default")`, err: "env() is not allowed in workspace scope"},
	})
}

func TestFileFunc(t *testing.T) {
	root, cfg := funcTree(t)
	outside := filepath.Join(root, "outside.md")
	runFuncCases(t, cfg, []funcCase{
		{name: "relative", expr: `file("notes.md")`, want: text("hello\n")},
		{name: "subfolder", expr: `file("sub/deep.md")`, want: text("deep\n")},
		{name: "unclean-inside", expr: `file("./sub/../notes.md")`, want: text("hello\n")},
		{name: "link-inside", expr: `file("alias.md")`, want: text("hello\n")},
		{name: "absolute", expr: fmt.Sprintf("file(%q)", outside), want: text("outside\n")},
		{name: "workspace-relative", scope: model.ScopeWorkspace, expr: `file("notes.md")`, want: text("hello\n")},
		{name: "outside", expr: `file("../outside.md")`, err: "is outside the config folder"},
		{name: "outside-unclean", expr: `file("sub/../../outside.md")`, err: "is outside the config folder"},
		{name: "link-leaves", expr: `file("escape.md")`, err: "through a symbolic link"},
		{name: "folder-link-leaves", expr: `file("up/outside.md")`, err: "through a symbolic link"},
		{name: "missing", expr: `file("nope.md")`, err: "nope.md does not exist"},
		{name: "missing-absolute", expr: fmt.Sprintf("file(%q)", filepath.Join(root, "nope.md")), err: "no such file"},
		{name: "not-utf8", expr: `file("latin1.md")`, err: "is not valid UTF-8 text"},
		{name: "folder", expr: `file("sub")`, err: "not a regular file"},
		{name: "empty-path", expr: `file("")`, err: "path is empty"},
		{name: "secret-path", expr: `file(secret_file("/run/secrets/p"))`, err: "cannot be used as a path"},
		{name: "workspace-absolute", scope: model.ScopeWorkspace, expr: fmt.Sprintf("file(%q)", outside), err: "an absolute path is not allowed in workspace scope"},
	})
}

// TestFileFuncTooLarge reads a generated file just past MaxFileSize.
func TestFileFuncTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := bytes.Repeat([]byte("x"), MaxFileSize+1)
	if err := os.WriteFile(filepath.Join(dir, "big.md"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	runFuncCases(t, dir, []funcCase{
		{name: "too-large", expr: `file("big.md")`, err: fmt.Sprintf("the limit is %d bytes", MaxFileSize)},
	})
}

func TestAbspathFunc(t *testing.T) {
	_, cfg := funcTree(t)
	runFuncCases(t, cfg, []funcCase{
		{name: "relative", expr: `abspath("bin/tool")`, want: text(filepath.Join(cfg, "bin", "tool"))},
		{name: "dot", expr: `abspath(".")`, want: text(cfg)},
		{name: "parent", expr: `abspath("..")`, want: text(filepath.Dir(cfg))},
		{name: "absolute-cleaned", expr: `abspath("/usr/local/../bin//x")`, want: text("/usr/bin/x")},
		{name: "missing-is-fine", expr: `abspath("not/there")`, want: text(filepath.Join(cfg, "not", "there"))},
		{name: "in-template", expr: `"--root=${abspath("sub")}"`, want: text("--root=" + filepath.Join(cfg, "sub"))},
		{name: "empty", expr: `abspath("")`, err: "path is empty"},
		{name: "secret", expr: `abspath(secret_file("/run/secrets/p"))`, err: "cannot be used as a path"},
		{name: "workspace", scope: model.ScopeWorkspace, expr: `abspath("bin/tool")`, err: "abspath() is not allowed in workspace scope"},
	})
}

// TestAbspathRelativeConfig names the config by a relative path, as a user
// in its folder would: abspath() and a skill's source must still come out
// absolute, resolved against the config's folder.
func TestAbspathRelativeConfig(t *testing.T) {
	root, _ := funcTree(t)
	if err := os.MkdirAll(filepath.Join(root, "cfg", "skills", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "cfg", "skills", "x", "SKILL.md"), []byte("---\nname: x\ndescription: Test skill\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "mcp_server \"m\" {\n  command = abspath(\"bin/server\")\n}\nskill \"x\" {\n  source = \"skills/x\"\n}\n"
	if err := os.WriteFile(filepath.Join(root, "cfg", "agyconf.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	cfg, diags := load(t, filepath.Join("cfg", "agyconf.hcl"))
	for _, d := range diags {
		t.Error(diagString(d))
	}
	if cfg == nil {
		t.FailNow()
	}
	// The temporary folder may itself be reached through a link (macOS
	// /var): compare with the working directory as the process sees it.
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.MCPServers[0].Command, filepath.Join(wd, "cfg", "bin", "server"); got != want {
		t.Errorf("abspath: got %q, want %q", got, want)
	}
	if got, want := cfg.Skills[0].Source, filepath.Join(wd, "cfg", "skills", "x"); got != want {
		t.Errorf("skill source: got %q, want %q", got, want)
	}
}

func TestJSONEncodeFunc(t *testing.T) {
	runFuncCases(t, t.TempDir(), []funcCase{
		{name: "object-sorted", expr: `jsonencode({b = 1, a = ["x", true, null]})`, want: text(`{"a":["x",true,null],"b":1}`)},
		{name: "string", expr: `jsonencode("a \"quoted\" <tag>")`, want: text(`"a \"quoted\" \u003ctag\u003e"`)},
		{name: "number", expr: `jsonencode(1.5)`, want: text(`1.5`)},
		{name: "nested-call", expr: `jsonencode({home = env("AGYCONF_TEST_UNSET_TOO", "/h")})`, want: text(`{"home":"/h"}`)},
	})
}
