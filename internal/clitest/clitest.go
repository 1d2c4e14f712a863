// Package clitest is what the end-to-end scripts (testscript) of
// internal/cli and tests/hostile share: the agyconf and agyhook commands
// as the test binary provides them, and the commands scripts use to check
// exit codes. Only tests import it.
package clitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agyconf/agyconf/internal/agyhook"
	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/testhome"
)

// exitCodeFile is where the agyconf command of the scripts records the code
// it exits with, inside the script's own $WORK/.tmp, for the exitcode
// command to check. testscript's `! exec` only asserts "non-zero", and exact
// codes are part of agyconf's contract (docs/cli.md, "Exit codes").
const exitCodeFile = "agyconf.exitcode"

// DeadlineEnv, when set to a number of seconds, makes the agyconf command
// exit with HungExit and a message if it runs longer: how the hostile
// scripts show that no input makes agyconf hang.
const DeadlineEnv = "AGYCONF_TEST_DEADLINE"

// HungExit is the exit code of an agyconf command that ran past its
// deadline; no documented exit code is this.
const HungExit = 99

// OwnedLintExit is the exit code of an agyconf command whose render wrote
// an entry the linter calls an error; no documented exit code is this.
const OwnedLintExit = 98

// renderedRoot is the --root of a plain render (not --check or
// --dry-run) among a command line's arguments.
func renderedRoot(args []string) (string, bool) {
	if len(args) == 0 || args[0] != "render" {
		return "", false
	}
	root := ""
	for i, a := range args {
		switch {
		case a == "--check" || a == "--dry-run":
			return "", false
		case a == "--root" && i+1 < len(args):
			root = args[i+1]
		case strings.HasPrefix(a, "--root="):
			root = strings.TrimPrefix(a, "--root=")
		}
	}
	return root, root != ""
}

// Main is the TestMain of a package whose scripts exec agyconf and
// agyhook: the test binary runs them when called by those names, with the
// environment the script gives them, and runs the tests (as `go test`
// started it) with HOME and the XDG folders pointing at a scratch home
// (testhome), never the user's.
func Main(m testscript.TestingM) {
	testscript.Main(testhome.Wrap(m), Commands())
}

// Commands are the programs a script can exec: agyconf and agyhook, run
// by the test binary (testscript.Main).
func Commands() map[string]func() {
	return map[string]func(){
		// agyhook, for scripts that run rendered hooks as agy would. It
		// must not start its detached mine supervisor here: that re-execs
		// os.Executable, which is this test binary.
		"agyhook": func() {
			os.Exit(agyhook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, agyhook.OSEnv("test")))
		},
		"agyconf": func() {
			if s := os.Getenv(DeadlineEnv); s != "" {
				secs, err := strconv.Atoi(s)
				if err != nil {
					panic(err)
				}
				go func() {
					time.Sleep(time.Duration(secs) * time.Second)
					fmt.Fprintf(os.Stderr, "agyconf: still running after %d s: hung\n", secs)
					os.Exit(HungExit)
				}()
			}
			code := cli.Main(os.Args, os.Stdout, os.Stderr)
			if code == 0 {
				if root, ok := renderedRoot(os.Args[1:]); ok {
					// render never writes what validate calls an error.
					bad, err := OwnedLintErrors(root)
					if err != nil {
						fmt.Fprintf(os.Stderr, "agyconf (test): linting what render wrote: %v\n", err)
						os.Exit(OwnedLintExit)
					}
					if len(bad) > 0 {
						fmt.Fprintf(os.Stderr, "agyconf (test): render wrote what validate calls an error:\n  %s\n", strings.Join(bad, "\n  "))
						os.Exit(OwnedLintExit)
					}
				}
			}
			if work := os.Getenv("WORK"); work != "" {
				// Best effort: a missing record fails the exitcode command.
				_ = os.WriteFile(filepath.Join(work, ".tmp", exitCodeFile), []byte(strconv.Itoa(code)), 0o644)
			}
			os.Exit(code)
		},
	}
}

// ExitCode is the script command
//
//	exitcode N
//
// which asserts that the last `exec agyconf …` exited with exactly N, and
// forgets that code, so a second exitcode without a new exec fails.
func ExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: exitcode N: %v", err)
	}
	file := filepath.Join(ts.Getenv("WORK"), ".tmp", exitCodeFile)
	data, err := os.ReadFile(file)
	if err != nil {
		ts.Fatalf("no exit code recorded: run exec agyconf first (%v)", err)
	}
	ts.Check(os.Remove(file))
	got, err := strconv.Atoi(strings.TrimSpace(string(data)))
	ts.Check(err)
	if got != want {
		ts.Fatalf("agyconf exited with %d, want %d", got, want)
	}
}

