package doctor

import (
	"context"
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// Run is one run of agy: what it printed and how it ended.
type Run struct {
	Stdout, Stderr []byte
	// Code is the exit code; -1 when it did not exit by itself.
	Code int
	// TimedOut says the time limit ended it (its process group killed).
	TimedOut bool
	// Overflow says it printed more than MaxAnswer on stdout.
	Overflow bool
	// Err is a failure to start it, or to wait for it.
	Err error
}

// Runner runs agy. Doctor passes every argv through Allowed first, so a
// Runner runs only agy's read-only reports.
type Runner interface {
	Run(ctx context.Context, argv []string, dir string, env []string, timeout time.Duration) Run
}

// ExecRunner runs agy as a process: stdin empty (a command that reads it
// would wait forever on an inherited pipe, CLI changelog 1.1.23), in its
// own process group, killed whole when the time limit passes.
type ExecRunner struct{}

// Run runs argv[0] with the rest of argv.
func (ExecRunner) Run(ctx context.Context, argv []string, dir string, env []string, timeout time.Duration) Run {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// An answer past MaxAnswer is unreadable whatever follows: agy
	// printing without end is ended then, not when the time is up.
	flooded, stop := context.WithCancel(ctx)
	defer stop()
	stdout, stderr := &capped{max: MaxAnswer, full: stop}, &capped{max: 64 << 10}
	cmd := exec.CommandContext(flooded, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	// agy starts a language server and, for a print-mode run, may start
	// MCP servers and hooks: all of them go with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// A child that keeps the pipes open cannot hold doctor after agy ends.
	cmd.WaitDelay = time.Second
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	r := Run{Stdout: stdout.buf, Stderr: stderr.buf, Code: -1, Overflow: stdout.over}
	var ee *exec.ExitError
	switch {
	case r.Overflow:
		// Killed for it, or exited after it: the answer is unreadable.
	case ctx.Err() == context.DeadlineExceeded:
		r.TimedOut = true
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		r.Err = err
	default:
		r.Code = 0
	}
	if cmd.Process != nil && !r.TimedOut {
		// Still the group's, however agy ended: a daemon it left behind
		// (CLI changelog 1.2.9 fixed one) must not outlive doctor.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return r
}

// capped keeps the first max bytes written to it and drains the rest, so
// the writer never blocks on a full pipe; full, if set, is called once
// when it overflows.
type capped struct {
	buf  []byte
	max  int
	over bool
	full func()
}

func (c *capped) Write(p []byte) (int, error) {
	n, room := len(p), c.max-len(c.buf)
	if n > room {
		if !c.over && c.full != nil {
			c.full()
		}
		c.over = true
		p = p[:max(room, 0)]
	}
	c.buf = append(c.buf, p...)
	return n, nil
}
