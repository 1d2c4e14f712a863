//go:build unix

package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agyconf/agyconf/internal/testhome"
	"github.com/agyconf/agyconf/schema"
)

// The end-to-end tests run the real binary the way agy does: through
// sh -c, payload on stdin, stdout read to EOF.

var agyhookBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agyhook-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	agyhookBin = filepath.Join(dir, "agyhook")
	build := exec.Command("go", "build", "-o", agyhookBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building agyhook:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := testhome.Run(m) // no test reads or writes the user's home
	os.RemoveAll(dir)
	os.Exit(code)
}

const fakeMempalace = `#!/bin/sh
d='%s'
case "$1" in
mine)
	echo $$ >> "$d/mine.pid"
	{ printf '%%s\n' "$@"; echo --; } >> "$d/mine.argv"
	exec sleep "${FAKE_MINE_SLEEP:-60}"
	;;
wake-up)
	{ printf '%%s\n' "$@"; echo --; } >> "$d/wake.argv"
	if [ -n "$FAKE_WAKE_SLEEP" ]; then
		echo $$ >> "$d/wake.pid"
		sleep "$FAKE_WAKE_SLEEP"
	fi
	echo "Palace says: hello & <welcome>"
	;;
esac
`

type world struct {
	t          *testing.T
	home       string
	state      string
	fakeDir    string // holds the fake mempalace and its records
	fake       string
	transcript string
	validator  *schema.Validator
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, home: t.TempDir(), fakeDir: t.TempDir()}
	if err := os.Mkdir(filepath.Join(w.home, ".mempalace"), 0o700); err != nil {
		t.Fatal(err)
	}
	w.state = filepath.Join(w.home, ".mempalace", "hook_state")
	w.fake = filepath.Join(w.fakeDir, "mempalace")
	if err := os.WriteFile(w.fake, []byte(fmt.Sprintf(fakeMempalace, w.fakeDir)), 0o755); err != nil {
		t.Fatal(err)
	}
	logs := filepath.Join(w.home, ".gemini", "antigravity-cli", "brain", "c1", ".system_generated", "logs")
	if err := os.MkdirAll(logs, 0o700); err != nil {
		t.Fatal(err)
	}
	w.transcript = filepath.Join(logs, "transcript_full.jsonl")
	if err := os.WriteFile(w.transcript, []byte(`{"type":"USER_INPUT"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := schema.NewValidator("hook-stdout-stop", "hook-stdout-pre-invocation")
	if err != nil {
		t.Fatal(err)
	}
	w.validator = v
	t.Cleanup(w.killLeftovers)
	return w
}

// killLeftovers kills the process groups of the fake's sleeping runs: the
// supervisor is detached on purpose, so nothing else would.
func (w *world) killLeftovers() {
	for _, f := range []string{"mine.pid", "wake.pid"} {
		data, _ := os.ReadFile(filepath.Join(w.fakeDir, f))
		for _, s := range strings.Fields(string(data)) {
			pid, err := strconv.Atoi(s)
			if err != nil || pid <= 1 {
				continue
			}
			pgid, err := syscall.Getpgid(pid)
			if err != nil || pgid <= 1 || pgid == syscall.Getpgrp() {
				continue
			}
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
}

func q(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// hook runs cmdline under sh -c as agy does and returns stdout and how
// long it took until both stdout and stderr reached EOF.
func (w *world) hook(event, cmdline string, stdin []byte, env ...string) (string, time.Duration) {
	w.t.Helper()
	cmd := exec.Command("sh", "-c", cmdline)
	cmd.Env = append([]string{"HOME=" + w.home, "PATH=" + w.fakeDir + ":/usr/local/bin:/usr/bin:/bin"}, env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// If a child held the pipes, Run would wait for it; fail instead.
	cmd.WaitDelay = 3 * time.Second
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		w.t.Fatalf("%s: %v (stderr %q)", cmdline, err, errb.String())
	}
	if event != "" {
		w.check(event, out.String())
	}
	return out.String(), d
}

func (w *world) check(event, out string) {
	w.t.Helper()
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		w.t.Fatalf("%s: not one line: %q", event, out)
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(out), &obj); err != nil {
		w.t.Fatalf("%s: %q: %v", event, out, err)
	}
	if _, ok := obj["decision"]; ok && event == "Stop" {
		w.t.Fatalf("Stop answer with a decision: %q", out)
	}
	_, name := schema.HookContract(event)
	if err := w.validator.ValidateJSON(name, []byte(out)); err != nil {
		w.t.Fatalf("%s: %q: %v", event, out, err)
	}
}

func (w *world) save(args string, payload string, env ...string) (string, time.Duration) {
	return w.hook("Stop", q(agyhookBin)+" mempalace-save "+args, []byte(payload), env...)
}

func (w *world) wake(args string, payload string, env ...string) (string, time.Duration) {
	return w.hook("PreInvocation", q(agyhookBin)+" mempalace-wake "+args, []byte(payload), env...)
}

func (w *world) stop(id string, extra string) string {
	s := fmt.Sprintf(`{"conversationId":%q,"workspacePaths":["/home/me/My Project"],"transcriptPath":%q,"fullyIdle":true,"terminationReason":"NO_TOOL_CALL","executionNum":0`, id, w.transcript)
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func (w *world) count(id string) int {
	data, _ := os.ReadFile(filepath.Join(w.state, "antigravity_save_count_"+id))
	n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return n
}

func (w *world) records(name string) [][]string {
	data, _ := os.ReadFile(filepath.Join(w.fakeDir, name))
	var out [][]string
	var cur []string
	for _, l := range strings.Split(string(data), "\n") {
		switch l {
		case "--":
			out = append(out, cur)
			cur = nil
		case "":
		default:
			cur = append(cur, l)
		}
	}
	return out
}

func (w *world) log() string {
	data, _ := os.ReadFile(filepath.Join(w.state, "antigravity_hook.log"))
	return string(data)
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

func TestSaveDetachesAndCounts(t *testing.T) {
	w := newWorld(t)
	args := "--interval 2 --state-dir " + q(w.state) + " --mempalace " + q(w.fake)
	marker := filepath.Join(w.state, "antigravity_pending_conv-1")

	if out, _ := w.save(args, w.stop("conv-1", "")); out != "{}\n" {
		t.Fatalf("%q", out)
	}
	if w.count("conv-1") != 1 || len(w.records("mine.argv")) != 0 {
		t.Fatalf("after 1: count %d", w.count("conv-1"))
	}
	out, d := w.save(args, w.stop("conv-1", ""))
	if out != "{}\n" {
		t.Fatalf("%q", out)
	}
	// agy's pipe reaches EOF although mine sleeps 60 s, and the save
	// answered itself: the watchdog, which would answer a save stuck on
	// mine, never fired (the log says so when it does).
	if d > 30*time.Second || strings.Contains(w.log(), "watchdog:") {
		t.Errorf("due save took %v to EOF; log:\n%s", d, w.log())
	}
	waitFor(t, "mine to start", func() bool { return len(w.records("mine.argv")) == 1 })
	want := []string{"mine", filepath.Dir(w.transcript), "--mode", "convos", "--wing", "wing_my_project"}
	if got := w.records("mine.argv")[0]; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("mine argv %q, want %q", got, want)
	}
	if !exists(marker) {
		t.Error("no pending marker while mine runs")
	}
	// 3 is not due; 4 is, but the first mine is still running.
	w.save(args, w.stop("conv-1", ""))
	w.save(args, w.stop("conv-1", ""))
	if w.count("conv-1") != 4 {
		t.Errorf("count %d, want 4", w.count("conv-1"))
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(w.records("mine.argv")); n != 1 {
		t.Errorf("%d mines, want 1", n)
	}
	if !strings.Contains(w.log(), "count 4 due, but a save is still pending") {
		t.Errorf("log:\n%s", w.log())
	}
	for _, name := range []string{"antigravity_save_count_conv-1", "antigravity_pending_conv-1", "antigravity_hook.log"} {
		if fi, err := os.Stat(filepath.Join(w.state, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", name, fi.Mode(), err)
		}
	}
}

func TestSaveMarkerClearedAfterMine(t *testing.T) {
	w := newWorld(t)
	// No --mempalace and no --state-dir: PATH and the default state dir.
	out, d := w.save("--interval 1", w.stop("conv-2", ""), "FAKE_MINE_SLEEP=0")
	if out != "{}\n" {
		t.Fatalf("%q after %v", out, d)
	}
	marker := filepath.Join(w.state, "antigravity_pending_conv-2")
	waitFor(t, "marker removal", func() bool { return !exists(marker) && strings.Contains(w.log(), "__mine conv=conv-2") })
	if len(w.records("mine.argv")) != 1 {
		t.Error("mine not run from PATH")
	}
	if !strings.Contains(w.log(), "mempalace mine finished") {
		t.Errorf("log:\n%s", w.log())
	}
}

func TestSaveSkipsE2E(t *testing.T) {
	w := newWorld(t)
	args := "--interval 1 --mempalace " + q(w.fake)
	big := `"pad":"` + strings.Repeat("x", 10<<20) + `"`
	for _, c := range []struct {
		name, payload string
	}{
		{"not idle", strings.Replace(w.stop("s1", ""), `"fullyIdle":true`, `"fullyIdle":false`, 1)},
		{"idle missing", strings.Replace(w.stop("s2", ""), `,"fullyIdle":true`, ``, 1)},
		{"error", strings.Replace(w.stop("s3", ""), `NO_TOOL_CALL`, `error`, 1)},
		{"traversal", strings.Replace(w.stop("s4", ""), `/logs/`, `/logs/../logs/`, 1)},
		{"traversal start", strings.Replace(w.stop("s5", ""), `"transcriptPath":"/`, `"transcriptPath":"/../`, 1)},
		{"garbage", "\x00\xff{not json"},
		{"empty", ""},
		{"bad id", w.stop("../../etc", "")},
	} {
		out, _ := w.save(args, c.payload)
		if out != "{}\n" {
			t.Errorf("%s: %q", c.name, out)
		}
	}
	if w.count("s4") != 1 || w.count("s5") != 1 || w.count("s1") != 0 || w.count("s3") != 0 {
		t.Errorf("counts s1 %d s3 %d s4 %d s5 %d", w.count("s1"), w.count("s3"), w.count("s4"), w.count("s5"))
	}
	// A 10 MB payload below the interval is read and counted.
	out, d := w.save("--interval 100 --mempalace "+q(w.fake), w.stop("big", big))
	if out != "{}\n" || w.count("big") != 1 {
		t.Errorf("10 MB: %q count %d after %v", out, w.count("big"), d)
	}
	time.Sleep(100 * time.Millisecond)
	if n := len(w.records("mine.argv")); n != 0 {
		t.Errorf("%d mines", n)
	}
	if strings.Contains(w.log(), "xxxx") || strings.Contains(w.log(), w.transcript) {
		t.Error("log holds payload contents")
	}
}

func TestSaveMissingMempalace(t *testing.T) {
	w := newWorld(t)
	os.Remove(w.fake)
	out, _ := w.save("--interval 1", w.stop("m1", ""))
	if out != "{}\n" || exists(filepath.Join(w.state, "antigravity_pending_m1")) {
		t.Errorf("%q", out)
	}
	if !strings.Contains(w.log(), "mempalace not found on PATH") {
		t.Errorf("log:\n%s", w.log())
	}
}

func TestWakeE2E(t *testing.T) {
	w := newWorld(t)
	args := "--mempalace " + q(w.fake)
	want := `{"injectSteps":[{"ephemeralMessage":"Palace says: hello & <welcome>"}]}` + "\n"
	pl := func(id, num string) string {
		s := `{"conversationId":"` + id + `","workspacePaths":["/home/me/my-project"],"initialNumSteps":1`
		if num != "" {
			s += `,"invocationNum":` + num
		}
		return s + "}"
	}
	for _, c := range []struct {
		id    string
		calls []string
		wakes int // index of the waking call, -1 none
	}{
		{"zero-then-one", []string{"0", "1", "2"}, 0},
		{"one-first", []string{"1", "2"}, 0},
		{"missing", []string{"", "1"}, 0},
		{"late", []string{"2", "3"}, -1},
	} {
		for i, n := range c.calls {
			exp := "{}\n"
			if i == c.wakes {
				exp = want
			}
			if out, _ := w.wake(args, pl(c.id, n)); out != exp {
				t.Errorf("%s call %d: %q, want %q", c.id, i, out, exp)
			}
		}
	}
	recs := w.records("wake.argv")
	if len(recs) != 3 || strings.Join(recs[0], " ") != "wake-up --wing wing_my_project" {
		t.Errorf("wake-up runs %q", recs)
	}
	// No flag: mempalace from PATH.
	if out, _ := w.wake("", pl("from-path", "0")); out != want {
		t.Errorf("PATH: %q", out)
	}
}

func TestWakeSlowAndMissing(t *testing.T) {
	w := newWorld(t)
	out, d := w.wake("--mempalace "+q(w.fake), `{"conversationId":"slow","invocationNum":0}`, "FAKE_WAKE_SLEEP=5")
	// The wake-up's own deadline cut it off, not the hook's watchdog (each
	// says so in the log; how long it took is no test's business).
	if out != "{}\n" {
		t.Errorf("slow wake-up: %q after %v", out, d)
	}
	waitFor(t, "the wake-up's deadline in the log", func() bool { return strings.Contains(w.log(), "wake-up for ") })
	if log := w.log(); !strings.Contains(log, "gave nothing") || strings.Contains(log, "watchdog:") {
		t.Errorf("the wake-up was not cut off by its own deadline:\n%s", log)
	}
	// The deadline kills the whole group, the script's sleep included.
	data, _ := os.ReadFile(filepath.Join(w.fakeDir, "wake.pid"))
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
		waitFor(t, "wake-up to die", func() bool { return syscall.Kill(pid, 0) != nil })
	}
	os.Remove(w.fake)
	out, _ = w.wake("", `{"conversationId":"nomp","invocationNum":0}`)
	if out != "{}\n" {
		t.Errorf("missing mempalace: %q", out)
	}
}

func TestCLIEdges(t *testing.T) {
	w := newWorld(t)
	if out, _ := w.save("--bogus", w.stop("x", "")); out != "{}\n" {
		t.Errorf("bad flag: %q", out)
	}
	if out, _ := w.wake("extra-arg", `{"invocationNum":0,"conversationId":"x"}`); out != "{}\n" {
		t.Errorf("bad arg: %q", out)
	}
	for _, args := range []string{"", "-h", "frobnicate"} {
		cmd := exec.Command(agyhookBin)
		if args != "" {
			cmd.Args = append(cmd.Args, args)
		}
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || len(out) != 0 || !strings.Contains(errb.String(), "usage") {
			t.Errorf("%q: %v %q %q", args, err, out, errb.String())
		}
	}
	out, err := exec.Command(agyhookBin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "agyhook ") {
		t.Errorf("version: %q %v", out, err)
	}
}
