package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/render"
)

// fakeAgy answers from a table, keyed by argv after the program, and
// records every call.
type fakeAgy struct {
	answers map[string]Run
	calls   []string
	envs    [][]string
	dirs    []string
}

func (f *fakeAgy) Run(_ context.Context, argv []string, dir string, env []string, _ time.Duration) Run {
	key := strings.Join(argv[1:], " ")
	f.calls = append(f.calls, key)
	f.envs, f.dirs = append(f.envs, env), append(f.dirs, dir)
	if r, ok := f.answers[key]; ok {
		return r
	}
	return Run{Code: 1, Stderr: []byte("fake agy: no answer for " + key)}
}

func answer(s string) Run { return Run{Stdout: []byte(s)} }

// plan loads a config through the engine, as the CLI does.
func plan(t *testing.T, hcl string) (*render.Plan, agy.Scope) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agyconf.hcl"), []byte(hcl), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := engine.Load(dir)
	if !cfg.OK() {
		t.Fatalf("config: %v", cfg.Diags)
	}
	return cfg.Plan, cfg.Model.Agyconf.Scope
}

const globalConfig = `
agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "github" {
  command = "/bin/github-mcp"
}
mcp_server "off" {
  command  = "/bin/off-mcp"
  disabled = true
}
hook "audit" {
  stop {
    command = "/bin/audit"
  }
}
skill "notes" {
  description = "Take notes"
  body        = "Write them down."
}
agent "reviewer" {
  description = "Reviews"
  body        = "Review."
}
permissions {
  allow = ["command(git *)"]
}
`

func hooksAnswer(entries ...string) Run {
	return answer(`{"conversation_id":"","status":"SUCCESS","response":"","num_turns":0,"usage":{"input_tokens":0},"command":{"name":"hooks","data":{"hooks":[` + strings.Join(entries, ",") + `]}}}`)
}

func hookEntry(name, source string, enabled bool, events ...string) string {
	var actions []string
	for _, ev := range events {
		actions = append(actions, fmt.Sprintf(`{"event":%q,"type":"command","command":"x"}`, ev))
	}
	return fmt.Sprintf(`{"name":%q,"enabled":%v,"source":%q,"actions":[%s]}`, name, enabled, source, strings.Join(actions, ","))
}

func loadedAnswers(root, version string) map[string]Run {
	return map[string]Run{
		"--version":                            answer(version + "\n"),
		"-p /hooks --output-format json":       hooksAnswer(hookEntry("audit", root+"/.gemini/config/hooks.json", true, "Stop")),
		"mcp list":                             answer("NAME    TYPE   STATUS    COMMAND/URL\ngithub  stdio  enabled   /bin/github-mcp\noff     stdio  disabled  /bin/off-mcp\n"),
		"-p /skills --output-format json":      answer(`{"num_turns":0,"command":{"name":"skills","data":{"skills":[{"name":"notes","path":"` + root + `/.gemini/antigravity-cli/skills/notes/SKILL.md","builtin":false}]}}}`),
		"-p /permissions --output-format json": answer(`{"num_turns":0,"command":{"name":"permissions","data":{"permissions":[{"scope":"project"},{"scope":"shared"},{"scope":"global","allow":["command(git *)"]}]}}}`),
	}
}

func diagnose(t *testing.T, hcl string, answers map[string]Run, root string) (*Result, *fakeAgy) {
	t.Helper()
	p, scope := plan(t, hcl)
	fake := &fakeAgy{answers: answers}
	res := Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Env: []string{"HOME=/elsewhere", "PATH=/bin"}, Home: root, Run: fake})
	return res, fake
}

func statuses(res *Result) map[string]string {
	out := map[string]string{}
	for _, it := range res.Items {
		out[string(it.Kind)+" "+it.Name] = it.Status
	}
	return out
}

