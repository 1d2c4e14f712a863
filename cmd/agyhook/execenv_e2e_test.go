//go:build unix

package main_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exec-env is run as agy runs an MCP server: from an argv, not a shell,
// speaking over the child's stdin and stdout.

const execCanary = "CANARY-0f-another-secret"

type execRun struct {
	stdout, stderr string
	code           int
	pid            int
}

func execEnvRun(t *testing.T, stdin string, env []string, args ...string) execRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, agyhookBin, append([]string{"exec-env"}, args...)...)
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := execRun{stdout: out.String(), stderr: errb.String()}
	if cmd.Process != nil {
		r.pid = cmd.Process.Pid
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ctx.Err() == nil:
		r.code = ee.ExitCode()
	default:
		t.Fatalf("%q: %v (stderr %q)", args, err, errb.String())
	}
	return r
}

func secretFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExecEnvSecretsReachTheServer(t *testing.T) {
	dir := t.TempDir()
	tok := secretFile(t, dir, "token", []byte("s3cret-token\n"))
	r := execEnvRun(t, "", []string{"X=inherited", "KEEP=kept"},
		"--env-file", "TOKEN="+tok, "--env", "X=a", "--env", "X=b",
		"--", "sh", "-c", `printf "%s|%s" "$TOKEN" "$X"`)
	if r.code != 0 || r.stdout != "s3cret-token|ab" || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
	// The append rule with a prefix, CRLF stripped, and inheritance.
	crlf := secretFile(t, dir, "crlf", []byte("abc\r\n"))
	r = execEnvRun(t, "", []string{"KEEP=kept", "AUTH=inherited"},
		"--env", "AUTH=Bearer ", "--env-file", "AUTH="+crlf,
		"--", "sh", "-c", `printf "%s|%s" "$AUTH" "$KEEP"`)
	if r.code != 0 || r.stdout != "Bearer abc|kept" || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
	// The server's exit status is exec-env's: nothing stands in between.
	if r = execEnvRun(t, "", nil, "--", "sh", "-c", "exit 7"); r.code != 7 || r.stdout != "" || r.stderr != "" {
		t.Errorf("exit status: %+v", r)
	}
}

func TestExecEnvReplacesItself(t *testing.T) {
	// The server's PID is the one agy started: exec, not fork.
	r := execEnvRun(t, "", nil, "--", "sh", "-c", `echo $$`)
	if r.code != 0 || r.stdout != strconv.Itoa(r.pid)+"\n" {
		t.Fatalf("pid %d, child said %+v", r.pid, r)
	}

	// stdin and stdout pass through live, as MCP's stdio transport needs.
	tok := secretFile(t, t.TempDir(), "token", []byte("tok"))
	cmd := exec.Command(agyhookBin, "exec-env", "--env-file", "TOKEN="+tok, "--", "cat")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(outPipe)
	lines := make(chan string)
	go func() {
		defer close(lines)
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	for _, msg := range []string{`{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n", `{"jsonrpc":"2.0","id":2}` + "\n"} {
		if _, err := io.WriteString(in, msg); err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-lines:
			if got != msg {
				t.Fatalf("echo %q, want %q", got, msg)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no echo: stdio does not pass through")
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil || errb.Len() != 0 {
		t.Errorf("cat: %v %q", err, errb.String())
	}

	// stdin as a whole, too.
	big := strings.Repeat("0123456789abcdef", 1<<14)
	if r := execEnvRun(t, big, nil, "--", "cat"); r.code != 0 || r.stdout != big {
		t.Errorf("cat: %d, %d bytes", r.code, len(r.stdout))
	}
}

func TestExecEnvRefusals(t *testing.T) {
	dir := t.TempDir()
	other := secretFile(t, dir, "other", []byte(execCanary+"\n"))
	big := secretFile(t, dir, "big", bytes.Repeat([]byte("x"), 1<<20+1))
	nul := secretFile(t, dir, "nul", []byte(execCanary+"\x00tail"))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	// The other secret is read first, so a leak of it would show.
	pre := []string{"--env-file", "OTHER=" + other, "--env", "TEXT=" + execCanary}
	child := []string{"--", "sh", "-c", "echo ran"}

	for _, c := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"missing file", []string{"--env-file", "TOKEN=" + missing}, 1, []string{"TOKEN=" + missing, "no such file or directory"}},
		{"relative path", []string{"--env-file", "TOKEN=run/secrets/x"}, 2, []string{"TOKEN", "run/secrets/x", "not absolute", "usage"}},
		{"directory", []string{"--env-file", "TOKEN=" + dir}, 1, []string{"TOKEN=" + dir, "not a regular file"}},
		{"named pipe", []string{"--env-file", "TOKEN=" + fifo}, 1, []string{"TOKEN=" + fifo, "not a regular file (a named pipe)"}},
		{"oversize", []string{"--env-file", "TOKEN=" + big}, 1, []string{"TOKEN=" + big, "larger than 1048576 bytes"}},
		{"NUL", []string{"--env-file", "TOKEN=" + nul}, 1, []string{"TOKEN=" + nul, "NUL byte"}},
		{"bad name", []string{"--env-file", "TO-KEN=" + other}, 2, []string{`"TO-KEN"`, "usage"}},
		{"unknown flag", []string{"--bogus=" + execCanary}, 2, []string{`unknown flag "--bogus"`, "usage: agyhook exec-env"}},
		{"not found", []string{"--", "no-such-server-xyz"}, 1, []string{`"no-such-server-xyz" not found`}},
		{"not executable", []string{"--", other}, 1, []string{"exec " + other + ": permission denied"}},
	} {
		args := append(append([]string{}, pre...), c.args...)
		if !slices.Contains(c.args, "--") {
			args = append(args, child...)
		}
		r := execEnvRun(t, "", nil, args...)
		if r.code != c.code || r.stdout != "" {
			t.Errorf("%s: exit %d stdout %q, want exit %d", c.name, r.code, r.stdout, c.code)
		}
		if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "agyhook exec-env: ") {
			t.Errorf("%s: not one line: %q", c.name, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: stderr %q, want %q", c.name, r.stderr, w)
			}
		}
		if strings.Contains(r.stderr, execCanary) || strings.Contains(r.stderr, "tail") {
			t.Errorf("%s: stderr shows a secret: %q", c.name, r.stderr)
		}
	}

	// Command-line misuse: exit 2 with the usage.
	for _, args := range [][]string{
		{"--env", "A=1", "--"},
		{"--env", "A=1"},
		{"--env", "A=1", "sh"},
		{"--env-file"},
		{"--", ""},
		{},
	} {
		r := execEnvRun(t, "", nil, args...)
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "usage: agyhook exec-env") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: %+v", args, r)
		}
	}
}
