package nix_test

// Tests of nix/activate.sh, the functions Home Manager's activation
// snippets (home.activation.agyconfCheck, .agyconf, .agyconfClean in
// nix/module/agyconf.nix) source and call. Each case runs them under bash
// the way Home Manager does: `set -eu -o pipefail`, with `run` and
// `verboseEcho` as Home Manager defines them (shims written here that also
// record run's argv), DRY_RUN / VERBOSE / newGenPath set or not, and an
// EXIT trap of Home Manager's own (its temporary GC root) already in place.
// TestActivate uses a fake agyconf that records its argv and exits with a
// chosen code; TestActivateAgyconf the real one, on real files.
//
// Without bash (or go, for the real binary) the tests skip, unless CI is
// set: then they fail.

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// activateShims stand in for Home Manager's lib/bash/home-manager.sh and
// the EXIT trap its activation script sets before the snippets run.
const activateShims = `
run() {
  printf '%s\n' "$*" >>"$RUN_LOG"
  if [[ -v DRY_RUN ]]; then echo "$@"; else "$@"; fi
}
verboseEcho() {
  if [[ -v VERBOSE ]]; then echo "$*"; fi
}
trap 'echo "hm: removed the temporary GC root"' EXIT
`

// activateFakeAgyconf records each call as one line of argv, prints
// $FAKE_CHECK_OUT (render --dry-run), $FAKE_CLEAN_OUT (clean) or
// $FAKE_DOCTOR_OUT (doctor), and exits with $FAKE_CHECK_RC, $FAKE_RC
// (render), $FAKE_CLEAN_RC or $FAKE_DOCTOR_RC.
const activateFakeAgyconf = `#!/bin/sh
printf '%s\n' "$*" >>"$AGYCONF_LOG"
case "$*" in
"render --dry-run"*) echo "${FAKE_CHECK_OUT:-fake check output}"; exit "${FAKE_CHECK_RC:-0}" ;;
render*) exit "${FAKE_RC:-0}" ;;
clean*) [ -n "${FAKE_CLEAN_OUT:-}" ] && echo "$FAKE_CLEAN_OUT"; exit "${FAKE_CLEAN_RC:-0}" ;;
doctor*) [ -n "${FAKE_DOCTOR_OUT:-}" ] && echo "$FAKE_DOCTOR_OUT"; exit "${FAKE_DOCTOR_RC:-0}" ;;
esac
exit 0
`

type activateCase struct {
	name   string
	call   string   // the snippet: agyconfCheck …, agyconfActivate …
	env    []string // DRY_RUN=1, FAKE_RC=3, …
	setup  func(t *testing.T, dir string)
	wantRC int
	// wantCalls are the fake agyconf's argv lines, in order; wantRun the
	// argv lines run recorded (nil: run is never called).
	wantCalls, wantRun []string
	wantOut, notOut    []string // texts in stdout+stderr
}

func activateNeedBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("bash is not on PATH (required when CI is set)")
		}
		t.Skip("bash is not on PATH; to run this test: install bash, then CI=true go test ./tests/nix/")
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

func activateScript(t *testing.T) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "nix", "activate.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatal(err)
	}
	return script
}

// runActivation runs snippet as Home Manager's script would, "after" being
// the next step's output; it returns the exit code and the output.
func runActivation(t *testing.T, bash, snippet string, env []string) (int, string) {
	t.Helper()
	prog := "set -eu -o pipefail\n" +
		"source \"$ACTIVATE_SH\"\n" +
		activateShims +
		snippet + "\n" +
		"echo after\n"
	cmd := exec.Command(bash, "--noprofile", "--norc", "-c", prog)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "ACTIVATE_SH=" + activateScript(t)}, env...)
	out, err := cmd.CombinedOutput()
	rc := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		rc = ee.ExitCode()
	}
	return rc, string(out)
}

