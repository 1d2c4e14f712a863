// Tests of nix/model.nix, the builtins-only function that turns the
// programs.agyconf Home Manager options (docs/nix.md) into agyconf's input
// in HCL's JSON syntax.
//
// Each tests/nix/model/<name>.nix evaluates to { cfg = …; tools = …; }, the
// arguments model.nix takes; <name>.json beside it is the model it must
// produce. `go test ./tests/nix/ -update` rewrites the goldens.
//
// The tests need nix-instantiate (Nix 2.8 or newer) on PATH and evaluate
// with --store dummy://, so nothing is written to /nix. Without Nix they
// skip, unless CI is set: then a missing Nix is a failure.
package nix_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/schema"
)

var update = flag.Bool("update", false, "rewrite tests/nix/model/*.json from nix/model.nix")

// modelDir holds the option sets and their goldens, relative to this
// package's folder (go test's working directory).
const modelDir = "model"

// requiredSets must exist: together they reach every schema property
// (TestSchemaReachable) and every kind of secret.
var requiredSets = []string{"minimal", "full", "harnesses", "secrets"}

// needNix returns nix-instantiate's path, or skips the test (fails it
// when CI is set).
func needNix(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("nix-instantiate")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("nix-instantiate is not on PATH, and CI is set: %v", err)
		}
		t.Skipf("nix-instantiate is not on PATH (%v); to run this test: install Nix (Debian: sudo apt-get install nix-bin; .ci/run does), then CI=true go test ./tests/nix/ (with CI set a missing tool is a failure)", err)
	}
	return p
}

