package apply

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agyconf/agyconf/internal/render"
)

// faultFS is the real root failing its n-th write-side call (1-based),
// as a crash or a full disk at that step would.
type faultFS struct {
	n, calls atomic.Int64
}

var errInjected = errors.New("injected fault")

// on is the root e renders into, failing at the chosen step.
func (f *faultFS) on(e *env) FS {
	return &hookFS{FS: e.fs, before: func(string, string) error {
		if f.calls.Add(1) == f.n.Load() {
			return errInjected
		}
		return nil
	}}
}

func mcpPlanDoc(servers map[string]any) *render.Document {
	return &render.Document{Path: "cfg/mcp_config.json", Mode: render.ModeFile,
		JSON: map[string]any{"mcpServers": servers}, Merge: &render.Merge{Parent: []string{"mcpServers"}}}
}

// TestFaultAtEveryStep cuts a batch short at each of its filesystem steps
// in turn — every folder creation, temporary write, rename, removal, folder
// sync and state write — and checks that every target is then old or new,
// that the user's entries survive, and that the next render converges.
func TestFaultAtEveryStep(t *testing.T) {
	planA := plan(
		textDoc("a.md", "a v1\n"), textDoc("c.md", "c only in A\n"),
		mcpPlanDoc(map[string]any{"gh": map[string]any{"command": "gh-v1"}, "gone": map[string]any{"command": "g"}}),
	)
	planB := func() *render.Plan {
		return plan(
			textDoc("a.md", "a v2\n"), textDoc("new/deep/b.md", "b\n"),
			mcpPlanDoc(map[string]any{"gh": map[string]any{"command": "gh-v2"}, "added": map[string]any{"command": "x"}}),
		)
	}
	allowed := map[string][]string{
		"a.md":          {"a v1\n", "a v2\n"},
		"c.md":          {"c only in A\n", ""},
		"new/deep/b.md": {"", "b\n"},
	}
	for k := int64(1); ; k++ {
		e := newEnv(t)
		e.write("cfg/mcp_config.json", `{"zeta": true, "mcpServers": {"mine": {"command": "mine"}}}`)
		if _, err := e.run(planA); err != nil {
			t.Fatal(err)
		}
		f := &faultFS{}
		f.n.Store(k)
		e.opts.FS = f.on(e)
		_, err := e.run(planB())
		if err == nil {
			if k < 8 {
				t.Fatalf("a batch of this size takes more than %d steps; the fault was never hit", k)
			}
			t.Logf("faults injected at each of %d steps", k-1)
			break
		}
		if !errors.Is(err, errInjected) {
			t.Fatalf("step %d: %v", k, err)
		}
		for p, versions := range allowed {
			got := ""
			if b, err := os.ReadFile(filepath.Join(e.root, p)); err == nil {
				got = string(b)
			}
			ok := false
			for _, v := range versions {
				ok = ok || got == v
			}
			if !ok {
				t.Fatalf("step %d: %s is %q, neither old nor new", k, p, got)
			}
		}
		mcp := e.read("cfg/mcp_config.json")
		var v map[string]any
		if err := json.Unmarshal([]byte(mcp), &v); err != nil || !strings.Contains(mcp, `"mine"`) || !strings.Contains(mcp, `"zeta"`) {
			t.Fatalf("step %d: mcp_config.json torn or lost the user's entries (%v):\n%s", k, err, mcp)
		}
		// The next render, without faults, converges without a conflict.
		e.opts.FS = nil
		if _, err := e.run(planB()); err != nil {
			t.Fatalf("step %d: the render after the fault: %v", k, err)
		}
		got, err := e.run(planB())
		if err != nil {
			t.Fatal(err)
		}
		for p, a := range got {
			if a != Unchanged {
				t.Errorf("step %d: %s is %s after converging, want unchanged", k, p, a)
			}
		}
		if e.read("a.md") != "a v2\n" || !strings.Contains(e.read("cfg/mcp_config.json"), `"added"`) {
			t.Fatalf("step %d: the converged tree is not B's", k)
		}
	}
}
