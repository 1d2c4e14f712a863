// Package gctune sets the garbage collector for a short-lived process
// whose heap is its input: collect rarely while the heap is small, and
// never let it grow far past what is live once it is large.
//
// GOGC=400 alone (what agyconf ran with) saves a third of the CPU of a
// render of 1,000 entries, but lets the heap grow to five times what is
// live: 300 MB and more for 10,000 entries. A fixed GOMEMLIMIT bounds that,
// but once the live heap nears the limit the collector runs back to back
// (a render of 30,000 entries took 2.5 times the CPU under a 180 MiB
// limit). So the limit follows the live heap: after every collection it
// is set to the larger of Base and twice what survived it, which is
// GOGC=400 up to Base and GOGC=100 past it (docs/benchmarks.md).
//
// Before the first collection nothing is collected until the heap reaches
// First: most runs (validate of a tree of a thousand servers, a render of
// a few hundred entries) never get there and never collect. GOGC=400's
// first collection came at 16 MB, its mark worker taking one of two cores
// from a validate whose checks ran on both (docs/benchmarks.md).
package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Base is the heap size up to which the collector runs as with GOGC=400.
const Base = 180 << 20

// GCPercent is the collector's target while the heap is under the limit,
// from the first collection on.
const GCPercent = 400

// First is the heap size at which the first collection comes.
const First = 64 << 20

// Limit is the memory limit after a collection that left live bytes.
func Limit(live uint64) int64 {
	return int64(max(Base, 2*live))
}

// Start applies the policy for the rest of the process, unless the
// environment sets GOGC or GOMEMLIMIT: then the runtime does what it says.
// It reports whether it did.
func Start() bool { return start(func() bool { return false }) }

// start is Start, the policy ending once stopped reports true (for its
// test, which must leave the runtime as it found it).
func start(stopped func() bool) bool {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(First)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	// A finalizer runs once after the collection that finds its object
	// unreachable; setting it again on a new object each time makes it
	// run after every collection.
	var rearm func(*sentinel)
	rearm = func(*sentinel) {
		if stopped() {
			return
		}
		debug.SetGCPercent(GCPercent)
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(Limit(sample[0].Value.Uint64()))
		}
		runtime.SetFinalizer(&sentinel{}, rearm)
	}
	runtime.SetFinalizer(&sentinel{}, rearm)
	return true
}

// sentinel is an object allocated only to be collected. It holds a
// pointer so that it is not a tiny allocation: those share a block with
// others, and their finalizers may not run until the whole block is free.
type sentinel struct{ _ *byte }
