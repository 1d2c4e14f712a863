// Command agyconf renders declarative Antigravity configuration.
package main

import (
	"os"
	"runtime/debug"

	"github.com/agyconf/agyconf/internal/cli"
)

func main() {
	// agyconf runs for a fraction of a second over a heap the size of its
	// config (under 100 MB for 10,000 entries); collecting less often saves
	// a third of the CPU of a render (docs/benchmarks.md).
	debug.SetGCPercent(400)
	os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr))
}
