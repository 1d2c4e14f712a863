package apply

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// renderOnce decides and executes plan, and returns the changes and the
// state the render left, as engine.Session holds them.
func (e *env) renderOnce(p *render.Plan) ([]Change, *State) {
	e.t.Helper()
	changes, st, _, err := e.apply(p)
	if err != nil {
		e.t.Fatal(err)
	}
	return changes, st
}

// TestCache: a cache is written only after a render that ended in sync
// and stamps every file the state records; it hits while every stamped
// file, the state among them, is as that render left it, and misses once
// any of them, or an input, is not.
func TestCache(t *testing.T) {
	const identity, config = "agyconf test", "/cfg/agyconf.hcl"
	inputs := []model.Input{{Kind: "file", Name: config}}
	unchanged := func([]model.Input) bool { return true }
	hit := func(_ json.RawMessage, ok bool) bool { return ok }
	p := plan(textDoc("a.md", "one\n"), textDoc("skills/s/SKILL.md", "two\n"), mcpDoc(model.Str{{Text: "x"}}))

	setup := func(t *testing.T) (*env, *Store) {
		e := newEnv(t)
		e.renderOnce(p)
		changes, st := e.renderOnce(p) // in sync now
		if !InSync(changes) {
			t.Fatalf("second render not in sync: %v", changes)
		}
		s := e.options().Store
		if err := s.WriteCache(e.opts.Instance, identity, config, inputs, changes, st, json.RawMessage(`[{"summary":"a warning"}]`)); err != nil {
			t.Fatal(err)
		}
		warnings, ok := s.CacheHit(identity, config, "", unchanged)
		if !ok {
			t.Fatal("a cache just written misses")
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, warnings); err != nil || compact.String() != `[{"summary":"a warning"}]` {
			t.Fatalf("a hit gives back the warnings %s", warnings)
		}
		return e, s
	}

	t.Run("a stamped file edited", func(t *testing.T) {
		e, s := setup(t)
		e.write("skills/s/SKILL.md", "TWO\n")
		if hit(s.CacheHit(identity, config, "", unchanged)) {
			t.Error("hit after a managed file changed")
		}
	})
	t.Run("the state rewritten", func(t *testing.T) {
		e, s := setup(t)
		st, err := e.loadState()
		if err != nil {
			t.Fatal(err)
		}
		st.Files["b.md"] = &FileState{SHA256: sum([]byte("b\n"))}
		if err := s.SaveState(e.opts.Instance, st); err != nil {
			t.Fatal(err)
		}
		if hit(s.CacheHit(identity, config, "", unchanged)) {
			t.Error("hit after the state changed: it records a file the cache does not stamp")
		}
	})
	t.Run("another build, config, instance or input", func(t *testing.T) {
		_, s := setup(t)
		for _, miss := range []bool{
			hit(s.CacheHit("agyconf other", config, "", unchanged)),
			hit(s.CacheHit(identity, "/cfg/other.hcl", "", unchanged)),
			hit(s.CacheHit(identity, config, "other", unchanged)),
			hit(s.CacheHit(identity, config, "", func([]model.Input) bool { return false })),
		} {
			if miss {
				t.Error("hit for another run")
			}
		}
	})
	t.Run("a state recording a file the render did not name", func(t *testing.T) {
		e := newEnv(t)
		e.renderOnce(p)
		changes, st := e.renderOnce(p)
		st.Files["elsewhere.md"] = &FileState{SHA256: sum([]byte("x\n"))}
		s := e.options().Store
		if err := s.WriteCache(e.opts.Instance, identity, config, inputs, changes, st, nil); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(filepath.Join(e.root, stateDir, "cache"))
		if len(entries) != 0 {
			t.Errorf("a cache that does not stamp every file of the state was written: %v", entries)
		}
		if hit(s.CacheHit(identity, config, "", unchanged)) {
			t.Error("hit without a cache")
		}
	})
}
