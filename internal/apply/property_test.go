package apply

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agyconf/agyconf/internal/memfs"
	"github.com/agyconf/agyconf/internal/render"
)

// The convergence property: over random sequences of steps — renders of
// three configs, each possibly cut short by a fault at any step of its
// batch; agy writing entries agyconf does not own; the user editing
// entries and files agyconf does own; clean — after every step no entry
// agyconf does not own is lost, nothing that was there before agyconf is
// deleted, every edit the user made to agyconf's content is kept (or
// reported as a conflict), and from there a render of the last config,
// without faults, converges: conflicts only where the user edited, and
// after they are resolved (--force) a second render has nothing to do.
//
// AGYCONF_PROPERTY_SEQUENCES sets how many sequences run (CI: 1,000 and
// more without the race detector); nothing is timed.

const (
	propMCP    = "cfg/mcp_config.json"
	propServer = "mcpServers"
)

// propFiles and propServers are what the configs choose from; the u*
// servers and the "agy" key are never any config's.
var (
	propFiles   = []string{"f/a.md", "f/b.md", "g/deep/c.md"}
	propServers = []string{"s1", "s2", "s3"}
	propForeign = []string{"u1", "u2"}
)

// propConfig is one config: which files and servers, and which variant of
// their content.
type propConfig struct {
	files   map[string]int
	servers map[string]int
}

func (c propConfig) plan() *render.Plan {
	var docs []*render.Document
	for _, f := range sortedKeys(c.files) {
		docs = append(docs, textDoc(f, fmt.Sprintf("%s v%d\n", f, c.files[f])))
	}
	if len(c.servers) > 0 {
		srv := map[string]any{}
		for s, v := range c.servers {
			srv[s] = map[string]any{"command": s + "-v" + strconv.Itoa(v)}
		}
		docs = append(docs, mcpPlanDoc(srv))
	}
	return plan(docs...)
}

func sortedKeys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func randomConfig(r *rand.Rand) propConfig {
	c := propConfig{files: map[string]int{}, servers: map[string]int{}}
	for _, f := range propFiles {
		if r.IntN(3) > 0 {
			c.files[f] = 1 + r.IntN(2)
		}
	}
	for _, s := range propServers {
		if r.IntN(3) > 0 {
			c.servers[s] = 1 + r.IntN(2)
		}
	}
	return c
}

// propWorld is one sequence's tree and what the oracle knows of it.
type propWorld struct {
	t    *testing.T
	m    *memfs.FS
	logs []string
	// foreign are the entries and keys no config owns, with their latest
	// value (agy's writes): never lost, never changed by agyconf.
	foreign map[string]string
	// before are the units that were there before agyconf, with their
	// content: never deleted (agyconf gives them back).
	before map[string]string
	// edited are the units the user changed after agyconf wrote them,
	// with the user's content: kept until a --force resolves them.
	edited map[string]string
	last   propConfig
}

func (w *propWorld) log(format string, args ...any) {
	w.logs = append(w.logs, fmt.Sprintf(format, args...))
}

func (w *propWorld) fail(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("%s\nsteps:\n  %s", fmt.Sprintf(format, args...), strings.Join(w.logs, "\n  "))
}

// mcp reads the shared file's servers and top-level keys.
func (w *propWorld) mcp(m *memfs.FS) (servers map[string]string, top map[string]string, ok bool) {
	data, exists := m.Get(propMCP)
	if !exists {
		return nil, nil, false
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		w.fail("%s is torn: %v\n%s", propMCP, err, data)
	}
	servers, top = map[string]string{}, map[string]string{}
	var srv map[string]json.RawMessage
	_ = json.Unmarshal(doc[propServer], &srv)
	for k, v := range srv {
		servers[k] = compactJSON(v)
	}
	for k, v := range doc {
		if k != propServer {
			top[k] = compactJSON(v)
		}
	}
	return servers, top, true
}

func compactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// unit reads a unit's content: a file's text, or a server's JSON; "" if absent.
func (w *propWorld) unit(m *memfs.FS, u string) string {
	if name, ok := strings.CutPrefix(u, "server:"); ok {
		servers, _, _ := w.mcp(m)
		return servers[name]
	}
	data, _ := m.Get(u)
	return string(data)
}

