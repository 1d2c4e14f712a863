package agyhook

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func stopPayload(id, transcript string, idle bool, extra string) string {
	m := map[string]any{"conversationId": id, "workspacePaths": []string{"/home/me/My-Project"}, "transcriptPath": transcript}
	if idle {
		m["fullyIdle"] = true
	}
	b, _ := json.Marshal(m)
	if extra != "" {
		return strings.TrimSuffix(string(b), "}") + "," + extra + "}"
	}
	return string(b)
}

func TestMainUsage(t *testing.T) {
	f := newFixture(t)
	for _, args := range [][]string{nil, {"-h"}, {"--help"}, {"nope"}} {
		out, errOut, code := f.run("", args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: agyhook") {
			t.Errorf("%q: code %d out %q err %q", args, code, out, errOut)
		}
	}
	out, _, code := f.run("", "version")
	if code != 0 || out != "agyhook test\n" {
		t.Errorf("version: %d %q", code, out)
	}
}

func TestSaveFlow(t *testing.T) {
	f := newFixture(t)
	tr := f.transcript()
	in := stopPayload("conv-1", tr, true, "")
	for i := 1; i <= 3; i++ {
		out, _, code := f.run(in, "mempalace-save", "--interval", "2")
		if out != "{}\n" || code != 0 {
			t.Fatalf("run %d: %q %d", i, out, code)
		}
	}
	if n := readCount(filepath.Join(f.state, countPrefix+"conv-1")); n != 3 {
		t.Errorf("count %d", n)
	}
	if f.nSpawns() != 1 {
		t.Fatalf("spawns %d", f.nSpawns())
	}
	r := f.spawns[0]
	want := []string{"/fake/bin/mempalace", "mine", filepath.Dir(tr), "--mode", "convos", "--wing", "wing_my_project"}
	if strings.Join(r.Argv, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("argv %q", r.Argv)
	}
	if r.Marker != filepath.Join(f.state, pendingPrefix+"conv-1") || r.Log != filepath.Join(f.state, logName) {
		t.Errorf("request %+v", r)
	}
	if !pendingBusy(r.Marker, f.now) {
		t.Error("no pending marker")
	}
	// Due again at 4, but the first mine still runs.
	f.run(in, "mempalace-save", "--interval", "2")
	if f.nSpawns() != 1 || !strings.Contains(f.readLog(), "still pending") {
		t.Errorf("second due save not skipped: %d spawns\n%s", f.nSpawns(), f.readLog())
	}
	// After the mine, the next due save runs.
	releasePending(r.Marker, r.Token)
	f.run(in, "mempalace-save", "--interval", "2")
	f.run(in, "mempalace-save", "--interval", "2")
	if f.nSpawns() != 2 {
		t.Errorf("spawns %d after release", f.nSpawns())
	}
	if strings.Contains(f.readLog(), tr) || strings.Contains(f.readLog(), "My-Project") {
		t.Errorf("log holds payload contents:\n%s", f.readLog())
	}
	if fi, err := os.Stat(f.state); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %v %v", fi.Mode(), err)
	}
}

