package cli_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agyconf/agyconf/internal/clitest"
)

var update = flag.Bool("u", false, "update testscript files with the actual output")

// TestMain lets the scripts exec agyconf and agyhook, and runs every test
// of the package (Main in-process ones too) with HOME and the XDG folders
// pointing at a scratch home (clitest.Main): the default config, state and
// render root are never the user's.
func TestMain(m *testing.M) {
	clitest.Main(m)
}

// TestScripts runs the end-to-end scripts in testdata/script: each is the
// agyconf binary run as a user would, against files laid out by the script.
//
// Besides testscript's built-in commands the scripts have one more:
//
//	exitcode N
//
// asserts that the last `exec agyconf …` exited with exactly N, and forgets
// that code, so a second exitcode without a new exec fails;
//
//	statev1 SRC DST, stateflat ROOT STATE VERSION, cmpjson A B
//
// write a state as an agyconf before state version 2 did, turn a tree
// and its state into what an agyconf before subagent folders left, and
// compare two files' JSON values (clitest.StateV1, clitest.StateFlatAgents,
// clitest.CmpJSON); and
//
//	mcpstart FILE NAME
//
// starts the MCP server NAME of the mcp_config.json FILE the way agy
// does — its command and args as argv, no shell, its env added to the
// environment — and keeps its stdout and stderr for stdout/stderr; and
//
//	agystandin DIR, agyless
//
// install the stand-in agy of agyconf doctor's tests
// (internal/doctor/testdata/standin/agy, which answers agy's read-only
// reports from recorded answers and refuses anything else) as DIR/agy,
// and leave on PATH only the folder of the test's own programs, so no
// agy is found.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":   clitest.ExitCode,
			"statev1":    clitest.StateV1,
			"stateflat":  clitest.StateFlatAgents,
			"cmpjson":    clitest.CmpJSON,
			"mcpstart":   cmdMCPStart,
			"agystandin": cmdAgyStandin,
			"agyless":    cmdAgyless,
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

func cmdAgyStandin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: agystandin DIR")
	}
	data, err := os.ReadFile(filepath.Join("..", "doctor", "testdata", "standin", "agy"))
	ts.Check(err)
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, "agy"), data, 0o755))
}

func cmdAgyless(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: agyless")
	}
	// testscript puts the folder of the test binary's commands first.
	first, _, _ := strings.Cut(ts.Getenv("PATH"), string(os.PathListSeparator))
	ts.Setenv("PATH", first)
}
