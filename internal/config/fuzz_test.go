package config_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/agyconf/agyconf/internal/config"
)

// The fuzz targets feed arbitrary bytes through the same two steps
// LoadConfig takes for one file — ParseBytes, then Decode — and check what
// the rest of agyconf relies on: no panic, and every diagnostic points at a
// real place in the file, so the snippet printer and the JSON report can
// always say where a problem is.
//
// Run one for a while with
//
//	go test -run='^$' -fuzz=FuzzDecodeHCL -fuzztime=2m ./internal/config/
//
// A failing input lands in testdata/fuzz/<Target>/ and stays there as a
// regression seed that every plain `go test` runs.

func FuzzDecodeHCL(f *testing.F) {
	for _, s := range hclSeeds {
		f.Add([]byte(s))
	}
	addSeedFiles(f, ".hcl")
	fuzzDecode(f, "fuzz.hcl")
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	addSeedFiles(f, ".json")
	fuzzDecode(f, "fuzz.json")
}

// fuzzDecode runs the target. The file is named inside a temporary folder:
// file(), abspath() and a skill's source resolve against the file's folder,
// and a bare "fuzz.hcl" would let the fuzzer read the repository. The folder
// holds a markdown file and a skill so that those functions can succeed too.
func fuzzDecode(f *testing.F, base string) {
	dir := f.TempDir()
	for name, text := range map[string]string{
		"body.md":                "Some *markdown*.\n",
		"skills/review/SKILL.md": "---\nname: review\ndescription: Review a change\n---\nRead the diff.\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	filename := filepath.Join(dir, base)

	f.Fuzz(func(t *testing.T, data []byte) {
		// A fresh parser every time: hclparse caches files by name.
		file, diags := config.NewParser().ParseBytes(data, filename)
		checkDiags(t, filename, "parse", diags)
		if file == nil {
			if !diags.HasErrors() {
				t.Fatal("ParseBytes returned no file and no error")
			}
			return
		}
		if file.Body == nil {
			t.Fatal("ParseBytes returned a file without a body")
		}
		if filepath.Ext(filename) == ".hcl" {
			sameNav(t, file, data)
			samePieces(t, data, filename)
		}
		cfg, ddiags := config.Decode([]hcl.Body{file.Body})
		checkDiags(t, filename, "decode", ddiags)
		if ddiags.HasErrors() != (cfg == nil) {
			t.Fatalf("Decode returned config %v with errors %v; want a config exactly when there is no error", cfg != nil, ddiags.HasErrors())
		}
	})
}

// contextNav is what HCL's diagnostic printer asks of a file's Nav.
type contextNav interface {
	ContextString(offset int) string
	ContextDefRange(offset int) hcl.Range
}

// sameNav fails t unless the navigation LoadConfig keeps once it drops the
// syntax tree answers as hclsyntax's own does, at every offset: the
// context line of a printed diagnostic must not change.
func sameNav(t *testing.T, file *hcl.File, data []byte) {
	t.Helper()
	want, ok := file.Nav.(contextNav)
	if !ok {
		t.Fatalf("hclsyntax's Nav %T has no context methods", file.Nav)
	}
	got := config.ThinNav(file).(contextNav)
	for off := -1; off <= len(data)+1; off++ {
		if g, w := got.ContextString(off), want.ContextString(off); g != w {
			t.Fatalf("ContextString(%d) = %q, hclsyntax says %q", off, g, w)
		}
		if g, w := got.ContextDefRange(off), want.ContextDefRange(off); g != w {
			t.Fatalf("ContextDefRange(%d) = %v, hclsyntax says %v", off, g, w)
		}
	}
}

// samePieces fails t unless parsing data in pieces (one per top-level
// block, and a few blocks at a time) gives what hclsyntax gives for the
// whole file: the same tree, positions included, and the same diagnostics.
func samePieces(t *testing.T, data []byte, filename string) {
	t.Helper()
	wantFile, wantDiags := hclsyntax.ParseConfig(data, filename, hcl.InitialPos)
	for _, every := range []int{1, 40} {
		got, diags, ok := config.ParseInPieces(data, filename, every)
		if !ok {
			return
		}
		if !reflect.DeepEqual(diags, wantDiags) {
			t.Fatalf("pieces of %d bytes: diagnostics %v, whole file %v", every, diags, wantDiags)
		}
		if !reflect.DeepEqual(got.Body, wantFile.Body) {
			t.Fatalf("pieces of %d bytes: the body differs from the whole file's:\n%s", every, bodyDiff(got.Body, wantFile.Body))
		}
		if !bytes.Equal(got.Bytes, data) {
			t.Fatalf("pieces of %d bytes: the file's bytes are not the input", every)
		}
	}
}

// bodyDiff says where two parsed bodies first differ, for a failure
// message: their top-level ranges, or the first block that differs.
func bodyDiff(a, b hcl.Body) string {
	x, y := a.(*hclsyntax.Body), b.(*hclsyntax.Body)
	switch {
	case x.SrcRange != y.SrcRange:
		return fmt.Sprintf("range %v, want %v", x.SrcRange, y.SrcRange)
	case x.EndRange != y.EndRange:
		return fmt.Sprintf("end range %v, want %v", x.EndRange, y.EndRange)
	case len(x.Blocks) != len(y.Blocks):
		return fmt.Sprintf("%d blocks, want %d", len(x.Blocks), len(y.Blocks))
	case len(x.Attributes) != len(y.Attributes):
		return fmt.Sprintf("%d attributes, want %d", len(x.Attributes), len(y.Attributes))
	}
	for i := range x.Blocks {
		if !reflect.DeepEqual(x.Blocks[i], y.Blocks[i]) {
			return fmt.Sprintf("block %d (%s at %v) differs", i, y.Blocks[i].Type, y.Blocks[i].DefRange())
		}
	}
	if (x.Blocks == nil) != (y.Blocks == nil) {
		return fmt.Sprintf("blocks nil: %v, want %v", x.Blocks == nil, y.Blocks == nil)
	}
	return "an attribute differs"
}

// checkDiags fails t unless every diagnostic has a subject in filename
// whose start does not come after its end.
func checkDiags(t *testing.T, filename, stage string, diags hcl.Diagnostics) {
	t.Helper()
	for _, d := range diags {
		if d == nil {
			t.Fatalf("%s: nil diagnostic", stage)
		}
		s := d.Subject
		switch {
		case s == nil:
			t.Errorf("%s: %q has no subject: %s", stage, d.Summary, d.Detail)
		case s.Filename != filename:
			t.Errorf("%s: %q is in file %q, want %q", stage, d.Summary, s.Filename, filename)
		case s.Start.Byte > s.End.Byte,
			s.Start.Line > s.End.Line,
			s.Start.Line == s.End.Line && s.Start.Column > s.End.Column:
			t.Errorf("%s: %q has a backwards range %d:%d(byte %d) – %d:%d(byte %d)", stage, d.Summary,
				s.Start.Line, s.Start.Column, s.Start.Byte, s.End.Line, s.End.Column, s.End.Byte)
		}
	}
}

// addSeedFiles adds every file with extension ext under the decoder's
// testdata/valid and testdata/invalid folders, when they exist.
func addSeedFiles(f *testing.F, ext string) {
	for _, root := range []string{"testdata/valid", "testdata/invalid"} {
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if e.Type().IsRegular() && filepath.Ext(p) == ext {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				f.Add(data)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			f.Fatal(err)
		}
	}
}

// hclSeeds are representative inputs in native syntax: every block type,
// the functions, templates and heredocs, and a few broken ones.
var hclSeeds = []string{
	``,
	`agyconf {
  scope       = "global"
  product     = "both"
  agy_version = "1.1.26"
  layout {
    rules = "rules"
  }
}

tools {
  jq = "/usr/bin/jq"
}

mcp_server "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github", 8080, true]
  env     = { GITHUB_TOKEN = secret_file("/run/secrets/github"), HOME = env("HOME", "/root") }
  cwd     = abspath(".")
  disabled_tools = ["delete_repo"]
}

mcp_server "docs" {
  server_url = "https://example.com/mcp"
  headers    = { Authorization = "Bearer ${secret_file("/run/secrets/docs")}" }
  auth_provider_type = "google_credentials"
  oauth {
    client_id     = "id"
    client_secret = secret_file("/run/secrets/oauth")
  }
}

hook "guard" {
  enabled = true
  pre_tool_use {
    matcher = "run_command|write_file"
    handler {
      command = "./guard.sh"
      timeout = 10
    }
    handler {
      type   = "prompt"
      prompt = "Is this safe?"
      model  = "gemini"
    }
  }
  stop {
    command = "echo done"
  }
  session_start {
    command = "echo hi"
  }
}

skill "review" {
  source = "skills/review"
}

skill "inline" {
  description = "Inline skill"
  body        = file("body.md")
}

rule "go" {
  trigger = "glob"
  globs   = ["**/*.go", "go.mod"]
  body    = <<-EOT
    Prefer table-driven tests.
    EOT
}

agent "reviewer" {
  description = "Reviews diffs"
  body        = "You review diffs."
  tools       = ["read_file"]
  main_agent  = false
  hidden      = true
}

workflow "release" {
  description = "Cut a release"
  body        = "1. Tag.\n2. Push."
}

permissions {
  allow = ["command(git *)", "read_file"]
  ask   = ["write_file"]
  deny  = ["read_url"]
}

settings {
  agentMode             = "plan"
  enableTerminalSandbox = true
  statusLine            = { type = "command", command = jsonencode({ a = [1, 2] }) }
}

plugin "tools" {
  description = "Tools"
  mcp_server "inner" {
    command = "inner"
  }
  rule "r" {
    body = "x"
  }
}

harness "mempalace" {
  mode          = "loose"
  save_interval = 30
  state_dir     = "/var/lib/mempalace"
}

harness "xmsg" {
  reply_only = true
  agy_exe    = "/usr/bin/agy"
}

acp {
  auth_type    = "oauth-business"
  gcp_project  = "p"
  gcp_location = "europe-west1"
  config_root  = "home"
}
`,
	`agyconf {
  scope = "workspace"
}

rule "r" {
  body = file("../outside.md")
}

mcp_server "m" {
  command = env("X")
}
`,
	`agyconf { scope = "galaxy" }
agyconf {}
scope = "global"
mcp_server "a/b" {}
mcp_server "x" {
  command    = ""
  server_url = "ftp://x"
  enabled    = true
  url        = "u"
}
hook "h" {
  PreToolUse {}
  post_tool_use { matcher = "(" }
  stop { matcher = "x" }
}
rule "dup" { body = "a" }
rule "dup" { body = "b" }
settings {
  agentMod    = "plan"
  permissions = {}
  model       = null
}
harness "mempalce" {}
plugin "p" {}
`,
	`rule "t" {
  body = "${jsonencode({for k, v in {a = 1} : k => v})} %{ if true }yes%{ endif }"
}
hook "h" {
  post_tool_use {
    matcher = "*"
    command = "x"
    timeout = 1.5
  }
}
`,
	"rule \"x\" {\n  body = \"unterminated\n}\n",
	"mcp_server \"x\" {\n",
	"\xef\xbb\xbfrule \"x\" {}\n",
	"rule \"x\" { body = \"\xff\" }\n",

	// Nesting at and past MaxNesting (128 levels): every construct that
	// makes the parser or the evaluator recurse, so that the fuzzer works
	// from both sides of the limit. The testdata corpus adds one file per
	// construct, one level past it.
	"settings {\n  k = " + strings.Repeat("(", 127) + "1" + strings.Repeat(")", 127) + "\n}\n",
	"settings {\n  k = " + strings.Repeat("(", 128) + "1" + strings.Repeat(")", 128) + "\n}\n",
	"settings {\n  k = " + strings.Repeat("[{a = ", 70) + "1" + strings.Repeat("}]", 70) + "\n}\n",
	"rule \"r\" {\n  body = " + strings.Repeat(`"${`, 70) + `"x"` + strings.Repeat(`}"`, 70) + "\n}\n",
	"rule \"r\" {\n  body = \"" + strings.Repeat("%{ if true }%{ for x in [1] }", 70) + "x" + strings.Repeat("%{ endfor }%{ endif }", 70) + "\"\n}\n",
	"rule \"r\" {\n  body = " + strings.Repeat("<<EOT\n${", 70) + "1" + strings.Repeat("}\nEOT\n", 70) + "}\n",
	"settings {\n  k = " + strings.Repeat("!", 200) + "true\n  l = " + strings.Repeat("- ", 200) + "1\n}\n",
	"settings {\n  k = 1" + strings.Repeat(" + 1", 200) + "\n  l = " + strings.Repeat("true ? 1 : ", 200) + "1\n}\n",
	"settings {\n  k = [1]" + strings.Repeat("[*]", 100) + strings.Repeat(".a", 100) + "\n  l = {a = 1}" + strings.Repeat("[0+0]", 100) + "\n}\n",
	"settings {\n  k = " + strings.Repeat("jsonencode(", 16) + `"x"` + strings.Repeat(")", 16) + "\n}\n",
	strings.Repeat("plugin \"p\" {\n", 200) + strings.Repeat("}\n", 200),
	"settings {\n  k = " + strings.Repeat("(", 10000) + "1" + strings.Repeat(")", 10000) + "\n}\n",
	// Parsed in pieces (ParseBytes' pieceSize, samePieces' smaller ones):
	// an error, a top-level argument given twice and a heredoc that holds
	// "}" lines, each after a block that ends a line.
	"skill \"a\" {\n  body = \"x\"\n}\nskill \"b\" {\n  body = \n}\n",
	"x = {\n}\nskill \"a\" {\n}\nx = {\n}\n",
	"x = {\n}\ny = 2\n", // top-level arguments only: no blocks in any piece
	"rule \"r\" {\n  body = <<EOT\n}\n}\nEOT\n}\nrule \"s\" {\n  body = \"}\"\n}\r\nrule \"t\" {}\n",
}

// jsonSeeds are the same kinds of input in HCL's JSON syntax.
var jsonSeeds = []string{
	`{}`,
	`[]`,
	`null`,
	`{"agyconf": {"scope": "global", "product": "cli", "agy_version": "1.1.26", "layout": {"rules": "rules"}}}`,
	`{
  "mcp_server": {
    "github": {
      "command": "npx",
      "args": ["-y", "server", 8080],
      "env": {"TOKEN": "${secret_file(\"/run/secrets/github\")}"}
    },
    "docs": {
      "server_url": "https://example.com/mcp",
      "headers": {"X-Team": "core"},
      "oauth": {"client_id": "id"}
    }
  },
  "hook": {
    "guard": {
      "pre_tool_use": [
        {"matcher": "*", "handler": [{"command": "./guard.sh", "timeout": 10}]}
      ],
      "stop": {"command": "echo done"}
    }
  },
  "skill": {"inline": {"description": "d", "body": "${file(\"body.md\")}"}, "review": {"source": "skills/review"}},
  "rule": {"go": {"trigger": "glob", "globs": ["**/*.go"], "body": "x"}},
  "agent": {"reviewer": {"description": "d", "body": "b", "tools": ["read_file"]}},
  "workflow": {"release": {"body": "1. Tag."}},
  "permissions": {"allow": ["command(git *)"], "deny": ["read_url"]},
  "settings": {"agentMode": "plan", "enableTerminalSandbox": true, "statusLine": {"type": "command"}},
  "plugin": {"p": {"rule": {"r": {"body": "x"}}}},
  "harness": {"mempalace": {"mode": "plugin"}, "xmsg": {}},
  "acp": {"auth_type": "gemini-api-key"}
}`,
	`{"mcp_server": {"x": {"url": "u", "enabled": true}}, "settings": {"agentMod": "plan", "hooks": []}, "rule": {"a": {}, "a": {}}}`,
	`{"//": "comment", "agyconf": [{"scope": "workspace"}, {"scope": "global"}], "rule": {"r": {"body": "${file(\"../x\")}"}}}`,
	`{"rule": {"r": {"body": "${`,
	"\xef\xbb\xbf{}",

	// Nesting at and past MaxNesting, as for native syntax: JSON arrays and
	// objects, and HCL templates inside JSON strings and keys.
	`{"settings": {"k": ` + strings.Repeat("[", 126) + "1" + strings.Repeat("]", 126) + "}}",
	`{"settings": {"k": ` + strings.Repeat(`[{"a": `, 70) + "1" + strings.Repeat("}]", 70) + "}}",
	`{"settings": {"k": "` + strings.Repeat(`${\"`, 70) + "1" + strings.Repeat(`\"}`, 70) + `"}}`,
	`{"settings": {"k": "${` + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + `}"}}`,
	`{"settings": {"k": {"${` + strings.Repeat("!", 200) + `true}": 1}}}`,
	`{"rule": {"r": {"body": "` + strings.Repeat("%{if true}", 150) + "x" + strings.Repeat("%{endif}", 150) + `"}}}`,
	`{"rule": {"r": {"body": "${` + strings.Repeat(`<<EOT\n${`, 70) + "1" + strings.Repeat(`}\nEOT\n`, 70) + `}"}}}`,
	`{"settings": {"k": ` + strings.Repeat("[", 10000) + "1" + strings.Repeat("]", 10000) + "}}",
}
