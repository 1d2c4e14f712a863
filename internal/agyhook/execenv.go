package agyhook

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/secretargs"
	"github.com/agyconf/agyconf/internal/secretpath"
)

// exec-env starts a stdio MCP server with secrets read from files at the
// moment agy starts it (agyconf's secret_mode = "exec"), so the values
// never sit in mcp_config.json:
//
//	agyhook exec-env [--env VAR=TEXT | --env-file VAR=PATH | --env-file-json VAR=N:PATH]... -- COMMAND [ARG...]
//
// --env-file-json appends the file's value escaped N times as the inside
// of a JSON string: a secret that was inside N jsonencode() calls in the
// config, beside text that was escaped as many times.
//
// agy starts MCP servers from an argv and speaks MCP over the child's
// stdin and stdout, so exec-env replaces itself with COMMAND (execve: same
// PID, same descriptors, no wrapper left behind) and never writes to
// stdout. A failure is one line on stderr that names the variable and the
// file but never a value.

// execEnvCmd is the subcommand's name.
const execEnvCmd = "exec-env"

// Exit statuses of exec-env. agy reports either as a server that failed to
// start; the difference is for the humans reading the line on stderr.
const (
	// execUsage: the command line is malformed — anything decided without
	// touching the file system (unknown flag, VAR=… missing, a bad VAR
	// name, a relative PATH, no -- or no command after it).
	execUsage = 2
	// execFailed: a secret file cannot be used, or the command cannot be
	// found or executed.
	execFailed = 1
)

// MaxSecretFile is the largest secret file exec-env reads (1 MiB).
const MaxSecretFile = 1 << 20

const execEnvUsage = "usage: agyhook exec-env [--env VAR=TEXT | --env-file VAR=PATH | --env-file-json VAR=N:PATH]... -- COMMAND [ARG...]"

// envOp is one --env, --env-file or --env-file-json, in command-line
// order: exec-env's grammar is internal/secretargs', which agyconf render
// writes and agyconf import reads back.
type envOp = secretargs.Part

// ExecPlan is what exec-env executes: Argv (Argv[0] as given, resolved to
// a path only when the plan is run) with environment Env.
type ExecPlan struct {
	Argv []string
	Env  []string
}

// execError is a failure with its exit status; its message never holds a
// value.
type execError struct {
	code int
	msg  string
}

func (e *execError) Error() string { return e.msg }

func failErr(format string, a ...any) error {
	return &execError{execFailed, fmt.Sprintf(format, a...)}
}

// validEnvName reports whether s matches [A-Za-z_][A-Za-z0-9_]*.
func validEnvName(s string) bool { return secretargs.ValidEnvName(s) }

// parseExecEnv parses exec-env's arguments (after the subcommand name)
// into its operations and the command. Its errors are usage errors and
// name the flag and VAR, never TEXT.
func parseExecEnv(args []string) ([]envOp, []string, error) {
	ops, cmd, err := secretargs.ExecEnv().Parse(args)
	var ue *secretargs.UsageError
	if errors.As(err, &ue) {
		return nil, nil, &execError{execUsage, ue.Msg}
	}
	return ops, cmd, err
}

// readSecretFile reads an --env-file: a regular file (symlinks followed)
// of at most MaxSecretFile bytes, without NUL, with one trailing "\n" and
// then one "\r" removed — agyconf's rule for inline secrets, so exec and
// inline modes give the same value. Errors name the path, not the content.
func readSecretFile(path string) (string, error) {
	// Stat before opening: opening a FIFO or a device can block or act.
	fi, err := os.Stat(path)
	if err != nil {
		return "", bareErr(err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s)", fileKind(fi.Mode()))
	}
	f, err := openNoBlock(path)
	if err != nil {
		return "", bareErr(err)
	}
	defer f.Close()
	// Again on what was opened, in case the path changed since.
	if fi, err = f.Stat(); err != nil {
		return "", bareErr(err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file (%s)", fileKind(fi.Mode()))
	}
	if fi.Size() > MaxSecretFile {
		return "", fmt.Errorf("larger than %d bytes", MaxSecretFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxSecretFile+1))
	if err != nil {
		return "", bareErr(err)
	}
	if len(data) > MaxSecretFile {
		return "", fmt.Errorf("larger than %d bytes", MaxSecretFile)
	}
	s := strings.TrimSuffix(string(data), "\n")
	s = strings.TrimSuffix(s, "\r")
	if strings.IndexByte(s, 0) >= 0 {
		return "", errors.New("contains a NUL byte, which an environment variable cannot hold")
	}
	return s, nil
}

// showPath is p, quoted when it holds anything unprintable (a newline
// would break the one-line error).
func showPath(p string) string {
	if q := strconv.Quote(p); q[1:len(q)-1] != p {
		return q
	}
	return p
}

// bareErr drops the *fs.PathError wrapper, whose path the caller prints
// itself.
func bareErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}