// check holds the invariants after a step.
func (w *propWorld) check(m *memfs.FS, when string) {
	w.t.Helper()
	servers, top, _ := w.mcp(m)
	for k, want := range w.foreign {
		var got string
		if name, ok := strings.CutPrefix(k, "server:"); ok {
			got = servers[name]
		} else {
			got = top[k]
		}
		if got != want {
			w.fail("%s: %s, which no config owns, is %q, want %q", when, k, got, want)
		}
	}
	for u := range w.before {
		if _, edited := w.edited[u]; edited {
			continue
		}
		if w.unit(m, u) == "" {
			w.fail("%s: %s was there before agyconf and is gone", when, u)
		}
	}
	for u, want := range w.edited {
		if got := w.unit(m, u); got != want {
			w.fail("%s: the user's edit of %s was lost: %q, want %q", when, u, got, want)
		}
	}
}

func (w *propWorld) options(fsys FS) Options {
	return Options{FS: fsys, Store: NewStore(fsys, stateDir), Instance: "p"}
}

// render renders c into fsys; a fault at the nth write-side call when
// fault > 0. It returns the changes and the error.
func (w *propWorld) render(fsys FS, c propConfig, force bool) ([]Change, error) {
	opts := w.options(fsys)
	opts.Force = force
	st, err := opts.Store.LoadState(opts.Instance)
	if err != nil {
		w.fail("the state no longer loads: %v", err)
	}
	changes, err := Decide(c.plan(), st, opts)
	if err != nil {
		return nil, err
	}
	return changes, Execute(changes, st, opts)
}

// converge renders the last config on a copy of the tree without faults:
// conflicts only where the user edited; resolved with --force, a second
// render has nothing to do.
func (w *propWorld) converge(when string) {
	m := w.m.Clone()
	changes, err := w.render(m, w.last, false)
	var ce *ConflictError
	if errors.As(err, &ce) {
		for _, c := range ce.Changes {
			u := c.Path
			if c.Unit != "" {
				u = "server:" + strings.TrimPrefix(c.Unit, propServer+".")
			}
			if _, edited := w.edited[u]; !edited {
				w.fail("%s: a render of the last config reports a false conflict on %s: %s", when, c.Name(), c.Reason)
			}
		}
		if changes, err = w.render(m, w.last, true); err != nil {
			w.fail("%s: --force after the user's edits: %v", when, err)
		}
	} else if err != nil {
		w.fail("%s: a render of the last config: %v", when, err)
	}
	_ = changes
	again, err := w.render(m, w.last, false)
	if err != nil {
		w.fail("%s: the render after converging: %v", when, err)
	}
	for _, c := range again {
		if c.Writes() {
			w.fail("%s: not converged: a second render still does %s to %s", when, c.Action, c.Name())
		}
	}
	saved := w.edited
	w.edited = nil // resolved on the copy only
	w.check(m, when+", converged")
	w.edited = saved
}