func TestSaveSkips(t *testing.T) {
	f := newFixture(t)
	tr := f.transcript()
	cases := []struct {
		name, in, counted string // counted: "" means no counter file
		args              []string
	}{
		{"not idle", stopPayload("a1", tr, false, ""), "", nil},
		{"error", stopPayload("a2", tr, true, `"terminationReason":"error"`), "", nil},
		{"ERROR", stopPayload("a3", tr, true, `"terminationReason":"ERROR"`), "", nil},
		{"bad id", stopPayload("a/b", tr, true, ""), "", nil},
		{"no id", `{"fullyIdle":true}`, "", nil},
		{"garbage", "\x00\xff{{", "", nil},
		{"empty", "", "", nil},
		{"array", "[]", "", nil},
		{"traversal", stopPayload("a4", filepath.Dir(tr)+"/../logs/transcript_full.jsonl", true, ""), "a4", nil},
		{"relative", stopPayload("a5", "brain/t.jsonl", true, ""), "a5", nil},
		{"wrong ext", stopPayload("a6", tr+".txt", true, ""), "a6", nil},
		{"missing", stopPayload("a7", filepath.Dir(tr)+"/gone.jsonl", true, ""), "a7", nil},
		{"no mempalace", stopPayload("a8", tr, true, ""), "a8", []string{"--mempalace", filepath.Join(f.home, "nope")}},
		{"bad flag", stopPayload("a9", tr, true, ""), "", []string{"--what"}},
	}
	for _, c := range cases {
		out, _, code := f.run(c.in, append([]string{"mempalace-save", "--interval", "1"}, c.args...)...)
		if out != "{}\n" || code != 0 {
			t.Errorf("%s: %q %d", c.name, out, code)
		}
		if c.counted != "" && readCount(filepath.Join(f.state, countPrefix+c.counted)) != 1 {
			t.Errorf("%s: not counted", c.name)
		}
	}
	if f.nSpawns() != 0 {
		t.Errorf("%d spawns", f.nSpawns())
	}
	counters, _ := filepath.Glob(filepath.Join(f.state, countPrefix+"*"))
	if len(counters) != 5 {
		t.Errorf("counters %v", counters)
	}
	pend, _ := filepath.Glob(filepath.Join(f.state, pendingPrefix+"*"))
	if len(pend) != 0 {
		t.Errorf("markers left: %v", pend)
	}
	// Missing mempalace on PATH.
	env := f.env()
	env.LookPath = func(string) (string, error) { return "", errors.New("no") }
	out, _, _ := f.runEnv(env, stopPayload("b1", tr, true, ""), "mempalace-save", "--interval", "1")
	if out != "{}\n" || f.nSpawns() != 0 || !strings.Contains(f.readLog(), "not found on PATH") {
		t.Errorf("missing mempalace: %q %d", out, f.nSpawns())
	}
	// A failing spawn releases its marker.
	env = f.env()
	env.Spawn = func(SpawnRequest) error { return errors.New("boom") }
	f.runEnv(env, stopPayload("b2", tr, true, ""), "mempalace-save", "--interval", "1")
	if _, err := os.Stat(filepath.Join(f.state, pendingPrefix+"b2")); !os.IsNotExist(err) {
		t.Error("marker left after failed spawn")
	}
}

func TestSaveKillSwitchWritesNothing(t *testing.T) {
	f := newFixture(t)
	f.vars["MEMPAL_DISABLE_HOOK"] = "true"
	out, _, code := f.run(stopPayload("c", f.transcript(), true, ""), "mempalace-save", "--interval", "1")
	if out != "{}\n" || code != 0 {
		t.Fatal(out, code)
	}
	if _, err := os.Stat(f.state); !os.IsNotExist(err) {
		t.Error("state dir created while disabled")
	}
}

func TestSaveEnvOptions(t *testing.T) {
	f := newFixture(t)
	alt := filepath.Join(t.TempDir(), "state")
	f.vars["MEMPAL_STATE_DIR"] = alt
	f.vars["MEMPAL_SAVE_INTERVAL"] = "2"
	in := stopPayload("e", f.transcript(), true, "")
	f.run(in, "mempalace-save")
	f.run(in, "mempalace-save")
	if readCount(filepath.Join(alt, countPrefix+"e")) != 2 || f.nSpawns() != 1 {
		t.Errorf("env options ignored: spawns %d", f.nSpawns())
	}
	flagDir := filepath.Join(t.TempDir(), "flagstate")
	f.run(in, "mempalace-save", "--state-dir", flagDir, "--interval", "1")
	if readCount(filepath.Join(flagDir, countPrefix+"e")) != 1 {
		t.Error("flag state dir ignored")
	}
}

