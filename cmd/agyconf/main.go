// Command agyconf renders declarative Antigravity configuration.
package main

import (
	"os"

	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/gctune"
)

func main() {
	// agyconf runs for a fraction of a second over a heap the size of its
	// config: collect rarely while it is small, and keep it within twice
	// what is live once it is large (internal/gctune, docs/benchmarks.md).
	gctune.Start()
	os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr))
}