func TestConvergenceProperty(t *testing.T) {
	n := 200
	if s := os.Getenv("AGYCONF_PROPERTY_SEQUENCES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	for seq := 0; seq < n; seq++ {
		r := rand.New(rand.NewPCG(uint64(seq), 0x5eed))
		w := &propWorld{t: t, m: memfs.New("/mem"), foreign: map[string]string{}, before: map[string]string{}, edited: map[string]string{}}
		configs := []propConfig{randomConfig(r), randomConfig(r), randomConfig(r)}
		// What was there before agyconf: the user's own servers, agy's
		// key, and maybe some of what a config wants, as it wants it.
		initial := map[string]any{propServer: map[string]any{}}
		for _, u := range propForeign {
			v := fmt.Sprintf(`{"command":"%s-own"}`, u)
			initial[propServer].(map[string]any)[u] = json.RawMessage(v)
			w.foreign["server:"+u] = v
		}
		initial["agy"] = json.RawMessage(`"agy's"`)
		w.foreign["agy"] = `"agy's"`
		for s, v := range configs[0].servers {
			if r.IntN(2) == 0 {
				val := fmt.Sprintf(`{"command":"%s-v%d"}`, s, v)
				initial[propServer].(map[string]any)[s] = json.RawMessage(val)
				w.before["server:"+s] = val
			}
		}
		b, _ := json.Marshal(initial)
		w.m.Put(propMCP, b, 0o644)
		for f, v := range configs[0].files {
			if r.IntN(2) == 0 {
				text := fmt.Sprintf("%s v%d\n", f, v)
				w.m.Put(f, []byte(text), 0o644)
				w.before[f] = text
			}
		}
		w.last = configs[0]
		steps := 4 + r.IntN(8)
		for step := 0; step < steps; step++ {
			switch k := r.IntN(10); {
			case k < 5: // a render, maybe cut short
				i := r.IntN(len(configs))
				fault := int64(0)
				if r.IntN(2) == 0 {
					fault = 1 + r.Int64N(12)
				}
				w.log("render config %d, fault at step %d", i, fault)
				// The batch writes in parallel: the count is shared.
				var calls atomic.Int64
				fsys := FS(w.m)
				if fault > 0 {
					fsys = &hookFS{FS: w.m, before: func(string, string) error {
						if calls.Add(1) == fault {
							return errInjected
						}
						return nil
					}}
				}
				_, err := w.render(fsys, configs[i], false)
				var ce *ConflictError
				switch {
				case err == nil, errors.Is(err, errInjected), errors.As(err, &ce):
				default:
					w.fail("render: %v", err)
				}
				if err == nil || errors.Is(err, errInjected) {
					w.last = configs[i]
				}
			case k < 7: // agy writes what it owns
				u := propForeign[r.IntN(len(propForeign))]
				v := fmt.Sprintf(`{"command":"%s-agy-%d"}`, u, r.IntN(100))
				w.log("agy sets %s", u)
				w.setServer(u, v)
				w.foreign["server:"+u] = v
			case k < 9: // the user edits something agyconf wrote
				w.userEdit(r)
			default: // clean
				w.log("clean")
				if _, err := w.render(w.m, propConfig{}, false); err != nil {
					w.fail("clean: %v", err)
				}
				// An edit agyconf no longer wants is kept, and stays
				// recorded: a later config that wants it again reports it.
				w.last = propConfig{}
			}
			w.check(w.m, fmt.Sprintf("after step %d", step))
			w.converge(fmt.Sprintf("after step %d", step))
		}
	}
}

func (w *propWorld) setServer(name, value string) {
	data, _ := w.m.Get(propMCP)
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		doc = map[string]json.RawMessage{}
	}
	var srv map[string]json.RawMessage
	_ = json.Unmarshal(doc[propServer], &srv)
	if srv == nil {
		srv = map[string]json.RawMessage{}
	}
	srv[name] = json.RawMessage(value)
	doc[propServer], _ = json.Marshal(srv)
	b, _ := json.MarshalIndent(doc, "", "  ")
	w.m.Put(propMCP, b, 0o644)
}

// userEdit changes a file or server the state says agyconf owns.
func (w *propWorld) userEdit(r *rand.Rand) {
	st, err := NewStore(w.m, stateDir).LoadState("p")
	if err != nil || len(st.Files) == 0 {
		return
	}
	var keys []string
	for k := range st.Files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	k := keys[r.IntN(len(keys))]
	if file, ptr, ok := strings.Cut(k, unitSep); ok && file == propMCP {
		name := strings.TrimPrefix(ptr, "/"+propServer+"/")
		if w.unit(w.m, "server:"+name) == "" {
			return
		}
		v := fmt.Sprintf(`{"command":"%s-user-%d"}`, name, r.IntN(100))
		w.log("the user edits server %s", name)
		w.setServer(name, v)
		w.edited["server:"+name] = v
		return
	}
	if _, ok := w.m.Get(k); !ok {
		return
	}
	text := fmt.Sprintf("%s edited by the user %d\n", k, r.IntN(100))
	w.log("the user edits %s", k)
	w.m.Put(k, []byte(text), 0o644)
	w.edited[k] = text
}
