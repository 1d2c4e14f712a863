// Package agyhook implements the agyhook binary: small hook handlers that
// Antigravity (agy) runs from hooks.json, starting with MemPalace's save
// and wake hooks re-implemented without bash or Python.
//
// agy runs a handler through sh -c, writes the event's JSON payload on its
// stdin, reads its stdout to EOF as one JSON object and ignores the exit
// code and stderr. What it does with empty or malformed output differs
// between builds (a PreToolUse call was measured blocked on some, allowed
// on others), so every path of a hook subcommand answers exactly one
// object and exits 0; the work that can be slow either runs detached or
// under a short deadline.
//
// The package imports the standard library only: PreInvocation hooks run
// before every model call, and a hook that starts slowly slows every turn.
package agyhook

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// Env is everything agyhook takes from the process it runs in. Main reads
// nothing global, so tests and the fuzzer run hooks in-process against a
// temporary home with fake processes.
type Env struct {
	// Getenv looks up an environment variable; nil reads none.
	Getenv func(string) string
	// Home is the user's home directory; "" disables the MemPalace hooks
	// (their kill switch is a missing ~/.mempalace).
	Home string
	// Now is the clock for marker ages and log lines; nil is time.Now.
	Now func() time.Time
	// Executable returns agyhook's own path, re-executed as the detached
	// supervisor of mempalace mine; asked only then (os.Executable reads
	// /proc/self/exe, a system call the no-op paths do without).
	Executable func() (string, error)
	// LookPath resolves mempalace when --mempalace is absent; nil never
	// finds it.
	LookPath func(string) (string, error)
	// Spawn starts the detached supervisor; nil uses the real one
	// (re-exec of Executable).
	Spawn func(SpawnRequest) error
	// RunWake runs `mempalace wake-up` and returns its stdout; nil uses
	// the real one (a process group killed at the deadline).
	RunWake func(ctx context.Context, argv []string) ([]byte, error)
	// Environ is the environment exec-env passes on (os.Environ); nil
	// passes none.
	Environ func() []string
	// Exec replaces the process for exec-env (syscall.Exec) and returns
	// only on failure; nil makes exec-env fail, so that an in-process run
	// never replaces its caller.
	Exec func(argv0 string, argv, env []string) error
	// Watchdog bounds a hook subcommand's answer time; 0 is
	// DefaultWatchdog.
	Watchdog time.Duration
	// Version is printed by `agyhook version`.
	Version string
}

// DefaultWatchdog is half of the shortest timeout agyconf renders for these
// hooks (5 s), so agy always gets an answer before it gives up on us.
const DefaultWatchdog = 2500 * time.Millisecond

// OSEnv is the Env of the running process.
func OSEnv(version string) Env {
	home, _ := os.UserHomeDir()
	return Env{
		Getenv:     os.Getenv,
		Home:       home,
		Now:        time.Now,
		Executable: os.Executable,
		LookPath:   exec.LookPath,
		Environ:    os.Environ,
		Exec:       execve,
		Version:    version,
	}
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

const usage = `usage: agyhook <command> [flags]

Commands (run by Antigravity from hooks.json; stdin is the event payload):
  mempalace-save [--interval N] [--state-dir DIR] [--mempalace PATH]
        Stop hook: every N idle stops, mine the transcript into MemPalace
        in the background. Always prints {}.
  mempalace-wake [--state-dir DIR] [--mempalace PATH]
        PreInvocation hook: once per conversation, inject the output of
        mempalace wake-up as an ephemeral message.
  version
        Print the version.

Command run by Antigravity from mcp_config.json (secret_mode = "exec"):
  exec-env [--env VAR=TEXT | --env-file VAR=PATH]... -- COMMAND [ARG...]
        Set each VAR to the concatenation, in order, of its TEXTs and of
        the contents of its files (absolute PATH, one trailing newline
        removed), then exec COMMAND in place of agyhook. Prints nothing on
        stdout; on failure one line on stderr, never a value, and exit 1
        (2 for a malformed command line).
  bridge [--header NAME=TEXT | --header-file NAME=PATH]... -- URL
        Relay MCP between agy (stdin, stdout) and the remote server at URL,
        sending each header NAME (its TEXTs and file contents, in order)
        with every request; runs agyhook-bridge, found beside agyhook or on
        PATH. Failures are answered as JSON-RPC errors and one line on
        stderr, never a value.

The hook commands always print one JSON object and exit 0, because agy
ignores exit codes and stderr.
`

// Main runs agyhook with args (without the program name) and returns the
// exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "mempalace-save":
		return runHook(saveHook, args[1:], stdin, stdout, stderr, env)
	case "mempalace-wake":
		return runHook(wakeHook, args[1:], stdin, stdout, stderr, env)
	case execEnvCmd:
		return execEnv(args[1:], stderr, env)
	case bridgeCmd:
		return bridge(args[1:], stdin, stdout, stderr, env)
	case superviseCmd:
		return supervise(args[1:], stdout, stderr, env)
	case "version", "--version":
		v := env.Version
		if v == "" {
			v = "(devel)"
		}
		fmt.Fprintln(stdout, "agyhook", v)
		return 0
	}
	// Not an agy invocation (agy never runs these), so a human reads this.
	if a := args[0]; a != "-h" && a != "-help" && a != "--help" && a != "help" {
		fmt.Fprintf(stderr, "agyhook: unknown command %q\n", a)
	}
	fmt.Fprint(stderr, usage)
	return 2
}
