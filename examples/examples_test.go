// Tests of the bundled examples. Each examples/<name>/ is a config (its
// *.hcl and *.json files; agyconf reads no subfolder as config) and
// examples/<name>/expected/ is the tree agyconf renders from it, with
// agyconf's state file, so that
//
//	agyconf render --config examples/<name> --root examples/<name>/expected --check
//
// exits 0, as a user's CI would run it. The tests run that check (on a copy,
// so the lock a check takes stays out of the source tree), render each
// example into an empty root and compare the result with expected/ file by
// file, render it a second time (which must change nothing) and lint the
// result with `agyconf validate`.
//
// examples/nix-module/agyconf.json is the model the Home Manager module
// generates from examples/nix-module/home.nix; TestHomeManagerModel evaluates it
// with nix-instantiate (skipped without it, unless CI is set).
//
// Regenerate everything with
//
//	AGYCONF_UPDATE_EXAMPLES=1 go test ./examples/
//
// (or go test ./examples/ -update).
package examples_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/lint"
)

var updateFlag = flag.Bool("update", false, "rewrite every examples/<name>/expected tree and examples/nix-module/agyconf.json")

// updateEnv is the environment variable that does what -update does, as
// AGYCONF_UPDATE_README and AGYCONF_UPDATE_DOCS do for their files.
const updateEnv = "AGYCONF_UPDATE_EXAMPLES"

func update() bool { return *updateFlag || os.Getenv(updateEnv) != "" }

// expectedDir is the folder of an example's rendered tree.
const expectedDir = "expected"

// machineLocal reports whether a path below a render root is one agyconf
// keeps on the machine and never in expected/: the lock a render or check
// takes and the cache a render leaves, both beside the state.
func machineLocal(rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for i, p := range parts {
		if i > 0 && (parts[i-1] == "agyconf" || parts[i-1] == ".agyconf") && (p == "lock" || p == "cache") {
			return true
		}
	}
	return false
}