// TestDiagnoseAllLoaded: every report answered as loaded is exit 0, the
// subagent not checked, HOME the root, and only read-only reports run.
func TestDiagnoseAllLoaded(t *testing.T) {
	root := t.TempDir()
	res, fake := diagnose(t, globalConfig, loadedAnswers(root, "1.3.3"), root)
	want := map[string]string{
		"hook audit": Loaded, "mcp-server github": Loaded, "mcp-server off": Loaded, "skill notes": Loaded,
		"permission command(git *)": Loaded, "subagent reviewer": NotChecked,
	}
	if got := statuses(res); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("statuses = %v\nwant %v", got, want)
	}
	if res.Code() != ExitLoaded {
		t.Errorf("Code = %d", res.Code())
	}
	if len(fake.calls) != 5 {
		t.Errorf("calls = %q", fake.calls)
	}
	for i, call := range fake.calls {
		if !Allowed(strings.Fields(call)) {
			t.Errorf("call %q is not an allowed report", call)
		}
		if env := strings.Join(fake.envs[i], " "); !strings.Contains(env, "HOME="+root) || strings.Contains(env, "/elsewhere") || !strings.Contains(env, "NO_COLOR=1") {
			t.Errorf("call %q ran with %s", call, env)
		}
		if fake.dirs[i] != root {
			t.Errorf("call %q ran in %s", call, fake.dirs[i])
		}
	}
}

// TestDiagnoseNotLoaded: the hook and the server agy does not list, the
// server it lists disabled, the rule it does not have, the skill it loads
// from elsewhere: each named, exit 1.
func TestDiagnoseNotLoaded(t *testing.T) {
	root := t.TempDir()
	a := loadedAnswers(root, "1.3.3")
	a["-p /hooks --output-format json"] = hooksAnswer(hookEntry("audit", "/other/hooks.json", true, "Stop"))
	a["mcp list"] = answer("NAME  TYPE   STATUS    COMMAND/URL\noff   stdio  enabled   /bin/off-mcp\n")
	a["-p /skills --output-format json"] = answer(`{"command":{"name":"skills","data":{"skills":[{"name":"notes","path":"/elsewhere/notes/SKILL.md"}]}}}`)
	a["-p /permissions --output-format json"] = answer(`{"command":{"name":"permissions","data":{"permissions":[{"scope":"global","allow":["command(git)"]}]}}}`)
	res, _ := diagnose(t, globalConfig, a, root)
	for key, want := range map[string]string{
		"hook audit":                "agy lists a hook of this name only from /other/hooks.json",
		"mcp-server github":         "agy mcp list does not list it",
		"mcp-server off":            "agy lists it enabled (type stdio); the config disables it",
		"skill notes":               "agy loads a skill of this name from /elsewhere/notes/SKILL.md instead",
		"permission command(git *)": `agy lists no allow rule "command(git *)" in any scope`,
	} {
		found := false
		for _, it := range res.Items {
			if string(it.Kind)+" "+it.Name == key {
				found = true
				if it.Status != NotLoaded || it.Detail != want {
					t.Errorf("%s: %s: %s; want not loaded: %s", key, it.Status, it.Detail, want)
				}
				if len(it.Causes) == 0 {
					t.Errorf("%s: no causes", key)
				}
			}
		}
		if !found {
			t.Errorf("no item %s", key)
		}
	}
	if res.Code() != ExitNotLoaded {
		t.Errorf("Code = %d", res.Code())
	}
}

// TestDiagnoseModelTurnStopsAsking: once an answer came from a model
// turn, no further print-mode report is asked; the answer is exit 2.
func TestDiagnoseModelTurnStopsAsking(t *testing.T) {
	root := t.TempDir()
	a := loadedAnswers(root, "1.3.3")
	a["-p /hooks --output-format json"] = answer(string(recordedFile(t, "model-turn-1.1.26.json")))
	res, fake := diagnose(t, globalConfig, a, root)
	if got := strings.Join(fake.calls, "; "); got != "--version; -p /hooks --output-format json; mcp list" {
		t.Errorf("calls: %s", got)
	}
	if res.Code() != ExitCannotAsk {
		t.Errorf("Code = %d", res.Code())
	}
	for _, rr := range res.Reports {
		if rr.ID == agy.ReportSkills && (rr.Status != NotAsked || !strings.Contains(rr.Why, "model turn")) {
			t.Errorf("/skills: %+v", rr)
		}
	}
}