// buildExecEnv turns exec-env's arguments and the inherited environment
// into the plan to execute. Each --env and --env-file appends to its VAR
// in command-line order, VAR starting empty at its first mention; a
// mentioned VAR replaces inherited ones (every duplicate of it), the rest
// are inherited unchanged. read reads an --env-file (readSecretFile).
func buildExecEnv(args, environ []string, read func(string) (string, error)) (ExecPlan, error) {
	ops, cmd, err := parseExecEnv(args)
	if err != nil {
		return ExecPlan{}, err
	}
	vals := map[string]*strings.Builder{}
	var order []string
	for _, op := range ops {
		b := vals[op.Name]
		if b == nil {
			b = &strings.Builder{}
			vals[op.Name] = b
			order = append(order, op.Name)
		}
		if !op.File {
			b.WriteString(op.Text)
			continue
		}
		full, err := secretpath.Expand(op.Path, runtimeEnv(environ))
		if err != nil {
			return ExecPlan{}, failErr("--env-file %s=%s: %v", op.Name, showPath(op.Path), err)
		}
		v, err := read(full)
		if err != nil {
			return ExecPlan{}, failErr("--env-file %s=%s: %v", op.Name, showPath(op.Path), err)
		}
		esc, err := jsonesc.String(v, op.JSONEscape)
		if err != nil {
			return ExecPlan{}, failErr("--env-file-json %s=%s: %v", op.Name, showPath(op.Path), err)
		}
		b.WriteString(esc)
	}
	env := make([]string, 0, len(environ)+len(order))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if _, ok := vals[k]; !ok {
			env = append(env, kv)
		}
	}
	for _, k := range order {
		env = append(env, k+"="+vals[k].String())
	}
	return ExecPlan{Argv: cmd, Env: env}, nil
}

// runtimeEnv is what expanding a secret path needs, from the environment
// agy started the server with: its XDG_RUNTIME_DIR is the session's.
func runtimeEnv(environ []string) secretpath.Env {
	env := secretpath.Host()
	env.Getenv = func(k string) string { return envValue(environ, k) }
	return env
}

// lookPathIn resolves a command name without "/" against pathList, a
// PATH value, as exec.LookPath does against $PATH (the same executable
// check), except that relative entries, "" included, are skipped instead
// of failing with exec.ErrDot. A name with "/" is returned as is.
func lookPathIn(file, pathList string) (string, error) {
	if strings.Contains(file, "/") {
		return file, nil
	}
	for _, dir := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p, err := exec.LookPath(strings.TrimSuffix(dir, "/") + "/" + file)
		if err == nil {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val // the last one wins, as in os/exec's dedup
		}
	}
	return v
}

// execEnv is the exec-env subcommand. It returns only on failure: on
// success env.Exec does not return.
func execEnv(args []string, stderr io.Writer, env Env) int {
	var environ []string
	if env.Environ != nil {
		environ = env.Environ()
	}
	plan, err := buildExecEnv(args, environ, readSecretFile)
	if err == nil {
		err = runPlan(plan, env)
	}
	if err == nil {
		return 0 // only a fake Exec returns success
	}
	var ee *execError
	if !errors.As(err, &ee) {
		ee = &execError{execFailed, err.Error()}
	}
	switch {
	case ee.code == execUsage && ee.msg == "":
		fmt.Fprintln(stderr, execEnvUsage)
	case ee.code == execUsage:
		fmt.Fprintf(stderr, "agyhook exec-env: %s (%s)\n", ee.msg, execEnvUsage)
	default:
		fmt.Fprintf(stderr, "agyhook exec-env: %s\n", ee.msg)
	}
	return ee.code
}

func runPlan(plan ExecPlan, env Env) error {
	name := plan.Argv[0]
	path, err := lookPathIn(name, envValue(plan.Env, "PATH"))
	if err != nil {
		return failErr("command %q not found on PATH", name)
	}
	if env.Exec == nil {
		return failErr("exec %s: no exec in this environment", showPath(path))
	}
	if err := env.Exec(path, plan.Argv, plan.Env); err != nil {
		return failErr("exec %s: %v", showPath(path), err)
	}
	return nil
}
