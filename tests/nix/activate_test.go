package nix_test

// Tests of nix/activate.sh, the function Home Manager's activation snippet
// (home.activation.agyconf in nix/module/agyconf.nix) sources and calls. Each
// case runs it under bash the way Home Manager does: `set -eu -o pipefail`,
// with `run` and `verboseEcho` as Home Manager defines them (shims written
// here that also record run's argv) and DRY_RUN / VERBOSE set or not, against
// a fake agyconf that records its argv and exits with a chosen code.
//
// Without bash the tests skip, unless CI is set: then they fail.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// activateShims stand in for Home Manager's lib/bash/home-manager.sh.
const activateShims = `
run() {
  printf '%s\n' "$*" >>"$RUN_LOG"
  if [[ -v DRY_RUN ]]; then echo "$@"; else "$@"; fi
}
verboseEcho() {
  if [[ -v VERBOSE ]]; then echo "$*"; fi
}
`

// activateFakeAgyconf records each call as one line of argv and exits with
// $FAKE_RC (render) or $FAKE_DIFF_RC (diff).
const activateFakeAgyconf = `#!/bin/sh
printf '%s\n' "$*" >>"$AGYCONF_LOG"
case $1 in
diff) echo "fake diff output"; exit "${FAKE_DIFF_RC:-0}" ;;
esac
exit "${FAKE_RC:-0}"
`

type activateCase struct {
	name       string
	onConflict string
	env        []string // DRY_RUN=1, VERBOSE=1, FAKE_RC=3, …
	wantRC     int
	wantCalls  []string // fake agyconf argv lines, in order
	wantRun    []string // argv lines recorded by run (nil: run is never called)
	wantOut    []string // texts in stdout+stderr
	notOut     []string // texts not in stdout+stderr
}

func activateNeedBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("bash is not on PATH (required when CI is set)")
		}
		t.Skip("bash is not on PATH")
	}
	return bash
}

func activateReadLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func activateEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestActivate(t *testing.T) {
	bash := activateNeedBash(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "nix", "activate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatal(err)
	}

	const cfgDir = "/nix/store/xxx-agyconf-config"
	const root = "/home/demo"
	render := "render --config " + cfgDir + " --root " + root
	diff := "diff --config " + cfgDir + " --root " + root

	cases := []activateCase{
		{
			name: "render", onConflict: "error",
			wantCalls: []string{render},
			wantRun:   []string{"AGYCONF " + render},
			notOut:    []string{"agyconf: render failed", "agyconf: render refused"},
		},
		{
			name: "default mode", onConflict: "",
			wantCalls: []string{render},
			wantRun:   []string{"AGYCONF " + render},
		},
		{
			name: "adopt", onConflict: "adopt",
			wantCalls: []string{render + " --adopt"},
			wantRun:   []string{"AGYCONF " + render + " --adopt"},
		},
		{
			name: "force", onConflict: "force",
			wantCalls: []string{render + " --force"},
			wantRun:   []string{"AGYCONF " + render + " --force"},
		},
		{
			name: "verbose", onConflict: "adopt", env: []string{"VERBOSE=1"},
			wantCalls: []string{render + " --adopt"},
			wantRun:   []string{"AGYCONF " + render + " --adopt"},
			wantOut:   []string{"agyconf: AGYCONF " + render + " --adopt"},
		},
		{
			name: "quiet", onConflict: "error",
			wantCalls: []string{render},
			wantRun:   []string{"AGYCONF " + render},
			notOut:    []string{"agyconf: AGYCONF render"},
		},
		{
			name: "dry run shows diff and renders nothing", onConflict: "force", env: []string{"DRY_RUN=1"},
			wantCalls: []string{diff},
			wantOut:   []string{"dry run", "fake diff output"},
		},
		{
			name: "dry run with failing diff", onConflict: "error", env: []string{"DRY_RUN=1", "FAKE_DIFF_RC=2"},
			wantRC:    2,
			wantCalls: []string{diff},
			wantOut:   []string{"'agyconf diff' failed with exit code 2"},
		},
		{
			name: "conflict refused", onConflict: "error", env: []string{"FAKE_RC=3"},
			wantRC:    3,
			wantCalls: []string{render},
			wantRun:   []string{"AGYCONF " + render},
			wantOut: []string{
				"render refused, exit code 3",
				"agyconf diff --config " + cfgDir + " --root " + root,
				"programs.agyconf.onConflict",
				`"adopt"`, `"force"`,
			},
			notOut: []string{"after"},
		},
		{
			name: "bad input", onConflict: "adopt", env: []string{"FAKE_RC=2"},
			wantRC:    2,
			wantCalls: []string{render + " --adopt"},
			wantRun:   []string{"AGYCONF " + render + " --adopt"},
			wantOut:   []string{"render failed, exit code 2", "agyconf diff --config"},
			notOut:    []string{"after"},
		},
		{
			name: "other failure", onConflict: "error", env: []string{"FAKE_RC=1"},
			wantRC:    1,
			wantCalls: []string{render},
			wantRun:   []string{"AGYCONF " + render},
			wantOut:   []string{"render failed with exit code 1"},
		},
		{
			name: "unknown mode", onConflict: "merge",
			wantRC:  2,
			wantOut: []string{"unknown programs.agyconf.onConflict 'merge'"},
		},
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fake := filepath.Join(dir, "agyconf")
			if err := os.WriteFile(fake, []byte(activateFakeAgyconf), 0o755); err != nil {
				t.Fatal(err)
			}
			agyLog := filepath.Join(dir, "agyconf.log")
			runLog := filepath.Join(dir, "run.log")

			// As Home Manager's activation script: errexit, nounset, pipefail;
			// a failing agyconfActivate ends the script with its status, so
			// "after" must not be printed then.
			prog := "set -eu -o pipefail\n" +
				"source \"$ACTIVATE_SH\"\n" +
				activateShims +
				"agyconfActivate \"$FAKE_AGYCONF\" " + cfgDir + " " + root + " \"$ON_CONFLICT\"\n" +
				"echo after\n"
			cmd := exec.Command(bash, "--noprofile", "--norc", "-c", prog)
			cmd.Env = append([]string{
				"PATH=" + os.Getenv("PATH"),
				"ACTIVATE_SH=" + script,
				"FAKE_AGYCONF=" + fake,
				"ON_CONFLICT=" + tc.onConflict,
				"AGYCONF_LOG=" + agyLog,
				"RUN_LOG=" + runLog,
			}, tc.env...)
			out, err := cmd.CombinedOutput()
			rc := 0
			if err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatal(err)
				}
				rc = ee.ExitCode()
			}
			text := string(out)
			if rc != tc.wantRC {
				t.Fatalf("exit code %d, want %d; output:\n%s", rc, tc.wantRC, text)
			}
			if tc.wantRC == 0 && !strings.Contains(text, "after") {
				t.Errorf("the script did not continue after agyconfActivate; output:\n%s", text)
			}
			if calls := activateReadLines(t, agyLog); !activateEqual(calls, tc.wantCalls) {
				t.Errorf("agyconf calls %q, want %q", calls, tc.wantCalls)
			}
			runs := activateReadLines(t, runLog)
			for i := range runs {
				runs[i] = strings.Replace(runs[i], fake, "AGYCONF", 1)
			}
			if !activateEqual(runs, tc.wantRun) {
				t.Errorf("run calls %q, want %q", runs, tc.wantRun)
			}
			norm := strings.ReplaceAll(text, fake, "AGYCONF")
			for _, want := range tc.wantOut {
				if !strings.Contains(norm, want) {
					t.Errorf("output lacks %q; output:\n%s", want, text)
				}
			}
			for _, not := range tc.notOut {
				if strings.Contains(norm, not) {
					t.Errorf("output has %q; output:\n%s", not, text)
				}
			}
		})
	}
}

// TestActivateSourcesQuietly checks that sourcing the file defines the
// function and nothing else happens: no output, no shell options changed.
func TestActivateSourcesQuietly(t *testing.T) {
	bash := activateNeedBash(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "nix", "activate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	prog := `before=$(set +o); source "$1"; after=$(set +o)
[[ $before == "$after" ]] || { echo "shell options changed"; exit 1; }
declare -F agyconfActivate >/dev/null || { echo "agyconfActivate not defined"; exit 1; }`
	out, err := exec.Command(bash, "--noprofile", "--norc", "-c", prog, "_", script).CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Fatalf("sourcing nix/activate.sh: %v, output %q", err, out)
	}
}