func recordedFile(t *testing.T, name string) []byte { return recorded(t, name) }

// TestDiagnoseSlashNameTaken: a skill named like a report is never sent
// as a prompt.
func TestDiagnoseSlashNameTaken(t *testing.T) {
	root := t.TempDir()
	cfg := globalConfig + `
skill "hooks" {
  description = "Hooks"
  body        = "About hooks."
}
`
	res, fake := diagnose(t, cfg, loadedAnswers(root, "1.3.3"), root)
	for _, c := range fake.calls {
		if strings.Contains(c, "/hooks") {
			t.Errorf("asked %s although a skill is named hooks", c)
		}
	}
	if s := statuses(res)["hook audit"]; s != NotChecked {
		t.Errorf("hook audit: %s", s)
	}
}

// TestDiagnoseVersions: a build older than every report needed is exit 2
// before anything else is asked; one that answers some of them is asked
// those only.
func TestDiagnoseVersions(t *testing.T) {
	root := t.TempDir()
	res, fake := diagnose(t, globalConfig, loadedAnswers(root, "1.1.11"), root)
	if res.Code() != ExitCannotAsk || res.Problem == nil || !strings.Contains(res.Problem.What, "too old") || len(fake.calls) != 1 {
		t.Errorf("1.1.11: code %d, problem %+v, calls %q", res.Code(), res.Problem, fake.calls)
	}
	res, fake = diagnose(t, globalConfig, loadedAnswers(root, "1.1.13"), root)
	if got := strings.Join(fake.calls, "; "); got != "--version; -p /hooks --output-format json; -p /permissions --output-format json" {
		t.Errorf("1.1.13 asked: %s", got)
	}
	if s := statuses(res); s["mcp-server github"] != NotChecked || s["skill notes"] != NotChecked || s["hook audit"] != Loaded || res.Code() != ExitLoaded {
		t.Errorf("1.1.13: %v, code %d", s, res.Code())
	}
	serversOnly := "agyconf {\n  scope = \"global\"\n}\nmcp_server \"x\" {\n  command = \"/bin/x\"\n}\n"
	res, _ = diagnose(t, serversOnly, loadedAnswers(root, "1.1.15"), root)
	if res.Code() != ExitCannotAsk || res.Problem == nil {
		t.Errorf("servers only on 1.1.15: code %d, %+v", res.Code(), res.Problem)
	}
}