// StateV1 is the script command
//
//	statev1 SRC DST
//
// which writes to DST the state SRC (version 2) as an agyconf before
// version 2 of the state wrote it: no instance, config, origins, originals
// or backups, one pending hash. Scripts use it to show that such a state
// migrates.
func StateV1(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: statev1 SRC DST")
	}
	var v2 struct {
		Files map[string]struct {
			SHA256  string   `json:"sha256"`
			Block   bool     `json:"block,omitempty"`
			Item    bool     `json:"item,omitempty"`
			Secrets []string `json:"secrets,omitempty"`
			Pending []string `json:"pending,omitempty"`
		} `json:"files"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &v2))
	type fileV1 struct {
		SHA256  string   `json:"sha256"`
		Block   bool     `json:"block,omitempty"`
		Item    bool     `json:"item,omitempty"`
		Secrets []string `json:"secrets,omitempty"`
		Pending string   `json:"pending,omitempty"`
	}
	v1 := struct {
		Version int               `json:"version"`
		Files   map[string]fileV1 `json:"files"`
	}{Version: 1, Files: map[string]fileV1{}}
	for k, f := range v2.Files {
		g := fileV1{SHA256: f.SHA256, Block: f.Block, Item: f.Item, Secrets: f.Secrets}
		if len(f.Pending) > 0 {
			g.Pending = f.Pending[0]
		}
		v1.Files[k] = g
	}
	data, err := json.MarshalIndent(v1, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), append(data, '\n'), 0o644))
}

// StateFlatAgents is the script command
//
//	stateflat ROOT STATE VERSION
//
// which turns the tree under ROOT and its state STATE into what an
// agyconf before subagent folders left, with a state of VERSION (an older
// shape the current one reads as it is): every subagent the state records
// as .../agents/<name>/agent.md is moved to .../agents/<name>.md and
// recorded there. Scripts use it to show that such a tree and state
// migrate.
func StateFlatAgents(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: stateflat ROOT STATE VERSION")
	}
	version, err := strconv.Atoi(args[2])
	ts.Check(err)
	var st map[string]any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &st))
	files, _ := st["files"].(map[string]any)
	root := ts.MkAbs(args[0])
	var keys []string
	for k := range files {
		keys = append(keys, k)
	}
	for _, k := range keys {
		dir, ok := strings.CutSuffix(k, "/agent.md")
		if !ok || filepath.Base(filepath.Dir(dir)) != "agents" {
			continue
		}
		flat := dir + ".md"
		ts.Check(os.Rename(filepath.Join(root, filepath.FromSlash(k)), filepath.Join(root, filepath.FromSlash(flat))))
		ts.Check(os.Remove(filepath.Join(root, filepath.FromSlash(dir))))
		files[flat] = files[k]
		delete(files, k)
	}
	st["version"] = version
	if version < 5 {
		// What states from version 5 on record, and older ones did not.
		for _, k := range []string{"layout", "shared", "folders", "gone"} {
			delete(st, k)
		}
		for _, f := range files {
			if m, ok := f.(map[string]any); ok {
				delete(m, "earlier")
				delete(m, "secrets_before")
			}
		}
	}
	if version < 6 {
		// What states from version 6 on record, and older ones did not.
		if shared, ok := st["shared"].(map[string]any); ok {
			for _, f := range shared {
				if m, ok := f.(map[string]any); ok {
					delete(m, "containers")
				}
			}
		}
	}
	data, err := json.MarshalIndent(st, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), append(data, '\n'), 0o644))
}

// CmpJSON is the script command
//
//	cmpjson A B
//
// which asserts that the files A and B hold the same JSON value, whatever
// their formatting and key order: what a file given back holds, against
// what the user had.
func CmpJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpjson A B")
	}
	var a, b any
	da, db := ts.ReadFile(args[0]), ts.ReadFile(args[1])
	if err := json.Unmarshal([]byte(da), &a); err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	if err := json.Unmarshal([]byte(db), &b); err != nil {
		ts.Fatalf("%s: %v", args[1], err)
	}
	same := reflect.DeepEqual(a, b)
	switch {
	case same && neg:
		ts.Fatalf("%s and %s hold the same JSON", args[0], args[1])
	case !same && !neg:
		ts.Fatalf("%s and %s differ:\n%s\n---\n%s", args[0], args[1], da, db)
	}
}
