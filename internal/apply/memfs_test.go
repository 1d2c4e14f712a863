package apply

import (
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/memfs"
	"github.com/agyconf/agyconf/internal/render"
)

// TestDecideInMemory runs decisions and batches on a tree in memory: a
// render, a config change that prunes and merges, a user edit refused as a
// conflict, all without a disk — what the property tests build on.
func TestDecideInMemory(t *testing.T) {
	m := memfs.New("/mem")
	m.Put("cfg/mcp_config.json", []byte(`{"mcpServers": {"mine": {"command": "mine"}}}`), 0o644)
	opts := Options{FS: m, Store: NewStore(m, stateDir), Instance: "mem"}
	render := func(docs ...*render.Document) (map[string]Action, error) {
		t.Helper()
		st, err := opts.Store.LoadState(opts.Instance)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := Decide(plan(docs...), st, opts)
		if err != nil {
			return nil, err
		}
		got := map[string]Action{}
		for _, c := range cs {
			got[c.Name()] = c.Action
		}
		return got, Execute(cs, st, opts)
	}
	got, err := render(textDoc("a.md", "a1\n"), mcpPlanDoc(map[string]any{"gh": map[string]any{"command": "gh"}}))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"a.md": Create, "cfg/mcp_config.json mcpServers.gh": Create, "cfg/mcp_config.json": Merge})
	if b, _ := m.Get("cfg/mcp_config.json"); !strings.Contains(string(b), `"mine"`) || !strings.Contains(string(b), `"gh"`) {
		t.Fatalf("merged file:\n%s", b)
	}
	got, err = render(textDoc("b/c.md", "c\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantActions(t, got, map[string]Action{"a.md": Prune, "b/c.md": Create, "cfg/mcp_config.json mcpServers.gh": Prune, "cfg/mcp_config.json": Merge})
	if _, ok := m.Get("a.md"); ok {
		t.Fatal("a.md not pruned")
	}
	if b, _ := m.Get("cfg/mcp_config.json"); !strings.Contains(string(b), `"mine"`) || strings.Contains(string(b), `"gh"`) {
		t.Fatalf("after the prune:\n%s", b)
	}
	m.Put("b/c.md", []byte("edited\n"), 0o644)
	if _, err = render(textDoc("b/c.md", "c2\n")); err == nil || !strings.Contains(err.Error(), "edited since agyconf wrote it") {
		t.Fatalf("an edit was not refused: %v", err)
	}
	if b, _ := m.Get("b/c.md"); string(b) != "edited\n" {
		t.Fatalf("the edit was lost: %q", b)
	}
}
