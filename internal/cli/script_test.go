package cli

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agyconf/agyconf/internal/agyhook"
)

var update = flag.Bool("u", false, "update testscript files with the actual output")

// exitCodeFile is where the agyconf command of the scripts records the code
// it exits with, inside the script's own $WORK/.tmp, for the exitcode
// command to check. testscript's `! exec` only asserts "non-zero", and exact
// codes are part of agyconf's contract (docs/cli.md, "Exit codes").
const exitCodeFile = "agyconf.exitcode"

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		// agyhook, for scripts that run rendered hooks as agy would. It
		// must not start its detached mine supervisor here: that re-execs
		// os.Executable, which is this test binary.
		"agyhook": func() {
			os.Exit(agyhook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, agyhook.OSEnv("test")))
		},
		"agyconf": func() {
			code := Main(os.Args, os.Stdout, os.Stderr)
			if work := os.Getenv("WORK"); work != "" {
				// Best effort: a missing record fails the exitcode command.
				_ = os.WriteFile(filepath.Join(work, ".tmp", exitCodeFile), []byte(strconv.Itoa(code)), 0o644)
			}
			os.Exit(code)
		},
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: each is the
// agyconf binary run as a user would, against files laid out by the script.
//
// Besides testscript's built-in commands the scripts have one more:
//
//	exitcode N
//
// asserts that the last `exec agyconf …` exited with exactly N, and forgets
// that code, so a second exitcode without a new exec fails; and
//
//	mcpstart FILE NAME
//
// starts the MCP server NAME of the mcp_config.json FILE the way agy
// does — its command and args as argv, no shell, its env added to the
// environment — and keeps its stdout and stderr for stdout/stderr.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitCode,
			"mcpstart": cmdMCPStart,
		},
	})
}

func cmdMCPStart(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: mcpstart FILE NAME")
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	srv, ok := doc.MCPServers[args[1]]
	if !ok || srv.Command == "" {
		ts.Fatalf("%s has no local server %q", args[0], args[1])
	}
	for k, v := range srv.Env {
		ts.Setenv(k, v)
	}
	err := ts.Exec(srv.Command, srv.Args...)
	if neg {
		if err == nil {
			ts.Fatalf("unexpected success starting %s", args[1])
		}
		return
	}
	ts.Check(err)
}

func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
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