func TestActivate(t *testing.T) {
	bash := activateNeedBash(t)

	const cfgDir = "/nix/store/xxx-agyconf-config"
	const root = "/home/demo"
	const paths = cfgDir + "/option-paths"
	args := `"$FAKE_AGYCONF" ` + cfgDir + " " + root
	check := "render --dry-run --defer-secrets --config " + cfgDir + " --root " + root
	render := "render --defer-secrets --config " + cfgDir + " --root " + root
	// The previous generation, with the module enabled (its agyconf and
	// config), for agyconfClean.
	oldGen := func(withAgyconf bool) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			state := filepath.Join(dir, "home", ".local", "state", "agyconf")
			cfg := filepath.Join(dir, "gen", "home-files", ".config", "agyconf")
			bin := filepath.Join(dir, "gen", "home-path", "bin")
			for _, d := range []string{state, cfg, bin} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(state, "home-manager.json"), []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			if withAgyconf {
				if err := os.Symlink(filepath.Join(dir, "agyconf"), filepath.Join(bin, "agyconf")); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	const clean = `agyconfClean "$HOMEDIR" .local/state/agyconf/home-manager.json home-files/.config/agyconf`
	cleanCall := "clean --config DIR/gen/home-files/.config/agyconf --root DIR/home"

	doctorArgs := args + " " + paths
	doctorCall := "doctor --config " + cfgDir + " --root " + root + " --timeout 20s --option-paths " + paths

	cases := []activateCase{
		{
			// doctor writes nothing, so it is not run through `run`.
			name:      "doctor: all loaded is silent",
			call:      "agyconfDoctor " + doctorArgs,
			wantCalls: []string{doctorCall + " --quiet"},
			notOut:    []string{"agyconf doctor"},
			wantOut:   []string{"after"},
		},
		{
			name:      "doctor: the agy of programs.antigravity-cli",
			call:      "agyconfDoctor " + doctorArgs + " /nix/store/yyy-agy/bin/agy",
			wantCalls: []string{doctorCall + " --agy /nix/store/yyy-agy/bin/agy --quiet"},
		},
		{
			name:      "doctor: something not loaded is said and the switch goes on",
			call:      "agyconfDoctor " + doctorArgs,
			env:       []string{"FAKE_DOCTOR_RC=1", "FAKE_DOCTOR_OUT=NOT LOADED   hook guard"},
			wantCalls: []string{doctorCall + " --quiet"},
			wantOut:   []string{"NOT LOADED   hook guard", "agy did not load everything", "the switch goes on", "after"},
		},
		{
			name:      "doctor: agy cannot be asked and the switch goes on",
			call:      "agyconfDoctor " + doctorArgs,
			env:       []string{"FAKE_DOCTOR_RC=2"},
			wantCalls: []string{doctorCall + " --quiet"},
			wantOut:   []string{"could not ask agy", "exit code 2", "after"},
		},
		{
			name:      "doctor: -v shows the command and the whole answer",
			call:      "agyconfDoctor " + doctorArgs,
			env:       []string{"VERBOSE=1"},
			wantCalls: []string{doctorCall},
			wantOut:   []string{"agyconf: AGYCONF " + doctorCall},
		},
		{
			name:    "doctor: a dry run asks nothing",
			call:    "agyconfDoctor " + doctorArgs,
			env:     []string{"DRY_RUN=1"},
			wantOut: []string{"after"},
		},
		{
			name:      "check passes quietly",
			call:      "agyconfCheck " + args + " error " + paths,
			wantCalls: []string{check + " --option-paths " + paths},
			notOut:    []string{"fake check output", "agyconf:"},
		},
		{
			name: "check knows the generation being linked",
			call: "agyconfCheck " + args + " adopt " + paths,
			env:  []string{"newGenPath=$GEN"},
			setup: func(t *testing.T, dir string) {
				if err := os.MkdirAll(filepath.Join(dir, "files-home-manager-files"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Join(dir, "gen"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(dir, "files-home-manager-files"), filepath.Join(dir, "gen", "home-files")); err != nil {
					t.Fatal(err)
				}
			},
			wantCalls: []string{check + " --adopt --option-paths " + paths + " --after-hm-link DIR/files-home-manager-files"},
		},
		{
			name: "a refusal stops the switch before writeBoundary", call: "agyconfCheck " + args + " error " + paths,
			env:       []string{"FAKE_CHECK_RC=3"},
			wantRC:    3,
			wantCalls: []string{check + " --option-paths " + paths},
			// The commands it suggests work now: ~/.config/agyconf is still
			// the current generation's config, so they name the new one.
			wantOut: []string{
				"fake check output",
				"the switch stops here, before anything changed",
				"~/.config/agyconf is still the current generation's config",
				"agyconf diff --defer-secrets --config " + cfgDir + " --root " + root + " --option-paths " + paths,
				"agyconf " + render + " --option-paths " + paths + " --force",
				"agyconf " + render + " --option-paths " + paths + " --adopt",
				"programs.agyconf.onConflict",
				"hm: removed the temporary GC root",
			},
			notOut: []string{"after"},
		},
		{
			// A path the new generation links is another option's: no
			// flag settles that, and none is suggested.
			name: "a Home Manager link is refused without a way out that breaks the next switch", call: "agyconfCheck " + args + " adopt " + paths,
			env:       []string{"FAKE_CHECK_RC=3", "FAKE_CHECK_OUT=conflict .gemini/config/hooks.json: is linked by the Home Manager generation being activated"},
			wantRC:    3,
			wantCalls: []string{check + " --adopt --option-paths " + paths},
			wantOut:   []string{"the switch stops here", "Another Home Manager option links a file agyconf writes", "keep one of the two"},
			notOut:    []string{"after", "onConflict = ", "--adopt   (take over", "--force   (overwrite"},
		},
		{
			name: "a check that cannot decide lets the switch go on", call: "agyconfCheck " + args + " error " + paths,
			env:       []string{"FAKE_CHECK_RC=2"},
			wantCalls: []string{check + " --option-paths " + paths},
			wantOut:   []string{"the check before the switch failed with exit code 2", "the switch goes on", "after"},
		},
		{
			name: "dry run: the check says what a switch would do, even a refusal", call: "agyconfCheck " + args + " force " + paths,
			env:       []string{"DRY_RUN=1", "FAKE_CHECK_RC=3"},
			wantCalls: []string{check + " --force --option-paths " + paths},
			wantOut:   []string{"dry run, nothing rendered; a switch would do:", "fake check output", "failed with exit code 3", "The dry run goes on.", "after"},
		},
		{
			name:      "render",
			call:      "agyconfActivate " + args + " error " + paths,
			wantCalls: []string{render + " --option-paths " + paths + " --quiet"},
			wantRun:   []string{"AGYCONF " + render + " --option-paths " + paths + " --quiet"},
			notOut:    []string{"agyconf: render", "the switch failed"},
		},
		{
			name:      "default mode, no map",
			call:      "agyconfActivate " + args,
			wantCalls: []string{render + " --quiet"},
			wantRun:   []string{"AGYCONF " + render + " --quiet"},
		},
		{
			name: "verbose", call: "agyconfActivate " + args + " adopt", env: []string{"VERBOSE=1"},
			wantCalls: []string{render + " --adopt"},
			wantRun:   []string{"AGYCONF " + render + " --adopt"},
			wantOut:   []string{"agyconf: AGYCONF " + render + " --adopt"},
		},
		{
			name: "dry run renders nothing", call: "agyconfActivate " + args + " force", env: []string{"DRY_RUN=1"},
			wantOut: []string{"dry run, nothing rendered"},
		},
		{
			// Home Manager's remaining steps run ("after"), its own EXIT
			// trap too; then the switch fails with the render's code and
			// the command to run again.
			name: "a failing render fails the switch at its end", call: "agyconfActivate " + args + " adopt " + paths,
			env:       []string{"FAKE_RC=2"},
			wantRC:    2,
			wantCalls: []string{render + " --adopt --option-paths " + paths + " --quiet"},
			wantRun:   []string{"AGYCONF " + render + " --adopt --option-paths " + paths + " --quiet"},
			wantOut: []string{
				"render failed, exit code 2",
				"Home Manager's remaining steps run; the switch then fails",
				"agyconf " + render + " --option-paths " + paths + " --adopt",
				"after",
				"hm: removed the temporary GC root",
				"the switch failed: agyconf render exited with code 2",
			},
		},
		{
			name: "a refusal after linking fails the switch at its end", call: "agyconfActivate " + args + " error",
			env:       []string{"FAKE_RC=3"},
			wantRC:    3,
			wantCalls: []string{render + " --quiet"},
			wantRun:   []string{"AGYCONF " + render + " --quiet"},
			wantOut:   []string{"render refused, exit code 3", "after", "exited with code 3"},
		},
		{
			name: "unknown mode", call: "agyconfActivate " + args + " merge",
			wantRC:  2,
			wantOut: []string{"unknown programs.agyconf.onConflict 'merge'"},
			notOut:  []string{"after"},
		},
		{
			name:    "clean without a state does nothing",
			call:    clean,
			env:     []string{"oldGenPath=$GEN"},
			wantOut: []string{"after"},
			notOut:  []string{"let go"},
		},
		{
			name:   "clean without a previous generation does nothing",
			call:   clean,
			setup:  oldGen(true),
			notOut: []string{"let go"},
		},
		{
			// A disabled module names no agyconf of its own: with no
			// agyconf in the previous generation there is nothing to run.
			name:   "clean after a generation without agyconf does nothing",
			call:   clean,
			env:    []string{"oldGenPath=$GEN"},
			setup:  oldGen(false),
			notOut: []string{"let go"},
		},
		{
			name:      "clean with a state runs the previous generation's agyconf",
			call:      clean,
			setup:     oldGen(true),
			env:       []string{"oldGenPath=$GEN", "FAKE_CLEAN_RC=2"},
			wantCalls: []string{cleanCall},
			wantRun:   []string{"DIR/gen/home-path/bin/agyconf " + cleanCall},
			wantOut:   []string{"clean failed with exit code 2", "Run: DIR/gen/home-path/bin/agyconf " + cleanCall, "after"},
		},
		{
			name:      "clean with nothing to let go of is quiet",
			call:      clean,
			setup:     oldGen(true),
			env:       []string{"oldGenPath=$GEN", "FAKE_CLEAN_OUT=cleaned DIR/home: nothing to do"},
			wantCalls: []string{cleanCall},
			wantRun:   []string{"DIR/gen/home-path/bin/agyconf " + cleanCall},
			notOut:    []string{"let go", "cleaned"},
		},
		{
			name:      "clean with -v says what it did",
			call:      clean,
			setup:     oldGen(true),
			env:       []string{"oldGenPath=$GEN", "VERBOSE=1", "FAKE_CLEAN_OUT=cleaned DIR/home: nothing to do"},
			wantCalls: []string{cleanCall},
			wantRun:   []string{"DIR/gen/home-path/bin/agyconf " + cleanCall},
			wantOut:   []string{"agyconf: DIR/gen/home-path/bin/agyconf " + cleanCall, "let go of what it rendered", "nothing to do"},
		},
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "home"), 0o755); err != nil {
				t.Fatal(err)
			}
			fake := filepath.Join(dir, "agyconf")
			if err := os.WriteFile(fake, []byte(activateFakeAgyconf), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			agyLog, runLog := filepath.Join(dir, "agyconf.log"), filepath.Join(dir, "run.log")
			env := []string{"FAKE_AGYCONF=" + fake, "AGYCONF_LOG=" + agyLog, "RUN_LOG=" + runLog, "HOMEDIR=" + filepath.Join(dir, "home")}
			for _, e := range tc.env {
				env = append(env, strings.ReplaceAll(e, "$GEN", filepath.Join(dir, "gen")))
			}
			rc, out := runActivation(t, bash, tc.call, env)
			if rc != tc.wantRC {
				t.Fatalf("exit code %d, want %d; output:\n%s", rc, tc.wantRC, out)
			}
			norm := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, fake, "AGYCONF"), dir, "DIR") }
			calls := activateReadLines(t, agyLog)
			for i := range calls {
				calls[i] = norm(calls[i])
			}
			if !activateEqual(calls, tc.wantCalls) {
				t.Errorf("agyconf calls %q, want %q", calls, tc.wantCalls)
			}
			runs := activateReadLines(t, runLog)
			for i := range runs {
				runs[i] = norm(runs[i])
			}
			if !activateEqual(runs, tc.wantRun) {
				t.Errorf("run calls %q, want %q", runs, tc.wantRun)
			}
			for _, want := range tc.wantOut {
				if !strings.Contains(norm(out), want) {
					t.Errorf("output lacks %q; output:\n%s", want, out)
				}
			}
			for _, not := range tc.notOut {
				if strings.Contains(norm(out), not) {
					t.Errorf("output has %q; output:\n%s", not, out)
				}
			}
		})
	}
}