// examples lists the example folders: every folder here with a config file
// directly inside.
func examples(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if len(configFiles(t, e.Name())) > 0 {
			out = append(out, e.Name())
		}
	}
	for _, want := range []string{"global", "harnesses", "nix-json", "nix-module", "plugin", "workspace"} {
		if !contains(out, want) {
			t.Errorf("example %s is missing", want)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// configFiles returns an example's config files, as agyconf reads a folder:
// *.hcl and *.json directly inside it, hidden files skipped.
func configFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && !strings.HasPrefix(n, ".") && (strings.HasSuffix(n, ".hcl") || strings.HasSuffix(n, ".json")) {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// agyconf runs the agyconf command in this process and returns its exit
// code and output.
func agyconf(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Main(append([]string{"agyconf"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestHomeManagerModel: examples/nix-module/agyconf.json is what the Home
// Manager module generates from examples/nix-module/home.nix, byte for
// byte: the scenario example-nix-module of tests/nix/scenarios.nix,
// evaluated with tests/nix's stand-ins for Home Manager (tests/nix also
// evaluates it in the real one, in the nixlab). It runs before
// TestExamples, so an update regenerates the model before the tree
// rendered from it.
func TestHomeManagerModel(t *testing.T) {
	nix, err := exec.LookPath("nix-instantiate")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("nix-instantiate is not on PATH, and CI is set: %v", err)
		}
		t.Skipf("nix-instantiate is not on PATH (set CI to make this a failure): %v", err)
	}
	cmd := exec.Command(nix, "--eval", "--strict", "--json", "--store", "dummy://", "../tests/nix/standin/eval.nix",
		"--arg", "scenarios", "../tests/nix/scenarios.nix", "--argstr", "name", "example-nix-module")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("evaluating examples/nix-module/home.nix through the module: %v\n%s", err, stderr.String())
	}
	var summary struct {
		Generated struct {
			JSON string `json:"json"`
		} `json:"generated"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &summary); err != nil || summary.Generated.JSON == "" {
		t.Fatalf("the evaluation printed no generated model: %v", err)
	}
	got := []byte(summary.Generated.JSON)
	path := filepath.Join("nix-module", "agyconf.json")
	if update() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("examples/nix-module/agyconf.json is not what the module generates from home.nix (-committed +evaluated; %s=1 go test ./examples/ rewrites it):\n%s", updateEnv, diff)
	}
}

// TestExamples checks every example against its expected tree.
func TestExamples(t *testing.T) {
	for _, name := range examples(t) {
		t.Run(name, func(t *testing.T) {
			expected := filepath.Join(name, expectedDir)
			if update() {
				regenerate(t, name, expected)
			}
			checkHeader(t, name)

			// The check a user's CI runs, on a copy of expected/.
			copyRoot := t.TempDir()
			copyTree(t, expected, copyRoot)
			applyModes(t, name, copyRoot)
			code, stdout, stderr := agyconf("render", "--config", name, "--root", copyRoot, "--check")
			if code != cli.ExitOK || !strings.HasSuffix(strings.TrimSpace(stdout), ": in sync") {
				t.Errorf("agyconf render --config examples/%s --root examples/%s --check: exit %d, want 0 (%s=1 go test ./examples/ regenerates expected/)\n%s%s", name, expected, code, updateEnv, stdout, stderr)
			}

			// A fresh render gives exactly expected/, and a second one
			// changes nothing.
			root := t.TempDir()
			if code, stdout, stderr := agyconf("render", "--config", name, "--root", root); code != cli.ExitOK {
				t.Fatalf("render: exit %d\n%s%s", code, stdout, stderr)
			}
			if got, err := os.ReadFile(filepath.Join(name, modesFile)); err != nil || string(got) != modesOf(t, root) {
				t.Errorf("examples/%s/%s does not list the modes a fresh render gives (%s=1 go test ./examples/ rewrites it):\n%s\nwant:\n%s", name, modesFile, updateEnv, got, modesOf(t, root))
			}
			if diff := cmp.Diff(readTree(t, expected), readTree(t, root)); diff != "" {
				t.Errorf("a fresh render of examples/%s differs from examples/%s (-expected +rendered; %s=1 go test ./examples/ rewrites it):\n%s", name, expected, updateEnv, diff)
			}
			code, stdout, stderr = agyconf("render", "--config", name, "--root", root)
			if code != cli.ExitOK || !secondRender.MatchString(strings.TrimSpace(stdout)) {
				t.Errorf("a second render of examples/%s changed something: exit %d\n%s%s", name, code, stdout, stderr)
			}

			// A tree agyconf rendered has no findings, judged for the
			// oldest agy the example says it must load on, but for the
			// programs the examples name on a user's machine, which
			// validate looks up on this one.
			args := []string{"validate", "--strict", "--format", "json"}
			if v := agyVersionOf(t, name); v != "" {
				args = append(args, "--agy-version", v)
			}
			args = append(args, root)
			code, stdout, stderr = agyconf(args...)
			var report struct {
				Findings []lint.Finding `json:"findings"`
			}
			if err := json.Unmarshal([]byte(stdout), &report); err != nil {
				t.Fatalf("agyconf validate --format json on the rendered examples/%s: exit %d, %v\n%s%s", name, code, err, stdout, stderr)
			}
			for _, f := range report.Findings {
				if !strings.HasSuffix(f.Rule, "/command-not-found") {
					t.Errorf("agyconf validate on the rendered examples/%s: %s:%d:%d %s: %s", name, f.File, f.Line, f.Column, f.Rule, f.Message)
				}
			}
		})
	}
}

// agyVersionRE finds agyconf { agy_version } in an example's config, HCL
// or its JSON form.
var agyVersionRE = regexp.MustCompile(`"?agy_version"?\s*[=:]\s*"([^"]+)"`)

// agyVersionOf is the agy_version an example's config sets, "" if none.
func agyVersionOf(t *testing.T, name string) string {
	t.Helper()
	for _, f := range []string{"agyconf.hcl", "agyconf.json"} {
		data, err := os.ReadFile(filepath.Join(name, f))
		if err != nil {
			continue
		}
		if m := agyVersionRE.FindSubmatch(data); m != nil {
			return string(m[1])
		}
	}
	return ""
}

var secondRender = regexp.MustCompile(`^rendered into .*: ([0-9]+ unchanged|nothing to do .*)$`)

// checkHeader: every example says in its files (a config's header comment,
// or home.nix for the one whose config is generated) what it shows and the
// command to try.
func checkHeader(t *testing.T, name string) {
	t.Helper()
	want := "render --config examples/" + name + " --root"
	files, err := filepath.Glob(filepath.Join(name, "*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(want)) {
			return
		}
	}
	t.Errorf("no config file of examples/%s names the command to try (%q…)", name, want)
}

// regenerate renders an example into a new expected/ and drops what stays
// on the machine (lock, cache).
func regenerate(t *testing.T, name, expected string) {
	t.Helper()
	if err := os.RemoveAll(expected); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(expected, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := agyconf("render", "--config", name, "--root", expected); code != cli.ExitOK {
		t.Fatalf("render into %s: exit %d\n%s%s", expected, code, stdout, stderr)
	}
	var local []string
	err := filepath.WalkDir(expected, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(expected, p)
		if machineLocal(rel) {
			local = append(local, p)
			if d.IsDir() {
				return fs.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range local {
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
	}
	// A state records where its config was: for these examples, rendered
	// from the source tree into expected/, a path of this checkout, which
	// expected/ leaves out (readTree compares without it).
	states, _ := filepath.Glob(filepath.Join(expected, ".local/state/agyconf/*.json"))
	ws, _ := filepath.Glob(filepath.Join(expected, ".agyconf/*.json"))
	for _, p := range append(states, ws...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, withoutConfigPath(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(name, modesFile), []byte(modesOf(t, expected)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// isState reports whether a path below a render root is one of agyconf's
// states.
func isState(rel string) bool {
	return path.Ext(rel) == ".json" && (path.Dir(rel) == ".local/state/agyconf" || path.Dir(rel) == ".agyconf")
}

// withoutConfigPath drops the line of a state that records an absolute
// config path (one outside the root, of this machine).
func withoutConfigPath(b []byte) []byte {
	var out []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.HasPrefix(l, `  "config": "/`) {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, ""))
}

// modesFile lists, beside expected/, the modes of its files other than
// 0644, one "MODE PATH" a line: git keeps only the executable bit, and a
// file that holds inline credentials must be 0600 (render --check reports
// a wider mode). The CI step and copyTree give them back.
const modesFile = "modes.txt"

// modesOf lists the modes of the files below root other than 0644.
func modesOf(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if machineLocal(rel) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if m := fi.Mode().Perm(); m != 0o644 {
			fmt.Fprintf(&b, "%04o %s\n", m, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// applyModes gives the files below root the modes an example's modes.txt
// lists.
func applyModes(t *testing.T, name, root string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(name, modesFile))
	if err != nil {
		t.Fatalf("%v (%s=1 go test ./examples/ writes it)", err, updateEnv)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		mode, rel, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		m, err := strconv.ParseUint(mode, 8, 32)
		if err != nil {
			t.Fatalf("%s: %q: %v", modesFile, line, err)
		}
		if err := os.Chmod(filepath.Join(root, filepath.FromSlash(rel)), fs.FileMode(m)); err != nil {
			t.Fatal(err)
		}
	}
}

// readTree maps every regular file below root (machine-local ones left
// out) to its text. Anything else — a link, a device — is an error:
// agyconf writes regular files and folders only.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel != "." && machineLocal(rel) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file", p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if isState(filepath.ToSlash(rel)) {
			b = withoutConfigPath(b)
		}
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s does not exist (%s=1 go test ./examples/ creates it)", root, updateEnv)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// copyTree copies the regular files and folders of src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	for rel, text := range readTree(t, src) {
		p := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
