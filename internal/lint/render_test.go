package lint_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/render"
)

// findAll is a LookPath that finds every command: rendered configs name
// commands that are not installed here.
func findAll(name string) (string, error) { return "/usr/bin/" + name, nil }

// TestRenderedTreesLintClean renders configs that use every block render
// supports, in both scopes and all products, writes them as agyconf would,
// and lints the trees: agyconf's own output must have no findings.
func TestRenderedTreesLintClean(t *testing.T) {
	names := make([]string, 0, len(renderConfigs))
	for n := range renderConfigs {
		names = append(names, n)
	}
	sort.Strings(names)
	// Also the bundled examples and render's own complete test configs.
	names = append(names, "../../examples/global", "../../examples/workspace",
		"../render/testdata/config/global", "../render/testdata/config/workspace")
	counts := map[string]int{}
	for _, name := range names {
		label := strings.TrimSuffix(name, ".hcl")
		if !strings.HasSuffix(name, ".hcl") {
			label = filepath.Base(filepath.Dir(name)) + "-" + filepath.Base(name)
		}
		t.Run(label, func(t *testing.T) {
			src := name
			if strings.HasSuffix(name, ".hcl") {
				src = t.TempDir()
				if err := os.WriteFile(filepath.Join(src, name), []byte(renderConfigs[name]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, diags := config.NewParser().LoadConfig(src)
			if diags.HasErrors() {
				t.Fatalf("load: %v", diags)
			}
			cfg.Harnesses = nil // render refuses harness blocks today
			plan, diags := render.Render(cfg, layout.New(cfg.Agyconf))
			if diags.HasErrors() {
				t.Fatalf("render: %v", diags)
			}
			root := t.TempDir()
			for _, d := range plan.Documents {
				data, err := d.Bytes(func(string) (string, error) { return "x", nil })
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(root, filepath.FromSlash(d.Path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, data, d.Mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, d.Mode); err != nil {
					t.Fatal(err)
				}
				counts[d.Schema]++
			}
			fs, err := lint.Paths([]string{root}, lint.Options{LookPath: findAll})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				t.Errorf("%s:%d:%d: %s: %s", f.File, f.Line, f.Column, f.Rule, f.Message)
			}
			if len(plan.Documents) == 0 {
				t.Error("rendered no documents")
			}
			// Zero findings must not come from finding nothing: break
			// every document that has a schema with a byte order mark,
			// and every one of them must now have a finding.
			broken := map[string]bool{}
			for _, d := range plan.Documents {
				if d.Schema == "" {
					continue
				}
				p := filepath.Join(root, filepath.FromSlash(d.Path))
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, append([]byte("\xef\xbb\xbf"), data...), d.Mode); err != nil {
					t.Fatal(err)
				}
				broken[p] = true
			}
			fs, err = lint.Paths([]string{root}, lint.Options{LookPath: findAll})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				delete(broken, f.File)
			}
			for p := range broken {
				t.Errorf("%s: not linted", p)
			}
		})
	}
	t.Logf("documents written per schema: %v", counts)
}

// renderConfigs is a copy of the configs schema/document_test.go renders.
var renderConfigs = map[string]string{
	"global-both.hcl": `
agyconf {
  scope       = "global"
  product     = "both"
  agy_version = "1.5.0"
}
tools {
  agyhook = "/home/me/.nix-profile/bin/agyhook"
  xmsg    = "/home/me/bin/x msg"
}
mcp_server "github" {
  command        = "github-mcp-server"
  args           = ["stdio", "--token", secret_file("/run/secrets/github"), 8080, true]
  env            = { GITHUB_TOKEN = secret_file("/run/secrets/github"), HOST = "github.example.com" }
  cwd            = "/srv/github"
  disabled_tools = ["delete_repository"]
}
mcp_server "off" {
  command  = "xmsg"
  disabled = true
}
mcp_server "linear" {
  server_url     = "https://mcp.linear.app/sse"
  headers        = { Authorization = "Bearer ${secret_file("/run/secrets/linear")}" }
  disabled_tools = ["delete_issue"]
}
mcp_server "cloud" {
  server_url         = "https://mcp.example.run.app/mcp"
  auth_provider_type = "google_credentials"
}
mcp_server "notion" {
  server_url = "https://mcp.notion.com/mcp"
  oauth {
    client_id     = "agyconf"
    client_secret = secret_file("/run/secrets/notion")
  }
}
mcp_server "notion-public" {
  server_url = "https://mcp.notion.com/public"
  oauth { client_id = "agyconf-public" }
}
hook "audit" {
  pre_tool_use {
    matcher = "run_command"
    command = "agyhook audit"
    timeout = 5
  }
  pre_tool_use {
    matcher = "write_to_file|replace_file_content"
    handler { command = "/usr/local/bin/lint" }
    handler {
      type    = "prompt"
      prompt  = "Does this touch generated files?"
      model   = "gemini-flash"
      timeout = 20
    }
  }
  post_tool_use {
    matcher = ""
    command = "xmsg notify"
  }
  pre_invocation { command = "xmsg register agy --hook" }
  post_invocation {
    type   = "prompt"
    prompt = "Summarise the last step."
  }
  stop { command = "/usr/local/bin/audit-stop" }
  session_start { command = "/usr/local/bin/banner" }
}
hook "paused" {
  enabled = false
  stop { command = "/usr/local/bin/never" }
}
skill "release-notes" {
  description = "Write release notes"
  body        = "Read the merged pull requests."
}
skill "yes" {
  description = "yes"
  body        = "A description YAML would read as a bool unless quoted."
}
rule "answer-in-english" {
  body = "Answer in English."
}
agent "reviewer" {
  description              = "Reviews diffs"
  body                     = "You review diffs."
  model                    = "inherit"
  tools                    = ["view_file", "grep_search"]
  mcp_servers              = ["github"]
  skills                   = ["release-notes"]
  main_agent               = false
  subagent                 = true
  command_execution_policy = "sandbox"
  hidden                   = false
  inherit_mcp              = true
}
agent "minimal" {
  description = "1.0"
  body        = "You help."
}
workflow "ship" {
  description = "Tag and publish"
  body        = "1. Test.\n2. Tag."
}
workflow "bare" {
  body = "Do the thing."
}
permissions {
  allow = ["command(git *)", "read_file", "mcp(github/*)"]
  ask   = ["command(git push *)", "write_file(/etc/*)"]
  deny  = ["command(rm -rf *)", "unsandboxed", "execute_url"]
}
settings {
  toolPermission          = "request-review"
  artifactReviewPolicy    = "agent-decides"
  agentMode               = "plan"
  enableTerminalSandbox   = true
  allowNonWorkspaceAccess = false
  statusLine              = { type = "command", command = "agy-status" }
  trustedWorkspaces       = ["/home/me/src"]
  colorScheme             = "dark"
  altScreenMode           = "auto"
  model                   = "gemini-pro"
  futureKnob              = { nested = [1, 2.5, "three", false] }
}
plugin "team-tools" {
  description = "Our shared tools"
  logo        = "assets/logo.png"
  mcp_server "docs" {
    command = "docs-mcp"
    args    = ["--index", "team"]
  }
  mcp_server "search" {
    server_url = "https://search.example.com/mcp"
    headers    = { Authorization = "Bearer ${secret_file("/run/secrets/search")}" }
  }
  hook "guard" {
    pre_tool_use {
      matcher = "run_command"
      command = "./bin/guard"
      timeout = 10
    }
    session_start {
      type   = "prompt"
      prompt = "Remind the user of the conventions."
    }
  }
  skill "triage" {
    description = "Team triage"
    body        = "Label the issue."
  }
  rule "style" {
    trigger = "glob"
    globs   = ["*.md", "docs/**"]
    body    = "Wrap prose at 100 columns."
  }
  rule "security" {
    trigger     = "model_decision"
    description = "When the change touches authentication"
    body        = "Ask before weakening a check."
  }
  rule "release" {
    trigger = "manual"
    body    = "Follow RELEASING.md."
  }
  rule "always" {
    body = "Be brief."
  }
  agent "librarian" {
    description = "Finds team docs"
    body        = "Search the docs server first."
    mcp_servers = ["docs"]
  }
}
plugin "off" {
  disabled = true
  rule "noop" { body = "Nothing." }
}
`,
	"global-cli.hcl": `
agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "docs" { command = "docs-mcp" }
hook "h" {
  stop { command = "/bin/true" }
}
workflow "w" {
  description = "A CLI workflow"
  body        = "Go."
}
permissions { deny = ["command(rm *)"] }
`,
	"global-ide.hcl": `
agyconf {
  scope   = "global"
  product = "ide"
}
mcp_server "docs" { command = "docs-mcp" }
workflow "w" { body = "Go." }
agent "a" {
  description = "An IDE agent"
  body        = "Help."
}
`,
	"workspace-both.hcl": `
agyconf {
  scope   = "workspace"
  product = "both"
}
rule "go-style" {
  trigger     = "glob"
  globs       = ["**/*.go", "go.mod"]
  description = "Go files"
  body        = "Run gofmt."
}
rule "review" {
  trigger     = "model_decision"
  description = "Apply when the user asks to commit"
  body        = "Run the tests first."
}
rule "manual" {
  trigger = "manual"
  body    = "Only when asked."
}
rule "always" {
  trigger = "always_on"
  body    = "Answer briefly."
}
skill "run-tests" {
  description = "Run the test suite"
  body        = "Run go test ./...."
}
workflow "release" {
  description = "Cut a release"
  body        = "Tag it."
}
mcp_server "docs" {
  command = "docs-mcp"
  args    = ["--root", "."]
}
hook "format-on-write" {
  post_tool_use {
    matcher = "^(write_to_file|replace_file_content)$"
    command = "gofmt -l ."
    timeout = 10
  }
}
agent "helper" {
  description = "Helps"
  body        = "Help."
  tools       = []
}
permissions {
  allow = ["command(go test *)"]
  ask   = ["write_file"]
}
plugin "local" {
  skill "lint" {
    description = "Lint"
    body        = "Run the linter."
  }
}
`,
	"workspace-ide.hcl": `
agyconf {
  scope   = "workspace"
  product = "ide"
}
permissions { deny = ["read_url(http://*)"] }
settings { agentMode = "default" }
`,
}