// TestActivateSourcesQuietly checks that sourcing the file defines the
// functions and nothing else happens: no output, no shell options changed.
func TestActivateSourcesQuietly(t *testing.T) {
	bash := activateNeedBash(t)
	prog := `before=$(set +o); source "$1"; after=$(set +o)
[[ $before == "$after" ]] || { echo "shell options changed"; exit 1; }
for f in agyconfCheck agyconfActivate agyconfClean; do declare -F $f >/dev/null || { echo "$f not defined"; exit 1; }; done`
	out, err := exec.Command(bash, "--noprofile", "--norc", "-c", prog, "_", activateScript(t)).CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Fatalf("sourcing nix/activate.sh: %v, output %q", err, out)
	}
}

var (
	agyconfOnce sync.Once
	agyconfBin  string
	agyconfErr  error
)

// realAgyconf builds cmd/agyconf once for the tests that run it.
func realAgyconf(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("go is not on PATH (required when CI is set)")
		}
		t.Skip("go is not on PATH; to run this test: put the go toolchain on PATH, then CI=true go test ./tests/nix/")
	}
	agyconfOnce.Do(func() {
		dir, err := os.MkdirTemp("", "agyconf-activate-")
		if err != nil {
			agyconfErr = err
			return
		}
		agyconfBin = filepath.Join(dir, "agyconf")
		out, err := exec.Command("go", "build", "-o", agyconfBin, "../../cmd/agyconf").CombinedOutput()
		if err != nil {
			agyconfErr = &buildError{err, out}
		}
	})
	if agyconfErr != nil {
		t.Fatal(agyconfErr)
	}
	return agyconfBin
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

