// Package lazyre compiles a package's regular expressions when they are
// first used instead of when the program starts: every command paid for
// every package's expressions before main, a tenth of what `agyconf
// version` costs beyond the process itself (the fourth pass in docs/benchmarks.md's
// history), and most commands use few of them.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr the first time it is called
// and returns the same *regexp.Regexp every time, safe for concurrent
// use. expr must compile: the first call panics otherwise, as
// regexp.MustCompile at start-up did.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