// TestDiagnoseCauses: a hook missing is explained by agy's log, by
// validate's rules on the live file, by an event the build predates.
func TestDiagnoseCauses(t *testing.T) {
	root := t.TempDir()
	hooksFile := filepath.Join(root, ".gemini", "config", "hooks.json")
	if err := os.MkdirAll(filepath.Dir(hooksFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hooksFile, []byte(`{"audit": {"enabled": true, "SessionStart": [{"type": "command", "command": "/bin/a", "timeout": 30}],}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(root, ".gemini", "antigravity-cli", "cli.log")
	if err := os.MkdirAll(filepath.Dir(logFile), 0o755); err != nil {
		t.Fatal(err)
	}
	// What an earlier session logged is not this run's.
	if err := os.WriteFile(logFile, []byte("W hooks_manager.go:33] failed to parse hooks.json at /old/hooks.json: old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := `
agyconf {
  scope       = "global"
  agy_version = "1.1.25"
}
hook "audit" {
  session_start {
    command = "/bin/a"
  }
}
`
	a := map[string]Run{"--version": answer("1.1.20")}
	p, scope := plan(t, cfg)
	fake := &fakeAgy{answers: a}
	runs := 0
	res := Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Home: root,
		Run: runnerFunc(func(ctx context.Context, argv []string, dir string, env []string, to time.Duration) Run {
			runs++
			if argv[1] == "-p" {
				f, err := os.OpenFile(logFile, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(f, "I1201 10:00:00.000000 1 hooks_manager.go:33] failed to parse hooks.json at %s: invalid character '}'\nI1201 10:00:00.000001 1 hooks_manager.go:53] loaded 0 named hooks from 1 hooks.json file(s)\n", hooksFile)
				f.Close()
				return hooksAnswer()
			}
			return fake.Run(ctx, argv, dir, env, to)
		})})
	if runs != 2 || res.Code() != ExitNotLoaded {
		t.Fatalf("runs %d, code %d", runs, res.Code())
	}
	it := res.Items[0]
	causes := strings.Join(it.Causes, "\n")
	for _, want := range []string{
		"agy's log: failed to parse " + hooksFile + ": invalid character '}'",
		"agy 1.1.20 predates the event SessionStart (agy 1.1.25)",
		"validate: .gemini/config/hooks.json:1:",
	} {
		if !strings.Contains(causes, want) {
			t.Errorf("causes lack %q:\n%s", want, causes)
		}
	}
	if strings.Contains(causes, "/old/hooks.json") || strings.Contains(strings.Join(res.Log.Lines, "\n"), "/old/") {
		t.Errorf("an earlier session's log line taken for this run's:\n%s\n%v", causes, res.Log.Lines)
	}
	if want := "loaded 0 named hooks from 1 hooks.json file(s)"; !strings.Contains(strings.Join(res.Log.Lines, "\n"), want) {
		t.Errorf("log lines %v lack %q", res.Log.Lines, want)
	}
}

type runnerFunc func(ctx context.Context, argv []string, dir string, env []string, to time.Duration) Run

func (f runnerFunc) Run(ctx context.Context, argv []string, dir string, env []string, to time.Duration) Run {
	return f(ctx, argv, dir, env, to)
}

// TestDiagnoseWorkspace: in a workspace agy is asked with --add-dir and
// the absolute root, HOME stays the user's, servers are not checked, and
// a workspace not among trustedWorkspaces is named as the cause.
func TestDiagnoseWorkspace(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	cfg := `
agyconf {
  scope = "workspace"
}
hook "lint" {
  stop {
    command = "./lint.sh"
  }
}
mcp_server "local" {
  command = "/bin/local"
}
`
	p, scope := plan(t, cfg)
	fake := &fakeAgy{answers: map[string]Run{
		"--version": answer("1.3.3"),
		"-p /hooks --output-format json --add-dir " + root: hooksAnswer(),
	}}
	settings := filepath.Join(home, ".gemini", "antigravity-cli", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"trustedWorkspaces": ["/somewhere/else"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	res := Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Env: []string{"HOME=" + home}, Home: home, Run: fake})
	if s := statuses(res); s["hook lint"] != NotLoaded || s["mcp-server local"] != NotChecked {
		t.Errorf("statuses %v", s)
	}
	if !strings.Contains(strings.Join(res.Items[0].Causes, "\n"), "is not trusted") {
		t.Errorf("causes: %q", res.Items[0].Causes)
	}
	if env := strings.Join(fake.envs[1], " "); !strings.Contains(env, "HOME="+home) {
		t.Errorf("env %s", env)
	}
	// Trusted (a folder above the root is listed), and listed: loaded.
	if err := os.WriteFile(settings, []byte(`{"trustedWorkspaces": ["`+filepath.Dir(root)+`"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	fake.answers["-p /hooks --output-format json --add-dir "+root] = hooksAnswer(hookEntry("lint", root+"/.agents/hooks.json", true, "Stop"))
	res = Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Home: home, Run: fake})
	if s := statuses(res); s["hook lint"] != Loaded || res.Code() != ExitLoaded || len(res.Notes) != 0 {
		t.Errorf("trusted: %v, code %d, notes %q", s, res.Code(), res.Notes)
	}
}

// TestDiagnosePluginHooksBefore123: a build that does not list plugins'
// hooks does not get them called not loaded.
func TestDiagnosePluginHooksBefore123(t *testing.T) {
	root := t.TempDir()
	cfg := `
agyconf {
  scope = "global"
}
plugin "tools" {
  hook "guard" {
    stop {
      command = "/bin/guard"
    }
  }
}
`
	res, _ := diagnose(t, cfg, map[string]Run{"--version": answer("1.2.2"), "-p /hooks --output-format json": hooksAnswer()}, root)
	if it := res.Items[0]; it.Status != NotChecked || !strings.Contains(it.Detail, "only from 1.2.3") || it.Plugin != "tools" {
		t.Errorf("%+v", it)
	}
	res, _ = diagnose(t, cfg, map[string]Run{"--version": answer("1.2.3"), "-p /hooks --output-format json": hooksAnswer()}, root)
	if it := res.Items[0]; it.Status != NotLoaded {
		t.Errorf("1.2.3: %+v", it)
	}
}

// TestAllowed: only the reports of agy's table, with an absolute
// --add-dir at most.
func TestAllowed(t *testing.T) {
	for args, want := range map[string]bool{
		"--version":                      true,
		"mcp list":                       true,
		"-p /hooks --output-format json": true,
		"-p /hooks --output-format json --add-dir /w": true,
		"-p /skills --output-format json":             true,
		"-p /permissions --output-format json":        true,
		"-p /hooks --output-format json --add-dir w":  false,
		"agents --output-format json":                 false,
		"-p /hooks":                                   false,
		"-p hello --output-format json":               false,
		"-p /clear --output-format json":              false,
		"mcp add x -- /bin/x":                         false,
		"mcp list --add-dir /w":                       false,
		"":                                            false,
	} {
		if got := Allowed(strings.Fields(args)); got != want {
			t.Errorf("Allowed(%q) = %v", args, got)
		}
	}
}

// TestExecRunnerTimeout: a run past its time is ended with its whole
// process group, a child that would outlive it included, and promptly.
func TestExecRunnerTimeout(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	script := filepath.Join(dir, "agy")
	body := "#!/bin/sh\nsleep 60 &\necho $! > " + pidFile + "\nwait\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := ExecRunner{}.Run(context.Background(), []string{script}, dir, os.Environ(), 300*time.Millisecond)
	if !r.TimedOut || time.Since(start) > 10*time.Second {
		t.Fatalf("run: %+v after %s", r, time.Since(start))
	}
	gone(t, pidFile)
	// A child left behind by an agy that failed goes with it too.
	failing := filepath.Join(dir, "agy-fails")
	body = "#!/bin/sh\nsleep 60 >/dev/null 2>&1 &\necho $! > " + pidFile + "\nexit 3\n"
	if err := os.WriteFile(failing, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if r := (ExecRunner{}).Run(context.Background(), []string{failing}, dir, os.Environ(), time.Minute); r.Code != 3 {
		t.Fatalf("run: %+v", r)
	}
	gone(t, pidFile)
	// An answer and an exit code come back as they are.
	r = ExecRunner{}.Run(context.Background(), []string{"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, dir, os.Environ(), 5*time.Second)
	if r.TimedOut || r.Code != 3 || string(r.Stdout) != "out\n" || string(r.Stderr) != "err\n" {
		t.Errorf("run: %+v", r)
	}
}

// gone waits until the process whose pid is in pidFile has ended.
func gone(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the child %d outlived the run: %v", pid, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestExecRunnerFlood: agy printing without end is ended once its answer
// passes MaxAnswer, and said to have overflowed: not left to run until the
// time limit (reported as waiting for a sign-in), its output drained.
func TestExecRunnerFlood(t *testing.T) {
	dir := t.TempDir()
	r := ExecRunner{}.Run(context.Background(), []string{"/bin/sh", "-c", "yes '{\"status\":\"SUCCESS\"'"}, dir, os.Environ(), 30*time.Second)
	if r.TimedOut || !r.Overflow || len(r.Stdout) != MaxAnswer {
		t.Fatalf("run: timed out %v, overflow %v, %d bytes kept", r.TimedOut, r.Overflow, len(r.Stdout))
	}
	// Doctor says it answered too much, not that it gave no answer.
	d := &diagnosis{o: Options{Agy: "agy", Run: fixedRun{r}, Timeout: time.Minute}, asked: map[agy.ReportID]*ReportRun{}}
	_, rr := d.ask(context.Background(), agy.ReportOf(agy.ReportHooks))
	if rr.Status != Failed || !strings.Contains(rr.Why, "answered more than") {
		t.Errorf("report: %+v", rr)
	}
}

// fixedRun is a Runner that returns one run.
type fixedRun struct{ r Run }

func (f fixedRun) Run(context.Context, []string, string, []string, time.Duration) Run { return f.r }

// TestDiagnoseEvents: a hook agy lists without some of its events is not
// loaded, the event a build predates named as the cause; an answer that
// lists no handlers at all (builds differ) is not held against the hook.
func TestDiagnoseEvents(t *testing.T) {
	root := t.TempDir()
	cfg := `
agyconf {
  scope       = "global"
  agy_version = "1.1.25"
}
hook "audit" {
  session_start {
    command = "/bin/a"
  }
  stop {
    command = "/bin/a"
  }
}
`
	file := root + "/.gemini/config/hooks.json"
	res, _ := diagnose(t, cfg, map[string]Run{"--version": answer("1.1.20"), "-p /hooks --output-format json": hooksAnswer(hookEntry("audit", file, true, "stop"))}, root)
	it := res.Items[0]
	if it.Status != NotLoaded || it.Detail != "agy lists it without its SessionStart handlers" || !strings.Contains(strings.Join(it.Causes, "\n"), "agy 1.1.20 predates the event SessionStart (agy 1.1.25)") {
		t.Errorf("%+v", it)
	}
	res, _ = diagnose(t, cfg, map[string]Run{"--version": answer("1.3.3"), "-p /hooks --output-format json": hooksAnswer(`{"name":"audit","enabled":true,"source":"` + file + `"}`)}, root)
	if it := res.Items[0]; it.Status != Loaded {
		t.Errorf("without actions: %+v", it)
	}
}

// TestDiagnosePlugins: a plugin's server is found by its namespaced name;
// a plugin's hook agy could not parse, or a plugin disabled in the live
// config.json, is named as the cause; a plugin the config disables is not
// checked.
func TestDiagnosePlugins(t *testing.T) {
	root := t.TempDir()
	cfg := `
agyconf {
  scope = "global"
}
plugin "tools" {
  mcp_server "tracker" {
    command = "/bin/tracker"
  }
  hook "guard" {
    stop {
      command = "/bin/guard"
    }
  }
}
plugin "off" {
  enabled = false
  hook "quiet" {
    stop {
      command = "/bin/quiet"
    }
  }
}
`
	logFile := filepath.Join(root, ".gemini", "antigravity-cli", "cli.log")
	cfgFile := filepath.Join(root, ".gemini", "config", "config.json")
	for _, f := range []string{logFile, cfgFile} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(cfgFile, []byte(`{"plugins": {"tools": {"enabled": false}, "off": {"enabled": false}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p, scope := plan(t, cfg)
	res := Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Home: root,
		Run: runnerFunc(func(_ context.Context, argv []string, _ string, _ []string, _ time.Duration) Run {
			switch strings.Join(argv[1:], " ") {
			case "--version":
				return answer("1.3.0")
			case "mcp list":
				return answer("NAME           TYPE   STATUS   COMMAND/URL\ntools_tracker  stdio  enabled  /bin/tracker\n")
			case "-p /hooks --output-format json":
				if err := os.WriteFile(logFile, []byte("W1201 10:00:00.000000 1 hooks.go:73] Failed to parse hooks for plugin tools:\n  invalid hook \"guard\": bad\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return hooksAnswer()
			}
			return Run{Code: 1}
		})})
	byName := itemsByName(res)
	if it := byName["tracker"]; it.Status != Loaded || it.Plugin != "tools" {
		t.Errorf("tracker: %+v", it)
	}
	causes := strings.Join(byName["guard"].Causes, "\n")
	for _, want := range []string{
		`agy's log: failed to parse the hooks of plugin tools: invalid hook "guard": bad`,
		"the plugin tools is disabled in " + cfgFile + ": agy plugin enable tools",
	} {
		if !strings.Contains(causes, want) {
			t.Errorf("guard's causes lack %q:\n%s", want, causes)
		}
	}
	if it := byName["quiet"]; it.Status != NotChecked || !strings.Contains(it.Detail, "the config disables the plugin off") {
		t.Errorf("quiet: %+v", it)
	}
}

// TestDiagnoseLogWithoutSize: a log that did not exist before doctor
// asked is read whole, and only its last loading counts.
func TestDiagnoseLogWithoutSize(t *testing.T) {
	root := t.TempDir()
	logFile := filepath.Join(root, ".gemini", "antigravity-cli", "cli.log")
	cfg := "agyconf {\n  scope = \"global\"\n}\nhook \"audit\" {\n  stop {\n    command = \"/bin/a\"\n  }\n}\n"
	p, scope := plan(t, cfg)
	res := Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Home: root,
		Run: runnerFunc(func(_ context.Context, argv []string, _ string, _ []string, _ time.Duration) Run {
			if argv[1] == "--version" {
				return answer("1.3.3")
			}
			if err := os.MkdirAll(filepath.Dir(logFile), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(logFile, []byte("hooks_manager.go:33] failed to parse hooks.json at /old: old\nhooks_manager.go:53] loaded 0 named hooks from 1 hooks.json file(s)\nhooks_manager.go:53] loaded 1 named hooks from 1 hooks.json file(s)\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return hooksAnswer()
		})})
	if got := strings.Join(res.Log.Lines, "|"); got != "loaded 1 named hooks from 1 hooks.json file(s)" {
		t.Errorf("log lines: %s", got)
	}
}

// TestDiagnoseBridged: a remote server whose header holds a secret is
// rendered as agyhook-bridge, which agy lists as a local server: loaded
// when agy lists it as stdio, said so; not loaded when agy still lists the
// remote server an earlier render (or secret_mode "inline") wrote.
func TestDiagnoseBridged(t *testing.T) {
	root := t.TempDir()
	const cfg = `
agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "linear" {
  server_url = "https://mcp.linear.app/mcp"
  headers    = { Authorization = "Bearer ${secret_file("/run/secrets/linear")}" }
}
`
	for _, tc := range []struct {
		listed, status, detail string
	}{
		{"linear  stdio  enabled  /opt/bin/agyhook-bridge --header-file Authorization=/run/secrets/linear -- https://mcp.linear.app/mcp", Loaded, "through agyhook-bridge"},
		{"linear  http   enabled  https://mcp.linear.app/mcp", NotLoaded, "agy lists it as type http; the config renders it through agyhook-bridge"},
	} {
		a := map[string]Run{
			"--version": answer("1.3.3\n"),
			"mcp list":  answer("NAME    TYPE   STATUS   COMMAND/URL\n" + tc.listed + "\n"),
		}
		res, _ := diagnose(t, cfg, a, root)
		var got *Item
		for i := range res.Items {
			if res.Items[i].Kind == KindServer && res.Items[i].Name == "linear" {
				got = &res.Items[i]
			}
		}
		if got == nil {
			t.Fatalf("no item for the server: %+v", res.Items)
		}
		if got.Status != tc.status || !strings.Contains(got.Detail, tc.detail) {
			t.Errorf("listed %q: %s %q, want %s containing %q", tc.listed, got.Status, got.Detail, tc.status, tc.detail)
		}
	}
}

// TestDiagnosePluginHooksFiles: a plugin's hook is written to each file
// builds read a plugin's hooks from (agy.PluginHooks), and is one item:
// loaded when agy lists it from either, said which when not the root one,
// and said to run twice, with the fix, when agy lists it from both.
func TestDiagnosePluginHooksFiles(t *testing.T) {
	root := t.TempDir()
	const cfg = `
agyconf {
  scope   = "global"
  product = "cli"
}
plugin "tools" {
  hook "guard" {
    stop {
      command = "/bin/guard"
    }
  }
}
`
	dir := root + "/.gemini/config/plugins/tools/"
	for _, tc := range []struct {
		name           string
		sources        []string
		status, detail string
	}{
		{"root", []string{dir + "hooks.json"}, Loaded, "enabled"},
		{"sub", []string{dir + "hooks/hooks.json"}, Loaded, "enabled (from .gemini/config/plugins/tools/hooks/hooks.json)"},
		{"both", []string{dir + "hooks.json", dir + "hooks/hooks.json"}, Loaded, "enabled; agy lists it from both .gemini/config/plugins/tools/hooks.json and .gemini/config/plugins/tools/hooks/hooks.json: this agy reads both of the plugin's hooks files, so each of its handlers runs twice"},
		{"neither", nil, NotLoaded, "agy does not list it"},
	} {
		var entries []string
		for _, s := range tc.sources {
			entries = append(entries, hookEntry("guard", s, true, "Stop"))
		}
		res, _ := diagnose(t, cfg, map[string]Run{"--version": answer("1.3.3"), "-p /hooks --output-format json": hooksAnswer(entries...)}, root)
		var hooks []Item
		for _, it := range res.Items {
			if it.Kind == KindHook {
				hooks = append(hooks, it)
			}
		}
		if len(hooks) != 1 {
			t.Fatalf("%s: %d hook items, want the one: %+v", tc.name, len(hooks), hooks)
		}
		it := hooks[0]
		if it.Status != tc.status || it.Detail != tc.detail || it.File != ".gemini/config/plugins/tools/hooks.json" {
			t.Errorf("%s: %s %q (%s), want %s %q", tc.name, it.Status, it.Detail, it.File, tc.status, tc.detail)
		}
		if (tc.name == "both") != strings.Contains(it.Fix, "top-level hook block") {
			t.Errorf("%s: fix %q", tc.name, it.Fix)
		}
	}
}

// TestDiagnosePluginFolder: a plugin in a folder not named as it (a
// repository cloned into the plugins folder) is the plugin its
// plugin.json names, as agy names it: its server is found by that name's
// prefix, and its disabling in the config is the plugin's.
func TestDiagnosePluginFolder(t *testing.T) {
	root := t.TempDir()
	cfg := `
agyconf {
  scope = "global"
}
plugin "memlin" {
  folder = "memlin-antigravity-plugin"
  mcp_server "tracker" {
    command = "/bin/tracker"
  }
}
plugin "off" {
  folder = "off-repo"
  enabled = false
  hook "quiet" {
    stop {
      command = "/bin/quiet"
    }
  }
}
`
	p, scope := plan(t, cfg)
	res := Diagnose(context.Background(), Options{Plan: p, Scope: scope, Root: root, Agy: "/fake/agy", Home: root,
		Run: runnerFunc(func(_ context.Context, argv []string, _ string, _ []string, _ time.Duration) Run {
			switch strings.Join(argv[1:], " ") {
			case "--version":
				return answer("1.3.0")
			case "mcp list":
				return answer("NAME            TYPE   STATUS   COMMAND/URL\nmemlin_tracker  stdio  enabled  /bin/tracker\n")
			case "-p /hooks --output-format json":
				return hooksAnswer()
			}
			return Run{Code: 1}
		})})
	byName := itemsByName(res)
	if it := byName["tracker"]; it.Status != Loaded || it.Plugin != "memlin" {
		t.Errorf("tracker: %+v", it)
	}
	if it := byName["quiet"]; it.Status != NotChecked || !strings.Contains(it.Detail, "the config disables the plugin off") {
		t.Errorf("quiet: %+v", it)
	}
}

// itemsByName indexes a result's items by name.
func itemsByName(res *Result) map[string]Item {
	byName := map[string]Item{}
	for _, it := range res.Items {
		byName[it.Name] = it
	}
	return byName
}
