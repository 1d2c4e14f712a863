package lazyre

import (
	"sync"
	"testing"
)

// TestNew: nothing is compiled before the first call, every call gets the
// same expression, from any goroutine, and a bad expression panics when
// it is first used.
func TestNew(t *testing.T) {
	re := New(`^a+$`)
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = re()
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatal("two calls compiled two expressions")
		}
	}
	if !re().MatchString("aaa") || re().MatchString("ab") {
		t.Error("the expression does not match as compiled")
	}
	bad := New(`(`) // no panic yet
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic at its first use")
		}
	}()
	bad()
}