func TestWakeFlow(t *testing.T) {
	f := newFixture(t)
	want := `{"injectSteps":[{"ephemeralMessage":"You remember: the palace."}]}` + "\n"
	pl := func(id, num string) string {
		s := `{"conversationId":"` + id + `","workspacePaths":["/w/My Project"]`
		if num != "" {
			s += `,"invocationNum":` + num
		}
		return s + "}"
	}
	for _, c := range []struct {
		name  string
		calls []string // invocationNum per call, "" = missing
		wakes []int    // index of the call that wakes
	}{
		{"0 then 1", []string{"0", "1", "2"}, []int{0}},
		{"1 first", []string{"1", "2", "3"}, []int{0}},
		{"missing", []string{"", "", "1"}, []int{0}},
		{"late start", []string{"5", "6"}, nil},
	} {
		id := strings.ReplaceAll(c.name, " ", "-")
		for i, n := range c.calls {
			out, _, code := f.run(pl(id, n), "mempalace-wake")
			exp := "{}\n"
			for _, w := range c.wakes {
				if w == i {
					exp = want
				}
			}
			if out != exp || code != 0 {
				t.Errorf("%s call %d: %q, want %q", c.name, i, out, exp)
			}
		}
	}
	if got := f.wakes[0]; strings.Join(got, " ") != "/fake/bin/mempalace wake-up --wing wing_my_project" {
		t.Errorf("argv %q", got)
	}
	// Failures and empty output: {}, and the conversation is spent.
	f.wakeOut = "  \n"
	if out, _, _ := f.run(pl("empty", "0"), "mempalace-wake"); out != "{}\n" {
		t.Errorf("empty: %q", out)
	}
	f.wakeOut, f.wakeErr = "partial", errors.New("exit status 1")
	if out, _, _ := f.run(pl("fails", "0"), "mempalace-wake"); out != "{}\n" {
		t.Errorf("failure: %q", out)
	}
	f.wakeErr = nil
	f.wakeOut = "<b>&</b>"
	if out, _, _ := f.run(pl("html", "0"), "mempalace-wake"); out != `{"injectSteps":[{"ephemeralMessage":"<b>&</b>"}]}`+"\n" {
		t.Errorf("escaped: %q", out)
	}
	// Auto-save switches leave waking on; the global one does not.
	f.vars["MEMPALACE_HOOKS_AUTO_SAVE"] = "false"
	if out, _, _ := f.run(pl("autosave-off", "0"), "mempalace-wake"); out == "{}\n" {
		t.Error("MEMPALACE_HOOKS_AUTO_SAVE disabled wake")
	}
	f.vars["MEMPAL_DISABLE_HOOK"] = "1"
	if out, _, _ := f.run(pl("disabled", "0"), "mempalace-wake"); out != "{}\n" {
		t.Error("MEMPAL_DISABLE_HOOK did not disable wake")
	}
}

func TestWakeHotPathTouchesNothing(t *testing.T) {
	f := newFixture(t)
	out, _, _ := f.run(`{"conversationId":"c","invocationNum":7}`, "mempalace-wake")
	if out != "{}\n" || f.nWakes() != 0 {
		t.Fatal(out)
	}
	if _, err := os.Stat(f.state); !os.IsNotExist(err) {
		t.Error("state dir created on the no-op path")
	}
}

func TestWatchdogAndPanic(t *testing.T) {
	f := newFixture(t)
	release := make(chan struct{})
	f.wakeHook = func(ctx context.Context) { <-release }
	env := f.env()
	env.Watchdog = 100 * time.Millisecond
	start := time.Now()
	out, _, code := f.runEnv(env, `{"conversationId":"slow","invocationNum":0}`, "mempalace-wake")
	if out != "{}\n" || code != 0 || time.Since(start) > 2*time.Second {
		t.Errorf("watchdog: %q %d after %v", out, code, time.Since(start))
	}
	close(release)
	// The late answer must not reach stdout: Main has returned, so give
	// the worker a moment and check nothing was appended.
	time.Sleep(50 * time.Millisecond)

	env = f.env()
	env.RunWake = func(context.Context, []string) ([]byte, error) { panic("kaboom") }
	out, errOut, code := f.runEnv(env, `{"conversationId":"panics","invocationNum":0}`, "mempalace-wake")
	if out != "{}\n" || code != 0 || !strings.Contains(errOut, "kaboom") {
		t.Errorf("panic: %q %d %q", out, code, errOut)
	}
}

func TestWatchdogSingleAnswer(t *testing.T) {
	f := newFixture(t)
	// The wake blocks until Main has returned, so the watchdog answers
	// first however loaded the machine is; then the late answer must not
	// be written too.
	release, done := make(chan struct{}), make(chan struct{})
	f.wakeHook = func(ctx context.Context) { <-release; close(done) }
	env := f.env()
	env.Watchdog = 50 * time.Millisecond
	var out lockedBuffer
	Main([]string{"mempalace-wake"}, strings.NewReader(`{"conversationId":"x","invocationNum":1}`), &out, &lockedBuffer{}, env)
	close(release)
	<-done
	time.Sleep(50 * time.Millisecond) // the worker's answer, were it written
	if got := out.String(); got != "{}\n" {
		t.Errorf("answers: %q", got)
	}
}
