// Command measure runs a command once and reports what it cost: the wall
// time from just before the process is started to just after it is
// waited for, its user and system CPU time and its peak resident set, as
// the kernel counts them for that process and its children
// (scripts/bench.sh, docs/benchmarks.md).
//
//	go run ./scripts/measure OUT CMD [ARG...]
//
// OUT gets one line, "WALL_NS USER_NS SYS_NS MAXRSS_KIB". The command's
// standard output is discarded and its standard error goes to measure's;
// a command that fails makes measure fail with its exit code.
//
// GNU time, which bench.sh used before, prints CPU times in hundredths of
// a second (a 1k render's 190 ms was 0.19 s ± 5 ms) and was timed from
// outside with date(1), so each figure also held GNU time's own start and
// two more processes: about 3 ms that both sides of a ratio carried,
// which made the ratios of commands of a few milliseconds look closer to
// 1 than they are. Standard library only, like scripts/floor, so that no
// change to agyconf moves it.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: measure OUT CMD [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stderr = os.Stderr // stdout: nil, the null device
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(2)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "measure: no resource usage on this system")
		os.Exit(2)
	}
	line := fmt.Sprintf("%d %d %d %d\n", wall.Nanoseconds(),
		time.Duration(ru.Utime.Nano()).Nanoseconds(), time.Duration(ru.Stime.Nano()).Nanoseconds(), ru.Maxrss)
	if err := os.WriteFile(os.Args[1], []byte(line), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(2)
	}
}