// evalNix evaluates a Nix expression strictly to JSON in this package's
// folder, against a dummy store. On failure the error holds stderr.
func evalNix(t *testing.T, expr string) ([]byte, error) {
	t.Helper()
	nix := needNix(t)
	cmd := exec.Command(nix, "--eval", "--strict", "--json", "--store", "dummy://", "-E", expr)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// modelExpr is the expression TestModelGolden evaluates for one set.
func modelExpr(name string) string {
	return fmt.Sprintf("import ../../nix/model.nix (import ./%s/%s.nix)", modelDir, name)
}

// optionSets lists the option sets, sorted, and checks the required ones
// exist.
func optionSets(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(modelDir, "*.nix"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	have := map[string]bool{}
	for _, p := range paths {
		n := strings.TrimSuffix(filepath.Base(p), ".nix")
		names = append(names, n)
		have[n] = true
	}
	for _, n := range requiredSets {
		if !have[n] {
			t.Errorf("option set %s/%s.nix is missing", modelDir, n)
		}
	}
	sort.Strings(names)
	return names
}

// decode parses JSON keeping numbers exact.
func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

func goldenPath(name string) string { return filepath.Join(modelDir, name+".json") }

// readGolden returns a golden's bytes and its parsed value.
func readGolden(t *testing.T, name string) ([]byte, any) {
	t.Helper()
	b, err := os.ReadFile(goldenPath(name))
	if err != nil {
		t.Fatalf("%v (run go test ./tests/nix/ -update to create it)", err)
	}
	v, err := decode(b)
	if err != nil {
		t.Fatalf("%s: %v", goldenPath(name), err)
	}
	return b, v
}

// TestModelGolden evaluates every option set with model.nix and compares
// the model with its golden, byte for byte in the golden's format.
func TestModelGolden(t *testing.T) {
	for _, name := range optionSets(t) {
		t.Run(name, func(t *testing.T) {
			out, err := evalNix(t, modelExpr(name))
			if err != nil {
				t.Fatalf("evaluating %s: %v", modelExpr(name), err)
			}
			v, err := decode(out)
			if err != nil {
				t.Fatalf("nix-instantiate printed no JSON: %v\n%s", err, out)
			}
			got, err := render.EncodeJSON(v) // the form goldens are stored in
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(goldenPath(name), got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, _ := readGolden(t, name)
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("model of %s.nix differs from %s (-golden +model; run with -update if the change is intended):\n%s", name, goldenPath(name), diff)
			}
		})
	}
}

// literals are texts that must reach the rendered files exactly as the
// option sets give them, by option set and document path under the render
// root ("" = any document). For full: template sequences the model
// escapes, next to ones it must not touch (full.nix moves every artifact
// under .config/agy). For harnesses: the profile paths of tools.
var literals = map[string]map[string][]string{
	"full": {
		".config/agy/hooks.json": {
			"echo ${HOME} >> /tmp/agy-hooks.log",
			"Answer deny when the %{x} marker appears.",
		},
		".config/agy/mcp_config.json": {
			"--label=${HOME}",
			"${NOT_EXPANDED} %{nor_this}",
			"<secret>", // env and headers secrets, redacted
		},
		".config/agy/settings.json": {
			"${model} %{cwd}",
			"${key}", // a key of an object value: also a template
			"command(rm -rf ${HOME})",
		},
		".config/agy/skills/release-notes/SKILL.md": {
			"Collect merged PRs since ${LAST_TAG}; skip %{draft} ones.",
		},
		".config/agy/agents/reviewer/agent.md": {
			"You review diffs. Leave %{if} and ${x} as they are.",
		},
		".config/agy/plugins/team-tools/hooks.json": {
			"echo ${HOME} >> /tmp/agy-hooks.log",
		},
	},
	"harnesses": {
		"": {
			"/home/demo/.nix-profile/bin/agyhook",
			"/home/demo/.nix-profile/bin/xmsg",
			"/home/demo/.nix-profile/bin/mempalace-mcp",
		},
	},
	"secrets": {
		"": {"<secret>"},
	},
	// Kept as written into what agy starts, expanded only by agyhook
	// exec-env when it reads the secret.
	"runtime-secrets": {
		".gemini/config/mcp_config.json": {
			"GITHUB_PERSONAL_ACCESS_TOKEN=%r/secrets/github-token",
			"PERCENT=%r/secrets/100%%-real",
		},
	},
}

// TestRuntimeSecretPathsDecode: the secret paths of runtime-secrets.nix,
// as sops-nix and agenix write them, reach agyconf exactly as the user
// gave them (the model escapes ${ for HCL's templates, and nothing else).
func TestRuntimeSecretPathsDecode(t *testing.T) {
	raw, _ := readGolden(t, "runtime-secrets")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agyconf.json"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	loaded := engine.Load(dir)
	if !loaded.OK() {
		t.Fatalf("engine.Load: %s", loaded.Diags.Error())
	}
	var got []string
	for _, r := range loaded.Model.SecretRefs {
		got = append(got, r.Path)
	}
	sort.Strings(got)
	want := []string{
		"$(/nix/store/00000000000000000000000000000000-getconf-glibc-2.40/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/notion",
		"${XDG_RUNTIME_DIR}/agenix/linear",
		"%r/secrets/100%%-real",
		"%r/secrets/github-token",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("secret paths as agyconf reads them (-want +got):\n%s", diff)
	}
}

// TestModelRenders feeds every golden to agyconf in-process, as
// `agyconf render` reads it: decode, expand harnesses, render, check the
// documents against their schemas. It also validates each golden against
// the input schema, checks that no rendered text keeps an escape ($${,
// %%{), that documents holding secrets get mode 0600, and that the
// literals above (full.nix's ${…} and %{…}, the harnesses' tool paths)
// reach the rendered files.
func TestModelRenders(t *testing.T) {
	inputSchema, err := schema.NewValidator(schema.Input)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range optionSets(t) {
		t.Run(name, func(t *testing.T) {
			raw, model := readGolden(t, name)

			if err := inputSchema.ValidateJSON(schema.Input, raw); err != nil {
				t.Errorf("%s fails schema/agyconf.schema.json: %v", goldenPath(name), err)
			}

			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "agyconf.json"), raw, 0o644); err != nil {
				t.Fatal(err)
			}
			writeSkillSources(t, dir, model)

			// The pipeline every command shares: decode, expand, render,
			// check every rendered document.
			loaded := engine.Load(dir)
			if !loaded.OK() {
				t.Fatalf("engine.Load(%s): %s", goldenPath(name), loaded.Diags.Error())
			}
			plan := loaded.Plan

			texts := map[string]string{}
			for _, d := range plan.Documents {
				b, err := d.Bytes(render.Redact)
				if err != nil {
					t.Fatal(err)
				}
				texts[d.Path] = documentText(t, d.Path, d.JSON != nil, b)
				if strings.Contains(texts[d.Path], "<secret>") && d.Mode != render.ModeSecret {
					t.Errorf("%s holds a secret but has mode %v, want %v", d.Path, d.Mode, render.ModeSecret)
				}
				if strings.Contains(texts[d.Path], "$${") || strings.Contains(texts[d.Path], "%%{") {
					t.Errorf("%s keeps an escaped template sequence ($${ or %%%%{): the model escaped something twice:\n%s", d.Path, b)
				}
			}
			var paths []string
			for p := range texts {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			all := strings.Join(paths, ", ")
			for p, want := range literals[name] {
				text, ok := texts[p]
				if p == "" {
					text, ok = strings.Join(mapValues(texts), "\n"), true
				}
				if !ok {
					t.Errorf("%s renders no %s; documents: %s", name, p, all)
					continue
				}
				for _, w := range want {
					if !strings.Contains(text, w) {
						t.Errorf("%s: %s lacks the literal %q:\n%s", name, p, w, text)
					}
				}
			}
		})
	}
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// documentText is what literals are looked up in: a JSON document's keys
// and strings, one a line, decoded (so no JSON escaping is in the way);
// any other document as it is.
func documentText(t *testing.T, path string, isJSON bool, b []byte) string {
	t.Helper()
	if !isJSON {
		return string(b)
	}
	v, err := decode(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var sb strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			sb.WriteString(v + "\n")
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				sb.WriteString(k + "\n")
				walk(x)
			}
		}
	}
	walk(v)
	return sb.String()
}

