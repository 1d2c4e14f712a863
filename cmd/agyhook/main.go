// Command agyhook is the hook handler agyconf renders into Antigravity's
// hooks.json. It depends on the standard library only, because agy starts
// it before every model call; the logic lives in internal/agyhook.
package main

import (
	"os"
	"runtime/debug"

	"github.com/agyconf/agyconf/internal/agyhook"
)

// version is set at link time (-ldflags "-X main.version=…"); builds
// without it report the module version Go recorded.
var version string

func main() {
	v := version
	if v == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			v = bi.Main.Version
		}
	}
	os.Exit(agyhook.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, agyhook.OSEnv(v)))
}
