package nix_test

// Tests of the Home Manager module (module.nix, nix/module/*.nix): every
// scenario of scenarios.nix evaluated and checked on summary.nix's summary,
//
//   - in CI, with this repository's stand-ins for the module system, Home
//     Manager's options and pkgs (standin/): TestModuleScenarios;
//   - inside the real Home Manager module system with the real nixpkgs lib
//     and stub packages (the nixlab, lab/eval.nix), when NIXLAB_DIR names a
//     set-up lab: TestModuleScenariosLab, which needs AGYCONF_LAB_SOPS_NIX
//     and AGYCONF_LAB_AGENIX, the trees of sops-nix and agenix, whose real
//     Home Manager modules the recipes import there. The lab is a developer
//     tool CI does not install, so without NIXLAB_DIR that test skips.
//
// Scenarios marked renders = true have their generated model rendered by
// agyconf itself, as activation would.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
)

// scenario is what scenarios.nix says must hold for one scenario.
type scenario struct {
	System   string              `json:"system"`
	Error    []string            `json:"error"`
	NotError []string            `json:"errorLacks"`
	Eq       map[string]any      `json:"eq"`
	Contains map[string][]string `json:"contains"`
	Lacks    map[string][]string `json:"lacks"`
	Absent   []string            `json:"absent"`
	Before   [][2]string         `json:"before"`
	Renders  bool                `json:"renders"`
}

// evaluator runs one scenario and returns stdout, stderr and the error.
type evaluator func(t *testing.T, name string) ([]byte, string, error)

func loadScenarios(t *testing.T) map[string]scenario {
	t.Helper()
	out, err := evalNix(t, `builtins.mapAttrs (_: s: removeAttrs s [ "module" "packages" ]) (import ./scenarios.nix)`)
	if err != nil {
		t.Fatalf("reading scenarios.nix: %v", err)
	}
	var s map[string]scenario
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatal(err)
	}
	if len(s) < 30 {
		t.Fatalf("scenarios.nix has %d scenarios; the list is broken", len(s))
	}
	return s
}

