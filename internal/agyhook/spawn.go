package agyhook

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// superviseCmd is the hidden subcommand the save hook re-executes itself
// as. It is not for agy: it runs detached, with its output in the log.
const superviseCmd = "__mine"

// SpawnRequest is a mine to start in the background: Argv (mempalace
// first) runs to completion, then the pending Marker is removed if it
// still holds Token. Log receives the output.
type SpawnRequest struct {
	Marker string
	Token  string
	Log    string
	Argv   []string
}

// spawnSupervisor starts `agyhook __mine` in a new session and does not
// wait for it. agy reads the hook's stdout to EOF, so the child gets
// /dev/null and the log file instead of any descriptor of ours; a new
// session keeps it alive when agy kills the hook's process group.
func (h *hook) spawnSupervisor(req SpawnRequest) error {
	var self string
	if h.env.Executable != nil {
		self, _ = h.env.Executable()
	}
	if self == "" {
		return errors.New("own executable path unknown")
	}
	logf, err := os.OpenFile(req.Log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	args := append([]string{superviseCmd, "--marker", req.Marker, "--token", req.Token, "--"}, req.Argv...)
	cmd := exec.Command(self, args...)
	cmd.Stdin = nil // /dev/null
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = detachedAttr()
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// supervise runs the mine and then clears the pending marker, so the
// next due save can start another one.
func supervise(args []string, stdout, stderr io.Writer, env Env) int {
	fs := flag.NewFlagSet(superviseCmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	marker := fs.String("marker", "", "")
	token := fs.String("token", "", "")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "agyhook __mine: usage: agyhook __mine --marker M --token T -- ARGV...")
		return 2
	}
	argv := fs.Args()
	conv := strings.TrimPrefix(filepath.Base(*marker), pendingPrefix)
	start := env.now()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = nil
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	err := cmd.Run()
	status := "ok"
	if err != nil {
		status = err.Error()
	}
	if *marker != "" {
		releasePending(*marker, *token)
	}
	fmt.Fprintf(stdout, "%s %s conv=%s: %s %s finished after %s: %s\n",
		env.now().UTC().Format(time.RFC3339), superviseCmd, conv, filepath.Base(argv[0]),
		strings.Join(argv[1:2], ""), env.now().Sub(start).Round(time.Millisecond), status)
	if err != nil {
		return 1
	}
	return 0
}

// maxWakeOutput bounds what is kept of wake-up's stdout; the rest is read
// and dropped so the process never blocks on a full pipe.
const maxWakeOutput = 256 << 10

// runWakeProcess runs argv with a deadline. The process gets its own group
// so that a shell script's children die with it at the deadline, and
// WaitDelay stops a leftover holder of the pipe from stalling us.
func runWakeProcess(ctx context.Context, argv []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = nil
	out := &cappedBuffer{max: maxWakeOutput}
	cmd.Stdout = out
	cmd.SysProcAttr = groupAttr()
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = 100 * time.Millisecond
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("timed out: %w", ctx.Err())
	}
	return out.b, err
}

type cappedBuffer struct {
	b   []byte
	max int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.max - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
