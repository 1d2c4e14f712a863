// Command agyconf renders declarative Antigravity configuration.
package main

import (
	"os"

	"github.com/agyconf/agyconf/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args, os.Stdout, os.Stderr))
}