func runNix(t *testing.T, args ...string) ([]byte, string, error) {
	t.Helper()
	nix := needNix(t)
	cmd := exec.Command(nix, append([]string{"--eval", "--strict", "--json", "--store", "dummy://"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.Bytes(), stderr.String(), err
}

func standinEvaluator(t *testing.T, name string) ([]byte, string, error) {
	return runNix(t, "standin/eval.nix", "--arg", "scenarios", "./scenarios.nix", "--argstr", "name", name)
}

// TestModuleScenarios evaluates every scenario with the stand-ins.
func TestModuleScenarios(t *testing.T) {
	runScenarios(t, standinEvaluator)
}

// TestModuleScenariosLab evaluates every scenario in the real Home Manager
// module system (the nixlab), when one is set up.
func TestModuleScenariosLab(t *testing.T) {
	lab := os.Getenv("NIXLAB_DIR")
	if lab == "" {
		t.Skip("NIXLAB_DIR is not set: the nixlab (../shared/nixlab, a developer tool) evaluates these scenarios in the real Home Manager; tests/nix/lab/run.sh sets it up")
	}
	sops, agenix := os.Getenv("AGYCONF_LAB_SOPS_NIX"), os.Getenv("AGYCONF_LAB_AGENIX")
	if sops == "" || agenix == "" {
		t.Fatal("NIXLAB_DIR is set: AGYCONF_LAB_SOPS_NIX and AGYCONF_LAB_AGENIX must name the sops-nix and agenix trees (tests/nix/lab/run.sh)")
	}
	for _, d := range []string{filepath.Join(lab, "hm", "modules"), filepath.Join(sops, "modules", "home-manager"), agenix} {
		if _, err := os.Stat(d); err != nil {
			t.Fatal(err)
		}
	}
	runScenarios(t, func(t *testing.T, name string) ([]byte, string, error) {
		return runNix(t, "lab/eval.nix", "--arg", "scenarios", "./scenarios.nix", "--argstr", "name", name,
			"--argstr", "labDir", lab, "--argstr", "sopsNix", sops, "--argstr", "agenix", agenix)
	})
}

func runScenarios(t *testing.T, eval evaluator) {
	scenarios := loadScenarios(t)
	names := make([]string, 0, len(scenarios))
	for n := range scenarios {
		names = append(names, n)
	}
	sort.Strings(names)
	var mu sync.Mutex
	var passed, failed []string
	t.Cleanup(func() {
		t.Logf("%d scenarios: %d PASS, %d FAIL %v", len(names), len(passed), len(failed), failed)
	})
	t.Run("group", func(t *testing.T) {
		for _, name := range names {
			sc := scenarios[name]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				t.Cleanup(func() {
					mu.Lock()
					defer mu.Unlock()
					if t.Failed() {
						failed = append(failed, name)
					} else {
						passed = append(passed, name)
					}
				})
				stdout, stderr, err := eval(t, name)
				if len(sc.Error) > 0 {
					if err == nil {
						t.Fatalf("evaluated; want an error with %q", sc.Error)
					}
					flat := strings.Join(strings.Fields(stderr), " ")
					for _, want := range sc.Error {
						if !strings.Contains(flat, strings.Join(strings.Fields(want), " ")) {
							t.Errorf("the error lacks %q:\n%s", want, stderr)
						}
					}
					for _, not := range sc.NotError {
						if strings.Contains(flat, strings.Join(strings.Fields(not), " ")) {
							t.Errorf("the error has %q:\n%s", not, stderr)
						}
					}
					return
				}
				if err != nil {
					t.Fatalf("evaluation failed: %v\n%s", err, stderr)
				}
				var summary any
				if err := json.Unmarshal(stdout, &summary); err != nil {
					t.Fatal(err)
				}
				checkSummary(t, sc, summary)
				if sc.Renders {
					renderGenerated(t, name, summary)
				}
				if check, ok := scenarioChecks[name]; ok {
					check(t, summary)
				}
			})
		}
	})
}

// at resolves a JSON pointer in a decoded value.
func at(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for _, raw := range strings.Split(ptr, "/")[1:] {
		key := strings.NewReplacer("~1", "/", "~0", "~").Replace(raw)
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return nil, false
			}
		case []any:
			var i int
			if _, err := fmt.Sscanf(key, "%d", &i); err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// text is a value as the contains checks read it: a string as it is,
// anything else as compact JSON.
func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

func checkSummary(t *testing.T, sc scenario, summary any) {
	t.Helper()
	for ptr, want := range sc.Eq {
		got, ok := at(summary, ptr)
		if !ok {
			t.Errorf("%s: nothing there; want %s", ptr, text(want))
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", ptr, diff)
		}
	}
	for ptr, wants := range sc.Contains {
		got, ok := at(summary, ptr)
		if !ok {
			t.Errorf("%s: nothing there; want %q in it", ptr, wants)
			continue
		}
		for _, w := range wants {
			if !strings.Contains(text(got), w) {
				t.Errorf("%s lacks %q:\n%s", ptr, w, text(got))
			}
		}
	}
	for ptr, nots := range sc.Lacks {
		got, _ := at(summary, ptr)
		for _, n := range nots {
			if strings.Contains(text(got), n) {
				t.Errorf("%s has %q:\n%s", ptr, n, text(got))
			}
		}
	}
	for _, ptr := range sc.Absent {
		if got, ok := at(summary, ptr); ok && got != nil {
			t.Errorf("%s: want nothing there, got %s", ptr, text(got))
		}
	}
	order, _ := at(summary, "/order")
	steps, _ := order.([]any)
	index := func(name string) int {
		for i, s := range steps {
			if s == name {
				return i
			}
		}
		return -1
	}
	for _, pair := range sc.Before {
		a, b := index(pair[0]), index(pair[1])
		if a < 0 || b < 0 || a >= b {
			t.Errorf("activation: want %s before %s, order %v", pair[0], pair[1], steps)
		}
	}
}

// generatedDir writes the scenario's generated config folder, as the
// module's configDir holds it: agyconf.json and option-paths.
func generatedDir(t *testing.T, summary any) string {
	t.Helper()
	js, _ := at(summary, "/generated/json")
	paths, _ := at(summary, "/generated/paths")
	s, ok := js.(string)
	if !ok {
		t.Fatal("the scenario generated no model")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agyconf.json"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{"agyconf.json": paths})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "option-paths"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// agyconfMu serializes cli.Main: urfave/cli's help and version flags are
// package variables every run applies.
var agyconfMu sync.Mutex

func runAgyconf(args ...string) (int, string, string) {
	agyconfMu.Lock()
	defer agyconfMu.Unlock()
	var stdout, stderr bytes.Buffer
	code := cli.Main(append([]string{"agyconf"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// renderGenerated validates the generated folder as the build does (the
// config alone: --offline) and renders it as activation does (secrets not
// there yet are pending).
func renderGenerated(t *testing.T, name string, summary any) {
	t.Helper()
	dir := generatedDir(t, summary)
	if code, _, stderr := runAgyconf("validate", "--offline", "--config", dir, "--option-paths", filepath.Join(dir, "option-paths")); code != 0 {
		t.Fatalf("agyconf validate of the generated config: exit %d\n%s", code, stderr)
	}
	root := t.TempDir()
	code, stdout, stderr := runAgyconf("render", "--defer-secrets", "--config", dir, "--root", root)
	if code != 0 {
		t.Fatalf("agyconf render --defer-secrets: exit %d\n%s%s", code, stdout, stderr)
	}
	renderedMu.Lock()
	rendered[name] = renderRun{root, stderr}
	renderedMu.Unlock()
}

// renderRun is where a scenario rendered, and what render said.
type renderRun struct{ root, stderr string }

// rendered holds each rendering scenario's root, for scenarioChecks; every
// write happens before the checks of the same scenario read it.
var (
	renderedMu sync.Mutex
	rendered   = map[string]renderRun{}
)

func readRendered(t *testing.T, name, rel string) string {
	t.Helper()
	renderedMu.Lock()
	root := rendered[name].root
	renderedMu.Unlock()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("%s rendered no %s: %v", name, rel, err)
	}
	return string(b)
}

// scenarioChecks are what a scenario must show beyond its summary.
var scenarioChecks = map[string]func(t *testing.T, summary any){
	// xmsg's one line delivers the four things xmsg lists: the MCP server,
	// the skill, the registration hooks in hooks.json, and --agy-exe (the
	// service's command line, in the summary).
	"xmsg-one-liner": func(t *testing.T, _ any) {
		var mcp struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(readRendered(t, "xmsg-one-liner", ".gemini/config/mcp_config.json")), &mcp); err != nil {
			t.Fatal(err)
		}
		if s := mcp.MCPServers["xmsg"]; s.Command != "/home/demo/.nix-profile/bin/xmsg" || strings.Join(s.Args, " ") != "mcp" {
			t.Errorf("mcp_config.json's xmsg server: %+v", s)
		}
		if md := readRendered(t, "xmsg-one-liner", ".gemini/config/skills/xmsg/SKILL.md"); !strings.Contains(md, "name: xmsg") {
			t.Errorf("the xmsg skill:\n%s", md)
		}
		hooks := readRendered(t, "xmsg-one-liner", ".gemini/config/hooks.json")
		if !strings.Contains(hooks, `"xmsg-register"`) || !strings.Contains(hooks, "/home/demo/.nix-profile/bin/xmsg register agy --hook") {
			t.Errorf("hooks.json lacks xmsg's registration hook:\n%s", hooks)
		}
		// The hooks, like the service, use xmsg's default endpoint.
		if strings.Contains(hooks, "--sock") || strings.Contains(hooks, "--url") {
			t.Errorf("the registration hooks name an endpoint the service does not:\n%s", hooks)
		}
	},
	// The runtime placeholders reach agyconf as written (and are expanded
	// only when read: internal/cli's secret_runtime testscript): secrets
	// not decrypted yet wait, named so.
	"secret-path-formats": func(t *testing.T, summary any) {
		checkOffline(t, summary)
		renderedMu.Lock()
		stderr := rendered["secret-path-formats"].stderr
		renderedMu.Unlock()
		for _, want := range []string{
			"pending .gemini/config/mcp_config.json mcpServers.sops: waits for the secret %r/secrets/100%%-token",
			"pending .gemini/config/mcp_config.json mcpServers.agenix: waits for the secret ${XDG_RUNTIME_DIR}/agenix/header",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("render does not say %q:\n%s", want, stderr)
			}
		}
	},
	// Build-time validation names the options: the module's own and
	// extraConfig's.
	"option-paths": func(t *testing.T, summary any) {
		dir := generatedDir(t, summary)
		code, _, stderr := runAgyconf("validate", "--offline", "--config", dir, "--option-paths", filepath.Join(dir, "option-paths"))
		if code != 1 {
			t.Fatalf("validate: exit %d, want 1\n%s", code, stderr)
		}
		for _, want := range []string{
			"Error: programs.agyconf.mcpServers.github.url: Conflicting arguments",
			"Error: programs.agyconf.extraConfig.mcp_server.raw.args[1]: ",
			"agyconf.json line ",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("validate's messages lack %q:\n%s", want, stderr)
			}
		}
		// One value a line: the snippet quotes only the line at fault.
		if strings.Count(stderr, `"agyconf": {`) > 0 {
			t.Errorf("a message quotes the whole model:\n%s", stderr)
		}
	},
	"recipe-sops-nix": checkOffline,
	"recipe-agenix":   checkOffline,
	// The state the disabled module looks for is agyconf's own.
	"disabled-cleans": func(t *testing.T, summary any) {
		data, _ := at(summary, "/activation/agyconfClean/data")
		want := layout.StateDir(model.ScopeGlobal) + "/home-manager.json"
		if !strings.Contains(text(data), " "+want) {
			t.Errorf("agyconfClean does not look for %s:\n%s", want, text(data))
		}
	},
}

// The build's check reads nothing of the machine: the same config, its
// inline secrets missing here, is valid and says nothing.
func checkOffline(t *testing.T, summary any) {
	dir := generatedDir(t, summary)
	code, stdout, stderr := runAgyconf("validate", "--offline", "--config", dir, "--option-paths", filepath.Join(dir, "option-paths"))
	if code != 0 || stderr != "" || !strings.Contains(stdout, ": valid (") {
		t.Errorf("validate --offline: exit %d, want 0 and nothing on stderr\n%s%s", code, stdout, stderr)
	}
}

// TestModuleSize holds the module's Nix (every file of it, the
// builtins-only model, option-paths and JSON writer included) to 1,500
// lines, the size issue 32 set against Home Manager's own modules of AI
// tools (354–696 lines each).
func TestModuleSize(t *testing.T) {
	files, err := filepath.Glob("../../nix/module/*.nix")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../../module.nix", "../../nix/model.nix", "../../nix/option-paths.nix", "../../nix/json.nix")
	total := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(b, []byte("\n"))
	}
	if len(files) < 9 || total > 1500 {
		t.Errorf("the module's Nix is %d lines in %d files, want at most 1,500", total, len(files))
	}
}

// TestRecipesQuoted: docs/nix.md quotes the recipes scenarios.nix
// evaluates, byte for byte, so the documented ones are the tested ones.
func TestRecipesQuoted(t *testing.T) {
	doc, err := os.ReadFile("../../docs/nix.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"sops-nix.nix", "agenix.nix"} {
		src, err := os.ReadFile(filepath.Join("../../examples/nix-module/recipes", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(doc, []byte("```nix\n"+string(src)+"```\n")) {
			t.Errorf("docs/nix.md does not quote examples/nix-module/recipes/%s as a nix code block, byte for byte", f)
		}
	}
}
