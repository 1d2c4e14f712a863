package gctune

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
)

func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, Base},
		{Base / 2, Base},
		{Base/2 + 1, Base + 2},
		{300 << 20, 600 << 20},
	} {
		if got := Limit(tc.live); got != tc.want {
			t.Errorf("Limit(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

func TestEnvironmentWins(t *testing.T) {
	for _, name := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(name, map[string]string{"GOGC": "100", "GOMEMLIMIT": "1GiB"}[name])
			before := debug.SetMemoryLimit(-1)
			if Start() {
				t.Fatalf("Start applied its policy with %s set", name)
			}
			if after := debug.SetMemoryLimit(-1); after != before {
				t.Fatalf("the memory limit went from %d to %d with %s set", before, after, name)
			}
		})
	}
}

// TestLimitFollowsLiveHeap keeps more than Base/2 live and collects until
// the limit has followed it to twice that: the finalizer runs after every
// collection, not once. A collection count bounds the wait, not a clock.
func TestLimitFollowsLiveHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100 MiB")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	gcPercent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(-1)
	var stop atomic.Bool
	t.Cleanup(func() {
		stop.Store(true)
		runtime.GC() // the finalizer that runs now sees stop, and sets no other
		debug.SetGCPercent(gcPercent)
		debug.SetMemoryLimit(limit)
	})

	if !start(stop.Load) {
		t.Fatal("Start did not apply its policy with GOGC and GOMEMLIMIT unset")
	}
	if got := debug.SetMemoryLimit(-1); got != First {
		t.Fatalf("limit after Start = %d, want First %d", got, int64(First))
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GOGC after Start = %d, want off until the first collection", got)
	}
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	// After a collection: GCPercent, and a limit of at least Base.
	for i := 0; i < 200 && debug.SetMemoryLimit(-1) < Base; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got < Base {
		t.Fatalf("the limit stayed %d after collections, want at least Base %d", got, int64(Base))
	}
	if got := debug.SetGCPercent(GCPercent); got != GCPercent {
		t.Fatalf("GOGC after a collection = %d, want %d", got, GCPercent)
	}
	live := make([][]byte, 100)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	want := int64(200 << 20)
	for i := 0; i < 200 && debug.SetMemoryLimit(-1) < want; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got < want {
		t.Fatalf("with 100 MiB live the limit stayed %d after 200 collections, want at least %d", got, want)
	}
	runtime.KeepAlive(live)
}