// snapshot lists every path under root with its kind and content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = "link " + target
		case d.IsDir():
			m[rel] = "dir"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = "file " + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestActivateAgyconf runs the snippets with the real agyconf on a home
// shaped as Home Manager leaves it: programs.antigravity-cli's old
// mcp_config.json link into the generation being replaced, a remote
// server's header secret not decrypted yet.
func TestActivateAgyconf(t *testing.T) {
	bash := activateNeedBash(t)
	agyconf := realAgyconf(t)

	setup := func(t *testing.T) (dir, home, cfg string, env []string) {
		dir = t.TempDir()
		home = filepath.Join(dir, "home")
		cfg = filepath.Join(dir, "config")
		oldFiles := filepath.Join(dir, "nix", "store", "old-home-manager-files")
		newFiles := filepath.Join(dir, "nix", "store", "new-home-manager-files")
		for _, d := range []string{filepath.Join(home, ".gemini", "config"), filepath.Join(oldFiles, ".gemini", "config"), newFiles, cfg, filepath.Join(dir, "gen"), filepath.Join(dir, "run", "secrets")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		write := func(p, s string) {
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write(filepath.Join(oldFiles, ".gemini", "config", "mcp_config.json"), `{"mcpServers": {"old": {"command": "old"}}}`)
		if err := os.Symlink(filepath.Join(oldFiles, ".gemini", "config", "mcp_config.json"), filepath.Join(home, ".gemini", "config", "mcp_config.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(newFiles, filepath.Join(dir, "gen", "home-files")); err != nil {
			t.Fatal(err)
		}
		write(filepath.Join(cfg, "agyconf.json"), `{
  "agyconf": {
    "instance": "home-manager",
    "scope": "global"
  },
  "mcp_server": {
    "docs": {
      "command": "docs-mcp"
    },
    "linear": {
      "headers": {
        "Authorization": "${secret_file(\"%r/secrets/linear\")}"
      },
      "secret_mode": "inline",
      "server_url": "https://mcp.linear.app/sse"
    }
  }
}
`)
		write(filepath.Join(cfg, "option-paths"), `{"agyconf.json": {"/mcp_server/linear": "programs.agyconf.mcpServers.linear"}}`)
		env = []string{"HOME=" + home, "XDG_RUNTIME_DIR=" + filepath.Join(dir, "run"), "RUN_LOG=" + filepath.Join(dir, "run.log"), "AGYCONF=" + agyconf, "CFG=" + cfg}
		return dir, home, cfg, env
	}
	const args = `"$AGYCONF" "$CFG" "$HOME" error "$CFG/option-paths"`

	t.Run("the check does not count the replaced generation's link", func(t *testing.T) {
		dir, _, _, env := setup(t)
		rc, out := runActivation(t, bash, "agyconfCheck "+args, append(env, "newGenPath="+filepath.Join(dir, "gen")))
		if rc != 0 || !strings.Contains(out, "after") {
			t.Fatalf("exit %d:\n%s", rc, out)
		}
		// Without knowing the generation, the link is a conflict: the
		// switch stops before anything changed.
		before := snapshot(t, dir)
		rc, out = runActivation(t, bash, "agyconfCheck "+args, env)
		if rc != 3 || strings.Contains(out, "after") || !strings.Contains(out, "is a link into a Home Manager generation") {
			t.Fatalf("exit %d, want 3:\n%s", rc, out)
		}
		if after := snapshot(t, dir); !mapsEqual(before, after) {
			t.Errorf("the check changed files")
		}
	})

	// The first switch is when a file agyconf did not write is most
	// likely, and when sops-nix or agenix has not decrypted an inline
	// secret yet: the render commands the refusal suggests work then.
	t.Run("the refusal's commands work while a secret is pending", func(t *testing.T) {
		dir, home, _, env := setup(t)
		mcp := filepath.Join(home, ".gemini", "config", "mcp_config.json")
		if err := os.Remove(mcp); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mcp, []byte(`{"mcpServers": {"docs": {"command": "mine"}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		env = append(env, "newGenPath="+filepath.Join(dir, "gen"))
		rc, out := runActivation(t, bash, "agyconfCheck "+args, env)
		if rc != 3 {
			t.Fatalf("exit %d, want 3:\n%s", rc, out)
		}
		var cmds []string
		var diff string
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "agyconf render ") {
				cmds = append(cmds, `"$AGYCONF"`+strings.TrimPrefix(strings.SplitN(l, "   (", 2)[0], "agyconf"))
			}
			if strings.HasPrefix(l, "agyconf diff ") {
				diff = `"$AGYCONF"` + strings.TrimPrefix(l, "agyconf")
			}
		}
		if len(cmds) != 2 || diff == "" {
			t.Fatalf("want the diff and the --force and --adopt renders suggested:\n%s", out)
		}
		// The diff first, as the advice lists it: it shows the take-over.
		if rc, out := runActivation(t, bash, diff, env); rc != 0 || !strings.Contains(out, "docs-mcp") {
			t.Errorf("%s: exit %d, want 0 and the diff of the take-over\n%s", diff, rc, out)
		}
		for _, c := range []string{cmds[1], cmds[0]} {
			if rc, out := runActivation(t, bash, c, env); rc != 0 {
				t.Errorf("%s: exit %d\n%s", c, rc, out)
			}
		}
		if b, _ := os.ReadFile(mcp); !strings.Contains(string(b), "docs-mcp") {
			t.Errorf("the suggested render did not take the file over:\n%s", b)
		}
	})

	t.Run("a dry run writes nothing and goes on", func(t *testing.T) {
		dir, _, _, env := setup(t)
		env = append(env, "DRY_RUN=1", "newGenPath="+filepath.Join(dir, "gen"))
		before := snapshot(t, dir)
		rc, out := runActivation(t, bash, "agyconfCheck "+args+"\nagyconfActivate "+args, env)
		if rc != 0 || !strings.Contains(out, "after") {
			t.Fatalf("exit %d:\n%s", rc, out)
		}
		for _, want := range []string{"a switch would do:", "create    .gemini/config/mcp_config.json mcpServers.docs", "pending .gemini/config/mcp_config.json mcpServers.linear", "dry run, nothing rendered"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if after := snapshot(t, dir); !mapsEqual(before, after) {
			t.Errorf("the dry run changed files:\nbefore %v\nafter %v", before, after)
		}
	})

	t.Run("a secret not decrypted yet does not fail the switch", func(t *testing.T) {
		dir, home, _, env := setup(t)
		// As after linkGeneration: the old link is gone.
		if err := os.Remove(filepath.Join(home, ".gemini", "config", "mcp_config.json")); err != nil {
			t.Fatal(err)
		}
		rc, out := runActivation(t, bash, "agyconfActivate "+args, env)
		if rc != 0 || !strings.Contains(out, "after") || !strings.Contains(out, "pending .gemini/config/mcp_config.json mcpServers.linear") {
			t.Fatalf("exit %d:\n%s", rc, out)
		}
		state, err := os.ReadFile(filepath.Join(home, ".local", "state", "agyconf", "home-manager.json"))
		if err != nil || !strings.Contains(string(state), `"%r/secrets/linear"`) {
			t.Fatalf("the state does not list what waits: %v\n%s", err, state)
		}
		// It appears (what the path unit reacts to): the same command the
		// unit runs writes it.
		if err := os.WriteFile(filepath.Join(dir, "run", "secrets", "linear"), []byte("Bearer canary-9\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		rc, out = runActivation(t, bash, "agyconfActivate "+args, env)
		mcp, _ := os.ReadFile(filepath.Join(home, ".gemini", "config", "mcp_config.json"))
		if rc != 0 || !strings.Contains(string(mcp), "Bearer canary-9") {
			t.Fatalf("exit %d:\n%s\n%s", rc, out, mcp)
		}
	})

	t.Run("a failing render fails the switch once the rest ran", func(t *testing.T) {
		_, home, _, env := setup(t)
		mcp := filepath.Join(home, ".gemini", "config", "mcp_config.json")
		if err := os.Remove(mcp); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mcp, []byte("{ not json"), 0o644); err != nil {
			t.Fatal(err)
		}
		rc, out := runActivation(t, bash, "agyconfActivate "+args, env)
		if rc != 2 {
			t.Fatalf("exit %d, want 2:\n%s", rc, out)
		}
		i, j := strings.Index(out, "after"), strings.Index(out, "the switch failed")
		if i < 0 || j < i || !strings.Contains(out, "agyconf never rewrites a file it cannot read") || !strings.Contains(out, "hm: removed the temporary GC root") {
			t.Errorf("want the message, then Home Manager's remaining steps, then the failure:\n%s", out)
		}
		if b, _ := os.ReadFile(mcp); string(b) != "{ not json" {
			t.Errorf("the unreadable file changed: %q", b)
		}
	})

	// docs/nix.md's one step from a CLI config at ~/.config/agyconf (the
	// instance default) to the module: then the module's first switch is
	// refused nowhere.
	t.Run("coming from a CLI config", func(t *testing.T) {
		dir, home, _, env := setup(t)
		if err := os.Remove(filepath.Join(home, ".gemini", "config", "mcp_config.json")); err != nil {
			t.Fatal(err)
		}
		cli := filepath.Join(home, ".config", "agyconf")
		if err := os.MkdirAll(cli, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cli, "agyconf.hcl"), []byte("agyconf {\n  scope = \"global\"\n}\nmcp_server \"docs\" {\n  command = \"docs-mcp\"\n}\nmcp_server \"old\" {\n  command = \"old-mcp\"\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(agyconf, "render", "--config", cli, "--root", home)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the CLI config's render: %v\n%s", err, out)
		}
		// Without the step, the module's check refuses: the entries are
		// the instance default's.
		rc, out := runActivation(t, bash, "agyconfCheck "+args, append(env, "newGenPath="+filepath.Join(dir, "gen")))
		if rc != 3 || !strings.Contains(out, `belongs to the config instance "default"`) {
			t.Fatalf("the check without the step: exit %d\n%s", rc, out)
		}
		doc, err := os.ReadFile("../../docs/nix.md")
		if err != nil {
			t.Fatal(err)
		}
		const step = "agyconf render --config ~/.config/agyconf --instance home-manager --take-over default && mv ~/.config/agyconf ~/agyconf-cli && home-manager switch\n"
		if !strings.Contains(string(doc), step) {
			t.Fatalf("docs/nix.md no longer has the step this test runs: %q", step)
		}
		shell := strings.ReplaceAll(strings.TrimSuffix(step, " && home-manager switch\n"), "agyconf render", `"$AGYCONF" render`)
		if rc, out := runActivation(t, bash, shell, env); rc != 0 {
			t.Fatalf("the step: exit %d\n%s", rc, out)
		}
		rc, out = runActivation(t, bash, "agyconfCheck "+args+"\nagyconfActivate "+args, append(env, "newGenPath="+filepath.Join(dir, "gen")))
		if rc != 0 || strings.Contains(out, "conflict") {
			t.Fatalf("the first switch after the step: exit %d\n%s", rc, out)
		}
		mcp, _ := os.ReadFile(filepath.Join(home, ".gemini", "config", "mcp_config.json"))
		if !strings.Contains(string(mcp), "docs-mcp") || strings.Contains(string(mcp), "old-mcp") {
			t.Errorf("after the switch: the module's docs stays, the CLI config's old goes:\n%s", mcp)
		}
		if _, err := os.Stat(filepath.Join(home, "agyconf-cli", "agyconf.hcl")); err != nil {
			t.Errorf("the CLI config was not moved aside: %v", err)
		}
	})

	t.Run("disabled: the previous generation's agyconf lets go of what the instance rendered", func(t *testing.T) {
		dir, home, cfg, env := setup(t)
		if err := os.Remove(filepath.Join(home, ".gemini", "config", "mcp_config.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "run", "secrets", "linear"), []byte("Bearer canary-9\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if rc, out := runActivation(t, bash, "agyconfActivate "+args, env); rc != 0 {
			t.Fatalf("render: exit %d\n%s", rc, out)
		}
		// The generation that rendered: agyconf in its profile, its
		// config where the module links it.
		old := filepath.Join(dir, "old-generation")
		for _, d := range []string{filepath.Join(old, "home-path", "bin"), filepath.Join(old, "home-files", ".config")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(agyconf, filepath.Join(old, "home-path", "bin", "agyconf")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(cfg, filepath.Join(old, "home-files", ".config", "agyconf")); err != nil {
			t.Fatal(err)
		}
		const call = `agyconfClean "$HOME" .local/state/agyconf/home-manager.json home-files/.config/agyconf`
		rc, out := runActivation(t, bash, call, append(env, "oldGenPath="+old))
		if rc != 0 || !strings.Contains(out, "after") || !strings.Contains(out, "let go of what it rendered") || !strings.Contains(out, "prune") {
			t.Fatalf("exit %d:\n%s", rc, out)
		}
		if mcp, _ := os.ReadFile(filepath.Join(home, ".gemini", "config", "mcp_config.json")); strings.Contains(string(mcp), "docs") || strings.Contains(string(mcp), "linear") {
			t.Errorf("clean left agyconf's entries:\n%s", mcp)
		}
		// Again from the same generation: nothing to let go of, nothing said.
		rc, out = runActivation(t, bash, call, append(env, "oldGenPath="+old))
		if rc != 0 || out != "after\nhm: removed the temporary GC root\n" {
			t.Errorf("a second clean says something (exit %d):\n%s", rc, out)
		}
		// The next switch replaces a disabled generation, which has no
		// agyconf: nothing runs.
		disabled := filepath.Join(dir, "disabled-generation")
		if err := os.MkdirAll(filepath.Join(disabled, "home-path", "bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, out = runActivation(t, bash, call, append(env, "oldGenPath="+disabled, "VERBOSE=1"))
		if rc != 0 || out != "after\nhm: removed the temporary GC root\n" {
			t.Errorf("a switch after a disabled generation runs something (exit %d):\n%s", rc, out)
		}
	})

	// Home Manager's modules are quiet unless -v: a switch that changes
	// nothing prints nothing of agyconf's; with -v, each command and its
	// report.
	t.Run("a switch with nothing changed is quiet", func(t *testing.T) {
		dir, home, _, env := setup(t)
		if err := os.Remove(filepath.Join(home, ".gemini", "config", "mcp_config.json")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "run", "secrets", "linear"), []byte("Bearer canary-9\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "newGenPath="+filepath.Join(dir, "gen"))
		const sw = "agyconfCheck " + args + "\nagyconfActivate " + args
		rc, first := runActivation(t, bash, sw, env)
		if rc != 0 || first != "after\nhm: removed the temporary GC root\n" {
			t.Errorf("the first switch (it creates): exit %d\n%s", rc, first)
		}
		rc, quiet := runActivation(t, bash, sw, env)
		if rc != 0 || quiet != "after\nhm: removed the temporary GC root\n" {
			t.Errorf("a switch with nothing changed: exit %d\n%s", rc, quiet)
		}
		rc, verbose := runActivation(t, bash, sw, append(env, "VERBOSE=1"))
		for _, want := range []string{"agyconf: " + agyconf + " render --dry-run", "would render into " + home + ": 2 unchanged", "agyconf: " + agyconf + " render --defer-secrets", "rendered into " + home + ": 2 unchanged"} {
			if rc != 0 || !strings.Contains(verbose, want) {
				t.Errorf("with -v: exit %d, lacks %q\n%s", rc, want, verbose)
			}
		}
		t.Logf("a switch with nothing changed:\n%s", quiet)
		t.Logf("the same with -v (VERBOSE):\n%s", verbose)
	})

	// The new generation links a file agyconf writes (a collision the
	// module's evaluation cannot see, say inside a folder another option
	// links file by file): the check refuses even with onConflict =
	// "adopt", and suggests no flag.
	t.Run("a link of the new generation is refused whatever onConflict says", func(t *testing.T) {
		dir, home, cfg, env := setup(t)
		newFiles := filepath.Join(dir, "nix", "store", "new-home-manager-files", ".gemini", "config")
		if err := os.MkdirAll(newFiles, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(newFiles, "mcp_config.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		before := snapshot(t, dir)
		call := `agyconfCheck "$AGYCONF" "$CFG" "$HOME" adopt "$CFG/option-paths"`
		rc, out := runActivation(t, bash, call, append(env, "newGenPath="+filepath.Join(dir, "gen")))
		if rc != 3 || strings.Contains(out, "after") {
			t.Fatalf("exit %d, want 3:\n%s", rc, out)
		}
		for _, want := range []string{"is linked by the Home Manager generation being activated", "keep one of the two"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		for _, not := range []string{"pass --adopt", "onConflict = \"adopt\"", "--config " + cfg + " --root " + home + " --adopt"} {
			if strings.Contains(out, not) {
				t.Errorf("output suggests %q, which would break the next switch:\n%s", not, out)
			}
		}
		if after := snapshot(t, dir); !mapsEqual(before, after) {
			t.Errorf("the check changed files")
		}
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