// writeSkillSources creates the folder every relative skill source of a
// model names (top level and in plugins), holding a SKILL.md: the folders
// a real config keeps beside its file.
func writeSkillSources(t *testing.T, dir string, model any) {
	t.Helper()
	m, _ := model.(map[string]any)
	blocks := []any{m["skill"]}
	if plugins, ok := m["plugin"].(map[string]any); ok {
		for _, p := range plugins {
			if p, ok := p.(map[string]any); ok {
				blocks = append(blocks, p["skill"])
			}
		}
	}
	for _, b := range blocks {
		skills, _ := b.(map[string]any)
		for name, s := range skills {
			s, _ := s.(map[string]any)
			src, ok := s["source"].(string)
			if !ok || filepath.IsAbs(src) {
				continue
			}
			folder := filepath.Join(dir, filepath.FromSlash(src))
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			md := fmt.Sprintf("---\nname: %s\ndescription: The %s skill\n---\n\nDo the %s thing.\n", name, name, name)
			if err := os.WriteFile(filepath.Join(folder, "SKILL.md"), []byte(md), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSecretRefusals checks that model.nix refuses secret specs that would
// leak the secret or break the template, naming the option.
func TestSecretRefusals(t *testing.T) {
	cases := []struct {
		name   string
		cfg    string // a Nix attrset, the value of programs.agyconf
		option string
		reason string
	}{
		{
			name:   "store path",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "/nix/store/0000-token"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "Nix store",
		},
		{
			name:   "the store itself",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "/nix/store"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "Nix store",
		},
		{
			name:   "relative",
			cfg:    `{ mcpServers.remote = { url = "https://x.example/mcp"; headers.Authorization = { file = "run/secrets/x"; }; }; }`,
			option: "programs.agyconf.mcpServers.remote.headers.Authorization",
			reason: "absolute",
		},
		{
			name:   "quote",
			cfg:    `{ mcpServers.remote = { url = "https://x.example/mcp"; oauth = { clientId = "id"; clientSecret = { file = "/run/secrets/a\"b"; }; }; }; }`,
			option: "programs.agyconf.mcpServers.remote.oauth.clientSecret",
			reason: "must not contain",
		},
		{
			name:   "backslash",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "/run/secrets/a\\b"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "must not contain",
		},
		{
			name:   "template",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "/run/secrets/\${USER}"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "must not contain",
		},
		{
			name:   "percent",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "/run/secrets/100%"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "must not contain",
		},
		{
			name:   "control character",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "/run/secrets/a\nb"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "must not contain",
		},
		{
			name:   "nix path value",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = ./model/secrets.nix; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "not a Nix path",
		},
		{
			name:   "not a string",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = 42; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "got a value of type int",
		},
		{
			name:   "missing file",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { path = "/run/secrets/x"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "unexpected attribute path",
		},
		{
			name:   "dot-dot into the store",
			cfg:    `{ plugins.team.mcpServers.search = { url = "https://x.example/mcp"; headers.X-Key = { file = "/run/../nix/store/0000-key"; }; }; }`,
			option: "programs.agyconf.plugins.team.mcpServers.search.headers.X-Key",
			reason: "clean absolute path",
		},
		{
			name:   "another placeholder",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "%h/secrets/x"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "absolute path, or start with the runtime folder",
		},
		{
			name:   "out of the runtime folder",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "%r/../etc/shadow"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "clean path below the runtime folder",
		},
		{
			name:   "a lone percent after %r",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "%r/100%"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "%% stands for a %",
		},
		{
			name:   "a variable of its own",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "\${HOME}/secrets/x"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "absolute path, or start with the runtime folder",
		},
		{
			name:   "a command in the darwin form",
			cfg:    `{ mcpServers.github = { command = "gh"; env.TOKEN = { file = "$(rm -rf / DARWIN_USER_TEMP_DIR)/x"; }; }; }`,
			option: "programs.agyconf.mcpServers.github.env.TOKEN",
			reason: "absolute path, or start with the runtime folder",
		},
		{
			name:   "quoted name",
			cfg:    `{ mcpServers."my.server" = { command = "x"; env.TOKEN = { file = "token"; }; }; }`,
			option: `programs.agyconf.mcpServers."my.server".env.TOKEN`,
			reason: "absolute",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := evalNix(t, "import ../../nix/model.nix { cfg = "+c.cfg+"; }")
			if err == nil {
				t.Fatalf("model.nix accepted the secret; model:\n%s", out)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.option+":") {
				t.Errorf("the error does not name %s:\n%s", c.option, msg)
			}
			if !strings.Contains(msg, c.reason) {
				t.Errorf("the error does not say %q:\n%s", c.reason, msg)
			}
			if strings.Contains(msg, "/nix/store/") && c.reason == "not a Nix path" {
				t.Errorf("refusing a Nix path must not copy it to the store:\n%s", msg)
			}
		})
	}
}

// TestModelCases checks rules of the mapping the goldens show only in
// passing, on small option sets: what is omitted, how a skill's Nix path
// source is written, how extraConfig merges.
func TestModelCases(t *testing.T) {
	base := map[string]any{"agyconf": map[string]any{"scope": "global", "product": "both", "instance": "home-manager"}}
	with := func(kv map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range kv {
			out[k] = v
		}
		return out
	}
	cases := []struct {
		name string
		args string // model.nix's argument set
		want any
	}{
		{
			name: "defaults written out are omitted",
			args: `{ cfg = { enable = true; product = "both"; agyVersion = null; layout = { }; tools = { };
				mcpServers = { }; hooks = { }; skills = { }; rules = { }; agents = { }; workflows = { }; plugins = { };
				permissions = { allow = [ ]; ask = [ ]; deny = [ ]; }; settings = { }; acp = null; extraConfig = { };
				harnesses.xmsg.enable = false; harnesses.mempalace.enable = false; }; }`,
			want: base,
		},
		{
			name: "false and empty members are omitted, types kept",
			args: `{ cfg.mcpServers.s = { command = "x"; args = [ "a" 1 false ]; env = { }; cwd = null; disabled = false; disabledTools = [ ]; oauth = null; };
				cfg.hooks.h = { enabled = true; stop = [ { type = "command"; command = "c"; prompt = null; model = null; timeout = null; } ]; preToolUse = [ ]; }; }`,
			want: with(map[string]any{
				"mcp_server": map[string]any{"s": map[string]any{"command": "x", "args": []any{"a", json.Number("1"), false}}},
				"hook":       map[string]any{"h": map[string]any{"stop": []any{map[string]any{"command": "c"}}}},
			}),
		},
		{
			name: "instance and extra tools",
			args: `{ cfg.tools = { a = "/bin/a"; b = "/bin/b"; }; tools = { b = "/profile/b"; }; instance = "other"; }`,
			want: map[string]any{
				"agyconf": map[string]any{"scope": "global", "product": "both", "instance": "other"},
				"tools":   map[string]any{"a": "/bin/a", "b": "/profile/b"},
			},
		},
		{
			name: "agyconf block is not a template",
			args: `{ cfg.layout.hooks = "hooks/\${x}.json"; }`,
			want: map[string]any{"agyconf": map[string]any{"scope": "global", "product": "both", "instance": "home-manager",
				"layout": map[string]any{"hooks": "hooks/${x}.json"}}},
		},
		{
			name: "extraConfig merges attrsets and replaces the rest",
			args: `{ cfg = { permissions.allow = [ "read_file" ]; settings = { agentMode = "plan"; statusLine = { a = 1; b = 2; }; };
				extraConfig = { permissions.allow = [ "mcp" ]; settings.statusLine.b = "\${x}"; agyconf.scope = "workspace"; }; }; }`,
			want: map[string]any{
				"agyconf":     map[string]any{"scope": "workspace", "product": "both", "instance": "home-manager"},
				"permissions": map[string]any{"allow": []any{"mcp"}},
				"settings":    map[string]any{"agentMode": "plan", "statusLine": map[string]any{"a": json.Number("1"), "b": "${x}"}},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := evalNix(t, "import ../../nix/model.nix ("+c.args+")")
			if err != nil {
				t.Fatal(err)
			}
			got, err := decode(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("model (-want +got):\n%s", diff)
			}
		})
	}

	// A skill's source given as a Nix path is copied to the store (a skill
	// folder is not a secret); a string stays as written.
	out, err := evalNix(t, `(import ../../nix/model.nix { cfg.skills = { p = { description = "d"; source = ./model; }; s = { source = "skills/s"; }; }; }).skill`)
	if err != nil {
		t.Fatal(err)
	}
	var skills map[string]map[string]string
	if err := json.Unmarshal(out, &skills); err != nil {
		t.Fatal(err)
	}
	if src := skills["p"]["source"]; !regexp.MustCompile(`^/nix/store/[0-9a-z]{32}-model$`).MatchString(src) {
		t.Errorf("a Nix path source became %q, want a store path", src)
	}
	if src := skills["s"]["source"]; src != "skills/s" {
		t.Errorf("a string source became %q, want it unchanged", src)
	}
}

// notExposed lists the input-schema properties no programs.agyconf option
// produces, each deliberately. TestSchemaReachable fails on any other
// property the goldens do not reach, so a property added to the schema
// without a module option fails until it gets one or an entry here.
var notExposed = map[string]string{
	// A matcher group holds either one inline handler or a `handler` list.
	// The module always writes the list (`handlers` in docs/nix.md): one
	// shape whatever the number of handlers, and an array keeps the order
	// through builtins.toJSON.
	"hook.*.pre_tool_use.type":              "inline handler; the module writes handler lists",
	"hook.*.pre_tool_use.command":           "inline handler; the module writes handler lists",
	"hook.*.pre_tool_use.prompt":            "inline handler; the module writes handler lists",
	"hook.*.pre_tool_use.model":             "inline handler; the module writes handler lists",
	"hook.*.pre_tool_use.timeout":           "inline handler; the module writes handler lists",
	"hook.*.post_tool_use.type":             "inline handler; the module writes handler lists",
	"hook.*.post_tool_use.command":          "inline handler; the module writes handler lists",
	"hook.*.post_tool_use.prompt":           "inline handler; the module writes handler lists",
	"hook.*.post_tool_use.model":            "inline handler; the module writes handler lists",
	"hook.*.post_tool_use.timeout":          "inline handler; the module writes handler lists",
	"plugin.*.hook.*.pre_tool_use.type":     "inline handler; the module writes handler lists",
	"plugin.*.hook.*.pre_tool_use.command":  "inline handler; the module writes handler lists",
	"plugin.*.hook.*.pre_tool_use.prompt":   "inline handler; the module writes handler lists",
	"plugin.*.hook.*.pre_tool_use.model":    "inline handler; the module writes handler lists",
	"plugin.*.hook.*.pre_tool_use.timeout":  "inline handler; the module writes handler lists",
	"plugin.*.hook.*.post_tool_use.type":    "inline handler; the module writes handler lists",
	"plugin.*.hook.*.post_tool_use.command": "inline handler; the module writes handler lists",
	"plugin.*.hook.*.post_tool_use.prompt":  "inline handler; the module writes handler lists",
	"plugin.*.hook.*.post_tool_use.model":   "inline handler; the module writes handler lists",
	"plugin.*.hook.*.post_tool_use.timeout": "inline handler; the module writes handler lists",
	// agy reads .antigravityignore at a workspace's root; the module
	// renders global scope, where render refuses the block, so an option
	// would only ever produce an error. A workspace config writes it.
	"ignore":                "workspace scope only; the module renders global scope",
	"ignore.patterns":       "workspace scope only; the module renders global scope",
	"agyconf.layout.ignore": "the ignore block is workspace scope only; the module renders global scope",
	// What import writes to give back a live tree exactly (extra members
	// of rules, workflows, skills and handlers, a skill folder named
	// otherwise, a plugin folder named otherwise, agy's own oauth.enabled,
	// whole files of global rules).
	"context":                                     "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"context.*.body":                              "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.post_invocation.extra":                "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.post_tool_use.extra":                  "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.post_tool_use.handler.extra":          "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.pre_invocation.extra":                 "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.pre_tool_use.extra":                   "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.pre_tool_use.handler.extra":           "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.session_start.extra":                  "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"hook.*.stop.extra":                           "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"mcp_server.*.oauth.enabled":                  "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.post_invocation.extra":       "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.post_tool_use.extra":         "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.post_tool_use.handler.extra": "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.pre_invocation.extra":        "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.pre_tool_use.extra":          "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.pre_tool_use.handler.extra":  "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.session_start.extra":         "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.hook.*.stop.extra":                  "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.folder":                             "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.mcp_server.*.oauth.enabled":         "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.rule.*.extra":                       "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.skill.*.extra":                      "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"plugin.*.skill.*.folder":                     "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"rule.*.extra":                                "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"settings.auth":                               "agy's own sign-in state: import leaves it to agy, and no option should set it",
	"skill.*.extra":                               "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"skill.*.folder":                              "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
	"workflow.*.extra":                            "what import gives back of a live file as it was (issue 30); an option for the module comes with its Nix work",
}

// TestSchemaReachable checks that every property of the input schema's
// blocks appears in some golden model, except those in notExposed: the
// options of docs/nix.md cover the input language.
func TestSchemaReachable(t *testing.T) {
	src, err := schema.Source("agyconf")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(src, &root); err != nil {
		t.Fatal(err)
	}
	props := schemaPaths(root)
	if len(props) < 50 {
		t.Fatalf("found only %d properties in schema/agyconf.schema.json; the walk is broken: %v", len(props), props)
	}

	var reached [][]string
	for _, name := range optionSets(t) {
		_, model := readGolden(t, name)
		modelPaths(model, nil, &reached)
	}
	covered := func(p string) bool {
		want := strings.Split(p, ".")
		for _, got := range reached {
			if matchPath(want, got) {
				return true
			}
		}
		return false
	}

	for _, p := range props {
		_, allowed := notExposed[p]
		switch c := covered(p); {
		case !c && !allowed:
			t.Errorf("schema property %s appears in no golden model: give programs.agyconf an option for it (docs/nix.md, nix/model.nix) and set it in tests/nix/model/full.nix, or add it to notExposed with the reason", p)
		case c && allowed:
			t.Errorf("schema property %s is in notExposed but a golden model writes it: remove it from notExposed", p)
		}
	}
	known := map[string]bool{}
	for _, p := range props {
		known[p] = true
	}
	for p := range notExposed {
		if !known[p] {
			t.Errorf("notExposed lists %s, which schema/agyconf.schema.json does not have", p)
		}
	}
}

// schemaPaths lists the dotted paths of every property the schema
// declares for block bodies, "*" standing for a label (a name key). It
// follows $ref into $defs, anyOf/oneOf/allOf, array items and
// additionalProperties; it skips "//" comments and conditional keywords
// (if/then/else, not, dependentSchemas…), which only restate properties.
func schemaPaths(root map[string]any) []string {
	defs, _ := root["$defs"].(map[string]any)
	seen := map[string]bool{}
	var out []string
	var walk func(node any, path []string, stack map[string]bool)
	walk = func(node any, path []string, stack map[string]bool) {
		n, ok := node.(map[string]any)
		if !ok {
			return // true/false schemas
		}
		if ref, ok := n["$ref"].(string); ok && strings.HasPrefix(ref, "#/$defs/") {
			name := strings.TrimPrefix(ref, "#/$defs/")
			if !stack[name] {
				inner := map[string]bool{name: true}
				for k := range stack {
					inner[k] = true
				}
				walk(defs[name], path, inner)
			}
		}
		if ps, ok := n["properties"].(map[string]any); ok {
			for k, v := range ps {
				if k == "//" {
					continue
				}
				p := append(append([]string(nil), path...), k)
				if s := strings.Join(p, "."); !seen[s] {
					seen[s] = true
					out = append(out, s)
				}
				walk(v, p, stack)
			}
		}
		for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
			if subs, ok := n[kw].([]any); ok {
				for _, s := range subs {
					walk(s, path, stack)
				}
			}
		}
		if items, ok := n["items"]; ok {
			walk(items, path, stack)
		}
		if ap, ok := n["additionalProperties"].(map[string]any); ok {
			walk(ap, append(append([]string(nil), path...), "*"), stack)
		}
	}
	walk(root, nil, map[string]bool{})
	sort.Strings(out)
	return out
}

// modelPaths collects the key path of every member of a model; arrays are
// transparent, as they are in the input language (a list of blocks).
func modelPaths(v any, path []string, out *[][]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			p := append(append([]string(nil), path...), k)
			*out = append(*out, p)
			modelPaths(x, p, out)
		}
	case []any:
		for _, x := range v {
			modelPaths(x, path, out)
		}
	}
}

// matchPath reports whether a model path matches a schema path, "*"
// matching any one key (a label).
func matchPath(schemaPath, modelPath []string) bool {
	if len(schemaPath) != len(modelPath) {
		return false
	}
	for i, s := range schemaPath {
		if s != "*" && s != modelPath[i] {
			return false
		}
	}
	return true
}

// TestPrettyJSON: the module writes its agyconf.json with nix/json.nix,
// byte for byte the form agyconf's own encoder gives (the goldens are
// stored in it), so that every line of it holds one value and a
// diagnostic's line number names it.
func TestPrettyJSON(t *testing.T) {
	for _, name := range optionSets(t) {
		t.Run(name, func(t *testing.T) {
			out, err := evalNix(t, fmt.Sprintf("(import ../../nix/json.nix).pretty (%s)", modelExpr(name)))
			if err != nil {
				t.Fatal(err)
			}
			var text string
			if err := json.Unmarshal(out, &text); err != nil {
				t.Fatal(err)
			}
			want, _ := readGolden(t, name)
			if diff := cmp.Diff(string(want), text); diff != "" {
				t.Errorf("nix/json.nix differs from agyconf's encoder (-golden +nix):\n%s", diff)
			}
		})
	}
}
