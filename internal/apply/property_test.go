package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/memfs"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/schema"
)

// The convergence property, over random sequences of steps on a tree in
// memory: renders of three configs written in the input language (every
// kind of document, disabled servers, secrets in every place a secret
// goes, extra, layout overrides, a plugin and its enablement), each maybe
// cut short by a fault at any step of its batch, with --adopt or --force
// now and then; what agy does to the shared files (its own keys, a
// toggled "disabled", a reformat, a stale copy written back); the user
// editing what agyconf wrote; secrets rotating; clean; an emptied config.
//
// After every step:
//   - a render never deletes what was not agyconf's, never changes what
//     no config declares, never overwrites the user's edit without
//     --force, and records as "found" only what was there already,
//     identical to what the config wants (secrets read), and was not
//     agyconf's own earlier write;
//   - a render of the last config converges: a conflict only where the
//     content is not agyconf's, and after --force --adopt a second render
//     has nothing to do;
//   - letting go, on two copies of the tree (the config emptied, and
//     clean with the last config's layout): every unit the state records
//     as created whose content is what agyconf wrote is gone, with the
//     shared files agyconf created that hold nothing else and the folders
//     agyconf created that are left empty; every found, adopted or forced
//     unit is byte for byte what the user had; an edited one is kept as it
//     is; a shared file nobody but agyconf changed since it took it over
//     is the user's file byte for byte; and nothing else changed.
//
// AGYCONF_PROPERTY_SEQUENCES sets how many sequences run (CI: 2,000);
// nothing is timed.

const propInstance = "p"

// propSpec is one config: what it declares, each thing in one of a few
// variants (0: not declared).
type propSpec struct {
	inline  bool
	layout  map[string]string
	servers map[string]propServer
	hook    int
	skill   int
	agent   int
	flow    int
	rule    int
	allow   []string
	shared  []string
	theme   int
	model   int
	plugin  int
	// pluginEnabled: 0 unset, 1 true, 2 false.
	pluginEnabled int
}

type propServer struct {
	variant int
	remote  bool
	// disabled: 0 unset, 1 true, 2 false.
	disabled int
	// secret: a bit set of where secrets go (1: env or a header, 2: args
	// or oauth).
	secret int
	extra  int
}

var (
	propServerNames = []string{"s1", "s2", "s3"}
	propAllow       = []string{"command(git *)", "read_file", "command(ls)"}
	propShared      = []string{"command(make)", "read_url"}
	propOverrides   = map[string]string{
		"skills": "alt/skills", "mcp_config": "alt/mcp_config.json", "hooks": "alt/hooks.json",
		"agents": "alt/agents", "plugins": "alt/plugins", "user_config": "alt/config.json",
	}
	propSecrets = []string{"/sec/a", "/sec/b"}
)

func randomSpec(r *rand.Rand) propSpec {
	s := propSpec{inline: r.IntN(2) == 0, layout: map[string]string{}, servers: map[string]propServer{}}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range propOverrides {
			if !yield(k) {
				return
			}
		}
	}) {
		if r.IntN(6) == 0 {
			s.layout[k] = propOverrides[k]
		}
	}
	for _, n := range propServerNames {
		if r.IntN(3) == 0 {
			continue
		}
		srv := propServer{variant: 1 + r.IntN(2), remote: r.IntN(3) == 0, disabled: r.IntN(3), secret: r.IntN(4), extra: r.IntN(3)}
		s.servers[n] = srv
	}
	pick := func() int {
		if r.IntN(3) == 0 {
			return 0
		}
		return 1 + r.IntN(2)
	}
	s.hook, s.skill, s.agent, s.flow, s.rule = pick(), pick(), pick(), pick(), pick()
	s.theme, s.model, s.plugin = pick(), pick(), pick()
	s.pluginEnabled = r.IntN(3)
	for _, a := range propAllow {
		if r.IntN(2) == 0 {
			s.allow = append(s.allow, a)
		}
	}
	for _, a := range propShared {
		if r.IntN(2) == 0 {
			s.shared = append(s.shared, a)
		}
	}
	return s
}

// hcl writes the spec in the input language.
func (s propSpec) hcl() string {
	var b strings.Builder
	mode := "exec"
	if s.inline {
		mode = "inline"
	}
	fmt.Fprintf(&b, "agyconf {\n  instance = %q\n  secret_mode = %q\n", propInstance, mode)
	if len(s.layout) > 0 {
		b.WriteString("  layout {\n")
		for _, k := range slices.Sorted(mapKeys(s.layout)) {
			fmt.Fprintf(&b, "    %s = %q\n", k, s.layout[k])
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	for _, n := range slices.Sorted(mapKeys(s.servers)) {
		srv := s.servers[n]
		fmt.Fprintf(&b, "mcp_server %q {\n", n)
		if srv.remote {
			fmt.Fprintf(&b, "  server_url = \"https://%s.example/v%d\"\n", n, srv.variant)
			if srv.secret&1 != 0 {
				fmt.Fprintf(&b, "  headers = { Authorization = \"Bearer ${secret_file(%q)}\", X-Plain = \"p\" }\n", propSecrets[0])
			}
			if srv.secret&2 != 0 {
				fmt.Fprintf(&b, "  oauth {\n    client_id = \"cid\"\n    client_secret = secret_file(%q)\n  }\n", propSecrets[1])
			}
		} else {
			fmt.Fprintf(&b, "  command = \"%s-v%d\"\n", n, srv.variant)
			if srv.secret&2 != 0 && s.inline {
				fmt.Fprintf(&b, "  args = [\"--token\", secret_file(%q)]\n", propSecrets[1])
			} else {
				b.WriteString("  args = [\"--plain\"]\n")
			}
			if srv.secret&1 != 0 {
				fmt.Fprintf(&b, "  env = { TOKEN = secret_file(%q), PLAIN = \"p\" }\n", propSecrets[0])
			}
		}
		switch srv.disabled {
		case 1:
			b.WriteString("  disabled = true\n")
		case 2:
			b.WriteString("  disabled = false\n")
		}
		if srv.extra > 0 {
			fmt.Fprintf(&b, "  extra = { trust = %d }\n", srv.extra)
		}
		b.WriteString("}\n")
	}
	if s.hook > 0 {
		fmt.Fprintf(&b, "hook \"h1\" {\n  stop { command = \"/bin/h1-v%d\" }\n}\n", s.hook)
	}
	if s.skill > 0 {
		fmt.Fprintf(&b, "skill \"k1\" {\n  description = \"k1\"\n  body = \"k1 v%d\"\n}\n", s.skill)
	}
	if s.agent > 0 {
		fmt.Fprintf(&b, "agent \"a1\" {\n  description = \"a1\"\n  body = \"a1 v%d\"\n}\n", s.agent)
	}
	if s.flow > 0 {
		fmt.Fprintf(&b, "workflow \"w1\" {\n  body = \"w1 v%d\"\n}\n", s.flow)
	}
	if s.rule > 0 {
		fmt.Fprintf(&b, "rule \"r1\" {\n  body = \"r1 v%d\"\n}\n", s.rule)
	}
	list := func(xs []string) string {
		q := make([]string, len(xs))
		for i, x := range xs {
			q[i] = strconv.Quote(x)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	if len(s.allow) > 0 {
		fmt.Fprintf(&b, "permissions { allow = %s }\n", list(s.allow))
	}
	if len(s.shared) > 0 {
		fmt.Fprintf(&b, "shared_permissions { allow = %s }\n", list(s.shared))
	}
	if s.theme > 0 || s.model > 0 {
		b.WriteString("settings {\n")
		if s.theme > 0 {
			fmt.Fprintf(&b, "  theme = \"t%d\"\n", s.theme)
		}
		if s.model > 0 {
			fmt.Fprintf(&b, "  model = \"m%d\"\n", s.model)
		}
		b.WriteString("}\n")
	}
	if s.plugin > 0 {
		fmt.Fprintf(&b, "plugin \"p1\" {\n  description = \"p1 v%d\"\n", s.plugin)
		switch s.pluginEnabled {
		case 1:
			b.WriteString("  enabled = true\n")
		case 2:
			b.WriteString("  enabled = false\n")
		}
		fmt.Fprintf(&b, "  skill \"ps\" {\n    description = \"ps\"\n    body = \"ps v%d\"\n  }\n}\n", s.plugin)
	}
	return b.String()
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// propConfig is a spec decoded and rendered, as the engine does.
type propConfig struct {
	spec   propSpec
	text   string
	plan   *render.Plan
	layout layout.Layout
}

func buildConfig(t *testing.T, s propSpec, empty bool) *propConfig {
	t.Helper()
	text := s.hcl()
	p := config.NewParser()
	f, diags := p.ParseBytes([]byte(text), "agyconf.hcl")
	if diags.HasErrors() {
		t.Fatalf("the generated config does not parse: %v\n%s", diags, text)
	}
	cfg, diags := config.Decode([]hcl.Body{f.Body})
	if diags.HasErrors() {
		t.Fatalf("the generated config does not decode: %v\n%s", diags, text)
	}
	l := layout.New(cfg.Agyconf)
	pl, diags := render.Render(cfg, l)
	if diags.HasErrors() {
		t.Fatalf("the generated config does not render: %v\n%s", diags, text)
	}
	if empty {
		pl = &render.Plan{} // clean: nothing wanted, the config's layout
	}
	return &propConfig{spec: s, text: text, plan: pl, layout: l}
}

// propWorld is one sequence's tree and what the oracle knows of it.
type propWorld struct {
	t       *testing.T
	m       *memfs.FS
	logs    []string
	secrets map[string]string
	// hadSecrets are the secrets' values when had was taken.
	hadSecrets map[string]map[string]string
	// written are, per state key, the contents agyconf wrote for the unit
	// (seen changing during a render while the state records the key).
	written map[string][]propVersion
	// had is, per state key, what the unit held when agyconf took it (it
	// was found, adopted, or forced over an edit).
	had map[string]propContent
	// users are every content the user had when agyconf took the unit.
	users map[string][]string
	// edited are the units the user changed after agyconf wrote them.
	edited map[string]string
	// fileOrig is a shared file as it was when agyconf first merged into
	// it, and lastWritten what agyconf last wrote there (several, after
	// renders cut short).
	fileOrig    map[string][]byte
	lastWritten map[string][][]byte
	// dirty are the shared files someone other than agyconf wrote since
	// agyconf took them over.
	dirty map[string]bool
	// createdFiles and createdDirs came into being during a render.
	createdFiles map[string]bool
	createdDirs  map[string]bool
	// snapshots are shared files as agy read them, to be written back
	// later (a stale write).
	snapshots map[string][]byte
	last      *propConfig
	empty     *propConfig
}

// propVersion is one content agyconf wrote; stripped: the config did not
// set "disabled", so agy's value of it is not part of agyconf's content.
type propVersion struct {
	text     string
	stripped bool
}

type propContent struct {
	raw     string
	present bool
}

func (w *propWorld) log(format string, args ...any) {
	w.logs = append(w.logs, fmt.Sprintf(format, args...))
}

func (w *propWorld) fail(format string, args ...any) {
	w.t.Helper()
	w.t.Fatalf("%s\nsteps:\n  %s", fmt.Sprintf(format, args...), strings.Join(w.logs, "\n  "))
}

func (w *propWorld) read(p string) (string, error) {
	v, ok := w.secrets[p]
	if !ok {
		return "", os.ErrNotExist
	}
	return v, nil
}

// options are what the engine passes apply for c.
func (w *propWorld) options(fsys FS, c *propConfig) Options {
	l := c.layout
	return Options{FS: fsys, Store: NewStore(fsys, stateDir), Instance: propInstance, Secrets: w.read,
		Layout: &l, ReadOutsideLinks: true}
}

func (w *propWorld) state(m FS) *State {
	st, err := w.load(m)
	if err != nil {
		w.fail("the state no longer loads: %v", err)
	}
	return st
}

// load reads the state as Store.LoadState does, with the schemas compiled
// once for the whole test.
func (w *propWorld) load(m FS) (*State, error) {
	name := stateDir + "/" + propInstance + ".json"
	data, _, err := m.ReadFile(name, MaxStateSize)
	if errors.Is(err, fs.ErrNotExist) {
		return NewState(), nil
	}
	if err != nil {
		return nil, err
	}
	st, err := parseState(propValidators, name, data)
	if err != nil {
		return nil, err
	}
	st.read = true
	return st, nil
}

// propValidators are the state's schemas, compiled once.
var propValidators = map[string]*schema.Validator{}

// render renders c into fsys.
func (w *propWorld) render(fsys FS, c *propConfig, force, adopt bool) ([]Change, error) {
	opts := w.options(fsys, c)
	opts.Force, opts.Adopt = force, adopt
	st, err := w.load(fsys)
	if err != nil {
		w.fail("the state no longer loads: %v", err)
	}
	changes, err := Decide(c.plan, st, opts)
	if err != nil {
		return nil, err
	}
	return changes, Execute(changes, st, opts)
}

// content reads a unit by its state key: a file's bytes, a managed
// block, an entry's text, or "" for a present list item.
func content(m *memfs.FS, key string, f *FileState) propContent {
	file, ptr, shared := strings.Cut(key, unitSep)
	data, ok := m.Get(file)
	if !ok {
		return propContent{}
	}
	if !shared {
		if f != nil && f.Block {
			block, ok, err := blockMarkers(f.BlockSyntax).extract(data)
			if err != nil || !ok {
				return propContent{}
			}
			return propContent{raw: string(block), present: true}
		}
		return propContent{raw: string(data), present: true}
	}
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		return propContent{}
	}
	p, item, isItem := parseUnitKey(unitSep + ptr)
	if isItem {
		items, _ := doc.ArrayStrings(p...)
		return propContent{present: slices.Contains(items, item)}
	}
	raw, ok := doc.Get(p...)
	return propContent{raw: string(raw), present: ok}
}

// isServer reports whether a state key is an MCP server's entry.
func isServer(key string) (string, bool) {
	_, ptr, ok := strings.Cut(key, unitSep)
	if !ok {
		return "", false
	}
	name, ok := strings.CutPrefix(ptr, "/mcpServers/")
	return name, ok && !strings.Contains(name, "/")
}

// norm is a unit's content as the oracle compares it with what agyconf
// wrote: JSON in canonical form, without "disabled" when stripped.
func norm(key string, c propContent, stripped bool) string {
	if !strings.Contains(key, unitSep) || !c.present {
		return c.raw
	}
	if _, isItem := strings.CutPrefix(key, itemSep); strings.Contains(key, itemSep) || isItem {
		return c.raw
	}
	var v any
	if json.Unmarshal([]byte(c.raw), &v) != nil {
		return c.raw
	}
	if o, ok := v.(map[string]any); ok && stripped {
		delete(o, "disabled")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// agyconfs reports whether c is content agyconf wrote for key: one of
// its versions, "disabled" aside where that version's config left it to
// agy.
func (w *propWorld) agyconfs(key string, c propContent) bool {
	return w.agyconfsAs(key, c, false)
}

// agyconfsAs is agyconfs; strict: the config now sets "disabled", and a
// value of it other than agyconf's is an edit, whatever it was before.
func (w *propWorld) agyconfsAs(key string, c propContent, strict bool) bool {
	if !c.present {
		return false
	}
	if strings.Contains(key, itemSep) {
		return len(w.written[key]) > 0
	}
	for _, v := range w.written[key] {
		if norm(key, c, v.stripped && !strict) == v.text {
			return true
		}
	}
	return false
}

// usersOwn reports whether c is what the user had when agyconf took the
// unit, at some point (given back since, it is the user's again).
func (w *propWorld) usersOwn(key string, c propContent) bool {
	return slices.Contains(w.users[key], norm(key, c, false))
}

// agyStrips reports whether the content matches a version agyconf wrote
// without "disabled": the value there is agy's. The versions are read
// newest first, and the first that explains the content decides: the
// entry exactly as agyconf last wrote it, "disabled" included, is
// agyconf's, though an earlier version without "disabled" matches it
// too.
func (w *propWorld) agyStrips(key string, c propContent) bool {
	vs := w.written[key]
	for i := len(vs) - 1; i >= 0; i-- {
		switch v := vs[i]; {
		case v.stripped && norm(key, c, true) == v.text:
			return true
		case !v.stripped && norm(key, c, false) == v.text:
			return false
		}
	}
	return false
}

// treeFiles are the files of the tree but agyconf's own.
func treeFiles(m *memfs.FS) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range m.Files() {
		if strings.HasPrefix(f, stateDir+"/") {
			continue
		}
		out[f], _ = m.Get(f)
	}
	return out
}

func treeDirs(m *memfs.FS) map[string]bool {
	out := map[string]bool{}
	for _, d := range m.Dirs() {
		if d == stateDir || strings.HasPrefix(d, stateDir+"/") || strings.HasPrefix(stateDir, d+"/") {
			continue
		}
		out[d] = true
	}
	return out
}

// stateKeysOfFile lists the state's keys in a file.
func keysIn(st *State, file string) []string {
	var out []string
	for k := range st.Files {
		if f, _, ok := strings.Cut(k, unitSep); ok && f == file {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// foreignPaths are entries no config ever declares, by the shared file
// kind they live in: agyconf must never change them.
var foreignPaths = [][]string{
	{"mcpServers", "u1"}, {"mcpServers", "u2"}, {"agy"}, {"uh"}, {"colorScheme"},
	{"plugins", "up"}, {"ui"},
}

// foreign reads every foreign entry of every JSON file of the tree.
func foreign(m *memfs.FS) map[string]string {
	out := map[string]string{}
	for f, data := range treeFiles(m) {
		if !strings.HasSuffix(f, ".json") {
			continue
		}
		doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
		if err != nil {
			continue
		}
		for _, p := range foreignPaths {
			if raw, ok := doc.Get(p...); ok {
				c, _ := jsonmerge.Canonical(raw)
				out[f+render.Pointer(p...)] = string(c)
			}
		}
		if items, err := doc.ArrayStrings("permissions", "allow"); err == nil && slices.Contains(items, "read_file(/u)") {
			out[f+"#read_file(/u)"] = "present"
		}
	}
	return out
}

// userJSON encodes a value the way a person's file may look: four spaces,
// members in reverse order, so that a rewrite by anyone shows.
func userJSON(v any, indent string) string {
	var b strings.Builder
	var walk func(v any, depth int)
	pad := func(d int) string { return strings.Repeat(indent, d) }
	walk = func(v any, depth int) {
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 {
				b.WriteString("{}")
				return
			}
			keys := slices.Sorted(mapKeys(x))
			slices.Reverse(keys)
			b.WriteString("{\n")
			for i, k := range keys {
				kb, _ := json.Marshal(k)
				fmt.Fprintf(&b, "%s%s: ", pad(depth+1), kb)
				walk(x[k], depth+1)
				if i < len(keys)-1 {
					b.WriteString(",")
				}
				b.WriteString("\n")
			}
			b.WriteString(pad(depth) + "}")
		case []any:
			if len(x) == 0 {
				b.WriteString("[]")
				return
			}
			b.WriteString("[")
			for i, e := range x {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(e, depth+1)
			}
			b.WriteString("]")
		default:
			raw, _ := json.Marshal(x)
			b.Write(raw)
		}
	}
	walk(v, 0)
	b.WriteString("\n")
	return b.String()
}

// seed lays out what the user and agy had before agyconf: their own
// servers, hooks, keys, grants and notes in every shared file's default
// place, and of what the first config renders some identical (found),
// some different (to adopt), some differing only in a credential.
func (w *propWorld) seed(r *rand.Rand, c *propConfig) {
	files := map[string]map[string]any{
		".gemini/config/mcp_config.json": {"agy": "agy's", "mcpServers": map[string]any{
			"u1": map[string]any{"command": "u1-own", "args": []any{"--x"}, "env": map[string]any{"U": "USERS-OWN-TOKEN"}},
			"u2": map[string]any{"serverUrl": "https://u2.example", "disabled": true}}},
		".gemini/config/hooks.json":             {"uh": map[string]any{"Stop": []any{map[string]any{"type": "command", "command": "/bin/uh", "timeout": 5}}}},
		".gemini/antigravity-cli/settings.json": {"colorScheme": "user", "permissions": map[string]any{"allow": []any{"read_file(/u)"}}},
		".gemini/config/config.json":            {"plugins": map[string]any{"up": map[string]any{"enabled": false}}, "ui": map[string]any{"x": 1}},
	}
	for _, d := range c.plan.Documents {
		if d.Merge == nil {
			if d.Kind == render.ManagedBlock {
				w.m.Put(d.Path, []byte("# My notes\n\nkeep these\n"), 0o644)
				continue
			}
			switch r.IntN(4) {
			case 0:
				data, err := d.Bytes(w.read)
				if err != nil {
					w.fail("%v", err)
				}
				w.m.Put(d.Path, data, d.Mode)
			case 1:
				mine := "the user's own " + d.Path + "\n"
				if strings.HasSuffix(d.Path, ".json") {
					mine = `{"name": "the user's own"}` + "\n"
				}
				w.m.Put(d.Path, []byte(mine), 0o644)
			}
			continue
		}
		data, err := d.Bytes(w.read)
		if err != nil {
			w.fail("%v", err)
		}
		var resolved map[string]any
		_ = json.Unmarshal(data, &resolved)
		doc := files[d.Path]
		if doc == nil {
			doc = map[string]any{}
			files[d.Path] = doc
		}
		parent := doc
		for _, p := range d.Merge.Parent {
			next, _ := parent[p].(map[string]any)
			if next == nil {
				next = map[string]any{}
				parent[p] = next
			}
			parent = next
		}
		src := resolved
		for _, p := range d.Merge.Parent {
			src, _ = src[p].(map[string]any)
		}
		for _, k := range slices.Sorted(mapKeys(src)) {
			v := src[k]
			if len(d.Merge.Parent) == 0 && slices.ContainsFunc(d.Merge.Items, func(it []string) bool { return it[0] == k }) {
				continue
			}
			switch r.IntN(4) {
			case 0: // identical: found
				parent[k] = v
			case 1: // the user's own, different
				if o, ok := v.(map[string]any); ok {
					mine := map[string]any{"command": "users-" + k, "args": []any{"--mine"}}
					if _, remote := o["serverUrl"]; remote {
						mine = map[string]any{"serverUrl": "https://users.example/" + k}
					}
					parent[k] = mine
				} else {
					parent[k] = "users-" + k
				}
			case 2: // the same but for a credential
				raw, _ := json.Marshal(v)
				changed := string(raw)
				for _, s := range propSecrets {
					changed = strings.ReplaceAll(changed, w.secrets[s], "USERS-OWN-TOKEN")
				}
				var mine any
				_ = json.Unmarshal([]byte(changed), &mine)
				parent[k] = mine
			}
		}
		for _, it := range d.Merge.Items {
			items := arrayAt(resolved, it)
			var mine []any
			for _, x := range items {
				if r.IntN(2) == 0 {
					mine = append(mine, x)
				}
			}
			if len(mine) > 0 {
				at := doc
				for _, p := range it[:len(it)-1] {
					next, _ := at[p].(map[string]any)
					if next == nil {
						next = map[string]any{}
						at[p] = next
					}
					at = next
				}
				have, _ := at[it[len(it)-1]].([]any)
				at[it[len(it)-1]] = append(have, mine...)
			}
		}
	}
	for _, f := range slices.Sorted(mapKeys(files)) {
		w.m.Put(f, []byte(userJSON(files[f], "    ")), 0o644)
	}
}

// snapshot is the tree and the state before a step.
type snapshot struct {
	files map[string][]byte
	dirs  map[string]bool
	st    *State
	m     *memfs.FS
}

func (w *propWorld) snap() snapshot {
	m := w.m.Clone()
	return snapshot{files: treeFiles(m), dirs: treeDirs(m), st: w.state(m), m: m}
}

// afterRender does the bookkeeping of a render step and checks what a
// render promises.
func (w *propWorld) afterRender(before snapshot, c *propConfig, force, adopt bool) {
	w.t.Helper()
	after := w.snap()
	// Foreign entries: never changed.
	fb, fa := foreign(before.m), foreign(after.m)
	for k, v := range fb {
		if fa[k] != v {
			w.fail("the render changed %s, which no config declares: %q, was %q", k, fa[k], v)
		}
	}
	keys := map[string]bool{}
	for k := range before.st.Files {
		keys[k] = true
	}
	for k := range after.st.Files {
		keys[k] = true
	}
	for _, k := range slices.Sorted(mapKeys(keys)) {
		fs := after.st.Files[k]
		if fs == nil {
			fs = before.st.Files[k]
		}
		cb, ca := content(before.m, k, fs), content(after.m, k, fs)
		// What was not agyconf's is never deleted.
		if cb.present && !ca.present && !w.agyconfs(k, cb) && before.st.Files[k] != nil {
			if o := before.st.Files[k].Origin; o != OriginCreated || w.edited[k] != "" {
				w.fail("the render deleted %s, which was not agyconf's (origin %s): %q", k, o, cb.raw)
			}
		}
		if cb.present && !ca.present && !w.agyconfs(k, cb) && before.st.Files[k] == nil {
			w.fail("the render deleted %s, which it did not own: %q", k, cb.raw)
		}
		// The user's edits are kept unless forced.
		// (--adopt takes over what agyconf no longer records: an edit of
		// a unit it let go of is the user's like any other.)
		if e, ok := w.edited[k]; ok && !force && !(adopt && before.st.Files[k] == nil) && cb.raw == e && (ca.raw != e || !ca.present) {
			w.fail("the render overwrote the user's edit of %s: %q, was %q", k, ca.raw, e)
		}
		if _, ok := w.edited[k]; ok && ca.raw != w.edited[k] {
			delete(w.edited, k)
		}
		now, was := after.st.Files[k], before.st.Files[k]
		if now == nil {
			continue
		}
		// Found: it was there, as the config wants it, and not agyconf's
		// own earlier write.
		// (An entry agyconf gave back, written back as agyconf had it
		// then, is found again with its original: that is a claim.)
		if g := before.st.gone(k); now.Origin == OriginFound && (was == nil || was.Origin != OriginFound) && (g == nil || g.Origin != OriginFound) {
			if w.agyconfs(k, cb) && !w.usersOwn(k, cb) {
				w.fail("%s is recorded as found, but it is what agyconf itself wrote earlier: %q\nwas %+v, gone %+v", k, cb.raw, was, before.st.Gone)
			}
			if norm(k, cb, false) != norm(k, ca, false) && !strings.Contains(k, itemSep) {
				if !(strings.Contains(k, unitSep) && sameJSONText(cb.raw, ca.raw)) && !(!strings.Contains(k, unitSep) && strings.HasSuffix(k, ".json") && sameJSONText(cb.raw, ca.raw)) {
					w.fail("%s is recorded as found, but the render changed it: %q, was %q", k, ca.raw, cb.raw)
				}
			}
		}
		// What the user had when agyconf took it.
		claimed := was == nil && before.st.gone(k) != nil && before.st.gone(k).Original != "" && now.Original == before.st.gone(k).Original
		if !claimed && ((was == nil && now.Origin != OriginCreated) || (was != nil && now.Original != was.Original && now.Original != "") || (was != nil && was.Origin != now.Origin && now.Origin != OriginCreated)) {
			w.had[k] = cb
			w.hadSecrets[k] = maps.Clone(w.secrets)
			w.users[k] = append(w.users[k], norm(k, cb, false))
		}
		if was == nil && now.Origin == OriginCreated {
			delete(w.had, k)
		}
		// What agyconf wrote: the unit changed during the render while
		// the state records it.
		if h, ok := w.had[k]; ok && h.present && ca.raw == h.raw && cb.raw != h.raw {
			continue // given back (by a render cut short after it): the user's
		}
		if ca.present && (ca.raw != cb.raw || cb.present != ca.present) {
			_, isSrv := isServer(k)
			stripped := isSrv && !renders(c, k, "disabled")
			w.written[k] = append(w.written[k], propVersion{text: norm(k, ca, stripped), stripped: stripped})
		}
	}
	// A whole-file backup holds the user's bytes: agyconf's secrets in it
	// are taken out where they can be put back, and by value elsewhere,
	// nothing else.
	for _, b := range after.st.Backups {
		if _, old := before.st.backupOf(b.ID, b.Path, ""); b.Reason != "takeover" || old {
			continue
		}
		had, ok := before.files[b.Path]
		if !ok {
			continue
		}
		got, err := original(w.options(after.m, c), after.st, b.Path, "", b.ID, nil)
		if err != nil {
			w.fail("the backup of %s does not read: %v", b.Path, err)
		}
		values := SecretValues(propSecrets, w.read)
		if !bytes.Equal(RedactValues(got, values), RedactValues(had, values)) {
			w.fail("the backup of %s is not what the user had:\n%s\nhad\n%s", b.Path, got, had)
		}
	}
	// Files and folders agyconf created.
	for f := range after.files {
		if _, ok := before.files[f]; !ok {
			w.createdFiles[f] = true
		}
	}
	for f := range w.createdFiles {
		if _, ok := after.files[f]; !ok {
			delete(w.createdFiles, f)
		}
	}
	for d := range after.dirs {
		if !before.dirs[d] {
			w.createdDirs[d] = true
		}
	}
	for d := range w.createdDirs {
		if !after.dirs[d] {
			delete(w.createdDirs, d)
		}
	}
	// Shared files: as found when agyconf first merged into one, and what
	// it last wrote there.
	shared := map[string]bool{}
	for k := range after.st.Files {
		if f, _, ok := strings.Cut(k, unitSep); ok {
			shared[f] = true
		}
	}
	for f := range shared {
		if len(keysIn(before.st, f)) == 0 {
			if data, ok := before.files[f]; ok {
				w.fileOrig[f] = data
			} else {
				delete(w.fileOrig, f)
			}
			w.lastWritten[f] = nil
			delete(w.dirty, f)
		}
	}
	for f := range w.fileOrig {
		if !shared[f] {
			delete(w.fileOrig, f)
		}
	}
	for f := range shared {
		if !bytes.Equal(before.files[f], after.files[f]) {
			w.lastWritten[f] = append(w.lastWritten[f], after.files[f])
		}
	}
}

// renders reports whether the config writes member into the entry key.
func renders(c *propConfig, key, member string) bool {
	file, ptr, _ := strings.Cut(key, unitSep)
	for _, d := range c.plan.Documents {
		if d.Path != file || d.JSON == nil {
			continue
		}
		p, _, _ := parseUnitKey(unitSep + ptr)
		v, _ := valueAt(d.JSON, p).(map[string]any)
		_, ok := v[member]
		return ok
	}
	return false
}

func sameJSONText(a, b string) bool {
	ca, err1 := jsonmerge.Canonical(json.RawMessage(a))
	cb, err2 := jsonmerge.Canonical(json.RawMessage(b))
	return err1 == nil && err2 == nil && bytes.Equal(ca, cb)
}

// afterOther does the bookkeeping of a step that is not agyconf's: what
// it changed of the user's edits.
func (w *propWorld) afterOther(before snapshot) {
	st := w.state(w.m)
	for k, e := range w.edited {
		c := content(w.m, k, st.Files[k])
		switch {
		case !c.present, w.agyconfs(k, c):
			delete(w.edited, k)
		case c.raw != e:
			w.edited[k] = c.raw
		}
	}
	for f, data := range treeFiles(w.m) {
		if !bytes.Equal(before.files[f], data) {
			w.dirty[f] = true
		}
	}
}

// letGo checks what letting go does, on copies of the tree: the config
// emptied, and clean.
func (w *propWorld) letGo(when string) {
	w.t.Helper()
	for _, c := range []*propConfig{w.empty, w.lastClean()} {
		m := w.m.Clone()
		before := snapshot{files: treeFiles(m), dirs: treeDirs(m), st: w.state(m), m: m.Clone()}
		what := "the config emptied"
		if c != w.empty {
			what = "clean"
		}
		if _, err := w.render(m, c, false, false); err != nil {
			w.fail("%s, %s: %v", when, what, err)
		}
		w.checkLetGo(fmt.Sprintf("%s, %s", when, what), before, m)
	}
}

// lastClean is clean with the last config's layout.
func (w *propWorld) lastClean() *propConfig {
	return &propConfig{spec: w.last.spec, plan: &render.Plan{}, layout: w.last.layout}
}

func (w *propWorld) checkLetGo(when string, before snapshot, m *memfs.FS) {
	w.t.Helper()
	st := before.st
	afterFiles, afterDirs := treeFiles(m), treeDirs(m)
	kept := map[string]bool{} // files where a unit stays
	for _, k := range slices.Sorted(mapKeys(st.Files)) {
		f := st.Files[k]
		file, _, _ := strings.Cut(k, unitSep)
		cb, ca := content(before.m, k, f), content(m, k, f)
		ours := w.agyconfs(k, cb)
		switch {
		case !cb.present:
			if ca.present {
				w.fail("%s: %s was absent and is now %q", when, k, ca.raw)
			}
		case strings.Contains(k, itemSep):
			if f.Origin == OriginCreated && ca.present {
				w.fail("%s: the item %s agyconf created is still there", when, k)
			}
			if f.Origin != OriginCreated && !ca.present {
				w.fail("%s: the item %s (%s) is gone", when, k, f.Origin)
			}
			if ca.present {
				kept[file] = true
			}
		case !ours:
			// Edited since agyconf wrote it, or found and never written:
			// left as it is.
			// (Its value: agyconf's record of a unit does not hold its
			// secrets' values, so the user's own credential where agyconf
			// was about to write its own (an --adopt cut short) hashes as
			// agyconf's, and is given back in the user's own text.)
			if !ca.present || (ca.raw != cb.raw && !sameJSONText(ca.raw, cb.raw)) {
				w.fail("%s: %s (%s), not agyconf's content, changed: %q, was %q\nrecord %+v\nagyconf wrote %v", when, k, f.Origin, ca.raw, cb.raw, *f, w.written[k])
			}
			kept[file] = true
		case f.Origin == OriginCreated:
			if ca.present {
				w.fail("%s: %s was created by agyconf and is as it wrote it, but is still there: %q", when, k, ca.raw)
			}
		default:
			had, ok := w.had[k]
			if !ok {
				w.fail("%s: the oracle does not know what the user had in %s (%s)", when, k, f.Origin)
			}
			// A backup keeps a value of agyconf's secret, at a place the
			// config put that secret, as a reference to its file (agyconf
			// never stores one): what comes back holds the value it has
			// now. Either text is what the user had.
			rotated := had
			for p, then := range w.hadSecrets[k] {
				if then != w.secrets[p] {
					rotated.raw = strings.ReplaceAll(rotated.raw, then, w.secrets[p])
				}
			}
			matched := false
			for _, want := range []propContent{had, rotated} {
				if w.agyStrips(k, cb) && want.present {
					// agy's "disabled" since is the user's latest word.
					want.raw = withDisabledOf(want.raw, cb.raw)
				}
				switch {
				case !want.present:
					matched = matched || !ca.present
				case ca.present && (ca.raw == want.raw || (want.raw != had.raw && want.raw != rotated.raw && sameJSONText(ca.raw, want.raw))):
					matched = true
				}
			}
			if !matched {
				w.fail("%s: %s (%s) is not what the user had:\n got  %q\n want %q\n live before %q\nrecord %+v\nagyconf wrote %v", when, k, f.Origin, ca.raw, had.raw, cb.raw, *f, w.written[k])
			}
			if ca.present {
				kept[file] = true
			}
		}
	}
	// Nothing else changed: files no unit is in, byte for byte; shared
	// files, but for the units, value for value.
	units := map[string][]string{}
	wholes := map[string]bool{}
	for k, f := range st.Files {
		if file, _, ok := strings.Cut(k, unitSep); ok {
			units[file] = append(units[file], k)
		} else {
			wholes[file] = true
			if f.Block {
				kept[file] = true
			}
		}
	}
	for f, data := range before.files {
		if wholes[f] && !st.Files[f].Block {
			continue
		}
		after, ok := afterFiles[f]
		if st.Files[f] != nil && st.Files[f].Block {
			// The text around the block is the user's, and stays.
			m := blockMarkers(st.Files[f].BlockSyntax)
			around := m.remove(data)
			switch {
			case !ok && len(bytes.TrimSpace(around)) > 0:
				w.fail("%s: %s, a file with a managed block and the user's text, is gone", when, f)
			case ok && !bytes.Equal(m.remove(after), around):
				w.fail("%s: the user's text around the managed block of %s changed:\n%s\nwas\n%s", when, f, after, data)
			}
			continue
		}
		if len(units[f]) == 0 {
			if !ok || !bytes.Equal(after, data) {
				w.fail("%s: %s, which holds nothing of agyconf's, changed:\n%s\nwas\n%s", when, f, after, data)
			}
			continue
		}
		restB, restA := rest(data, units[f]), rest(after, units[f])
		if !ok {
			if restB != "{}" {
				w.fail("%s: %s is gone, but held more than agyconf's entries: %s", when, f, restB)
			}
			if !w.createdFiles[f] {
				w.fail("%s: %s is gone, but agyconf did not create it", when, f)
			}
			continue
		}
		if restA != restB {
			w.fail("%s: %s changed beyond agyconf's entries:\n%s\nwas\n%s", when, f, restA, restB)
		}
		if w.createdFiles[f] && restA == "{}" && !kept[f] {
			w.fail("%s: %s, which agyconf created, holds nothing else and is still there:\n%s", when, f, after)
		}
		if orig, known := w.fileOrig[f]; known && !kept[f] && !w.dirty[f] && slices.ContainsFunc(w.lastWritten[f], func(b []byte) bool { return bytes.Equal(b, data) }) {
			if !bytes.Equal(after, orig) {
				w.fail("%s: %s: nobody but agyconf changed it since it took it over, yet it is not given back byte for byte:\n%s\nwas, before agyconf\n%s\nshared record %+v, live %s", when, f, after, orig, st.Shared[f], sum(data))
			}
		}
	}
	for f := range afterFiles {
		if _, ok := before.files[f]; !ok {
			w.fail("%s: %s appeared", when, f)
		}
	}
	for d := range afterDirs {
		if !before.dirs[d] {
			w.fail("%s: the folder %s appeared", when, d)
		}
		if w.createdDirs[d] && emptyDir(m, d) {
			w.fail("%s: the folder %s, which agyconf created, is empty and still there (recorded before: %v, after: %v)", when, d, before.st.Folders, w.state(m).Folders)
		}
	}
	for d := range before.dirs {
		if !afterDirs[d] && !w.createdDirs[d] {
			w.fail("%s: the folder %s, which agyconf did not create, is gone", when, d)
		}
	}
}

func emptyDir(m *memfs.FS, d string) bool {
	for _, f := range m.Files() {
		if strings.HasPrefix(f, d+"/") {
			return false
		}
	}
	for _, x := range m.Dirs() {
		if strings.HasPrefix(x, d+"/") {
			return false
		}
	}
	return true
}

// withDisabledOf is want with "disabled" as live has it.
func withDisabledOf(want, live string) string {
	var w, l map[string]any
	if json.Unmarshal([]byte(want), &w) != nil || json.Unmarshal([]byte(live), &l) != nil {
		return want
	}
	v, ok := l["disabled"]
	if !ok {
		return want
	}
	w["disabled"] = v
	b, _ := json.Marshal(w)
	return string(b)
}

// rest is a shared file's value without the units at keys and the empty
// objects and lists they leave, canonical.
func rest(data []byte, keys []string) string {
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		return "unreadable: " + string(data)
	}
	for _, k := range keys {
		p, item, isItem := parseUnitKey(k)
		if isItem {
			doc.RemoveString(item, p...)
		} else {
			doc.Delete(p...)
		}
	}
	// Empty objects and lists carry nothing: agyconf may drop those it
	// made, and the oracle does not tell them apart.
	empty, _ := jsonmerge.Parse([]byte("{}"))
	raw, _ := jsonmerge.ParseWith(tidyAll(doc, empty), jsonmerge.JSONC)
	top, _ := raw.Get()
	c, _ := jsonmerge.Canonical(top)
	return string(c)
}

// converge renders the last config on a copy of the tree: a conflict
// only where the content is not agyconf's; after --force --adopt, a
// second render has nothing to do.
func (w *propWorld) converge(when string) {
	m := w.m.Clone()
	st := w.state(m)
	_, err := w.render(m, w.last, false, false)
	var ce *ConflictError
	if errors.As(err, &ce) {
		for _, c := range ce.Changes {
			key := c.key()
			if c.Unit == "" && c.stateKey == "" {
				key = c.Path
			}
			if w.agyconfsAs(key, content(m, key, st.Files[key]), renders(w.last, key, "disabled")) {
				w.fail("%s: a render of the last config reports a false conflict on %s: %s\nlive: %s\nstate: %+v\nagyconf wrote: %v", when, c.Name(), c.Reason, content(m, key, st.Files[key]).raw, st.Files[key], w.written[key])
			}
		}
		if _, err = w.render(m, w.last, true, true); err != nil {
			w.fail("%s: --force --adopt: %v", when, err)
		}
	} else if err != nil {
		w.fail("%s: a render of the last config: %v", when, err)
	}
	again, err := w.render(m, w.last, false, false)
	if err != nil {
		w.fail("%s: the render after converging: %v", when, err)
	}
	for _, c := range again {
		if c.Writes() {
			w.fail("%s: not converged: a second render still does %s to %s", when, c.Action, c.Name())
		}
	}
}

// sharedFiles are the JSON files of the tree a config merges into.
func (w *propWorld) sharedFiles() []string {
	var out []string
	for _, f := range w.m.Files() {
		if strings.HasPrefix(f, stateDir+"/") || !strings.HasSuffix(f, ".json") || strings.Contains(f, "/plugins/") || strings.HasSuffix(f, "plugin.json") {
			continue
		}
		out = append(out, f)
	}
	return out
}

func (w *propWorld) editJSON(f string, edit func(doc *jsonmerge.Doc)) {
	data, ok := w.m.Get(f)
	if !ok {
		return
	}
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		w.fail("%s is torn: %v\n%s", f, err, data)
	}
	edit(doc)
	w.m.Put(f, doc.Bytes(), 0o644)
}

// userEdit changes a unit the state says agyconf owns.
func (w *propWorld) userEdit(r *rand.Rand) {
	st := w.state(w.m)
	keys := slices.Sorted(mapKeys(st.Files))
	if len(keys) == 0 {
		return
	}
	k := keys[r.IntN(len(keys))]
	f := st.Files[k]
	c := content(w.m, k, f)
	if !c.present || strings.Contains(k, itemSep) || f.Block {
		return
	}
	file, ptr, shared := strings.Cut(k, unitSep)
	n := r.IntN(100)
	if shared {
		p, _, _ := parseUnitKey(unitSep + ptr)
		v := fmt.Sprintf(`{"command": "user-%d", "args": ["--edited"]}`, n)
		if _, isSrv := isServer(k); !isSrv {
			v = fmt.Sprintf(`"user-%d"`, n)
		}
		w.log("the user edits %s", k)
		w.editJSON(file, func(doc *jsonmerge.Doc) { _ = doc.Set(json.RawMessage(v), p...) })
	} else {
		w.log("the user edits %s", k)
		text := fmt.Sprintf("%s edited by the user %d\n", k, n)
		if strings.HasSuffix(k, ".json") {
			text = fmt.Sprintf("{\"name\": \"edited by the user %d\"}\n", n)
		}
		w.m.Put(k, []byte(text), 0o644)
	}
	c = content(w.m, k, f)
	if !w.agyconfs(k, c) {
		w.edited[k] = c.raw
	}
}

// agyToggle flips "disabled" of a server in an MCP file, as `agy mcp
// disable|enable` does.
func (w *propWorld) agyToggle(r *rand.Rand) {
	var files []string
	for _, f := range w.sharedFiles() {
		if strings.HasSuffix(f, "mcp_config.json") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return
	}
	f := files[r.IntN(len(files))]
	data, _ := w.m.Get(f)
	doc, err := jsonmerge.ParseWith(data, jsonmerge.JSONC)
	if err != nil {
		w.fail("%s is torn: %v", f, err)
	}
	names := doc.Keys("mcpServers")
	if len(names) == 0 {
		return
	}
	n := names[r.IntN(len(names))]
	raw, _ := doc.Get("mcpServers", n, "disabled")
	switch {
	case string(raw) == "true":
		if r.IntN(2) == 0 {
			doc.Delete("mcpServers", n, "disabled")
		} else {
			_ = doc.Set(json.RawMessage("false"), "mcpServers", n, "disabled")
		}
	default:
		_ = doc.Set(json.RawMessage("true"), "mcpServers", n, "disabled")
	}
	w.log("agy toggles disabled of %s in %s", n, f)
	w.m.Put(f, doc.Bytes(), 0o644)
}

func TestConvergenceProperty(t *testing.T) {
	n := 200
	if s := os.Getenv("AGYCONF_PROPERTY_SEQUENCES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	first := 0
	if s := os.Getenv("AGYCONF_PROPERTY_FIRST"); s != "" {
		first, _ = strconv.Atoi(s) // replays one failing sequence
	}
	emptySpec := propSpec{layout: map[string]string{}, servers: map[string]propServer{}}
	for seq := first; seq < first+n; seq++ {
		r := rand.New(rand.NewPCG(uint64(seq), 0x5eed))
		w := &propWorld{t: t, m: memfs.New("/mem"),
			secrets:    map[string]string{propSecrets[0]: "sekret-a-1", propSecrets[1]: "sekret-b-1"},
			hadSecrets: map[string]map[string]string{},
			written:    map[string][]propVersion{}, had: map[string]propContent{}, users: map[string][]string{}, edited: map[string]string{},
			fileOrig: map[string][]byte{}, lastWritten: map[string][][]byte{}, dirty: map[string]bool{}, createdFiles: map[string]bool{},
			createdDirs: map[string]bool{}, snapshots: map[string][]byte{}}
		w.log("sequence %d", seq)
		configs := []*propConfig{buildConfig(t, randomSpec(r), false), buildConfig(t, randomSpec(r), false), buildConfig(t, randomSpec(r), false)}
		for i, c := range configs {
			w.log("config %d:\n%s", i, c.text)
		}
		w.empty = buildConfig(t, emptySpec, false)
		w.seed(r, configs[0])
		w.last = w.empty
		steps := 4 + r.IntN(8)
		for step := 0; step < steps; step++ {
			before := w.snap()
			switch k := r.IntN(100); {
			case k < 40: // a render, maybe cut short
				i := r.IntN(len(configs))
				fault := int64(0)
				if r.IntN(2) == 0 {
					fault = 1 + r.Int64N(14)
				}
				adopt, force := r.IntN(4) == 0, r.IntN(10) == 0
				w.log("render config %d, fault at step %d, adopt %v, force %v", i, fault, adopt, force)
				var calls atomic.Int64 // the batch calls the FS from several goroutines
				fsys := FS(w.m)
				if fault > 0 {
					fsys = &hookFS{FS: w.m, before: func(string, string) error {
						if calls.Add(1) == fault {
							return errInjected
						}
						return nil
					}}
				}
				_, err := w.render(fsys, configs[i], force, adopt)
				var ce *ConflictError
				switch {
				case err == nil, errors.Is(err, errInjected), errors.As(err, &ce):
				default:
					w.fail("render: %v", err)
				}
				if err == nil || errors.Is(err, errInjected) {
					w.last = configs[i]
				}
				w.afterRender(before, configs[i], force, adopt)
			case k < 46: // agy writes what it owns
				f := w.sharedFiles()
				if len(f) == 0 {
					continue
				}
				file := f[r.IntN(len(f))]
				v := fmt.Sprintf(`{"command":"u1-agy-%d"}`, r.IntN(100))
				w.log("agy sets u1 and its own key in %s", file)
				w.editJSON(file, func(doc *jsonmerge.Doc) {
					if strings.HasSuffix(file, "mcp_config.json") {
						_ = doc.Set(json.RawMessage(v), "mcpServers", "u1")
					}
					_ = doc.Set(json.RawMessage(strconv.Quote(v)), "agy")
				})
				w.afterOther(before)
			case k < 54:
				w.agyToggle(r)
				w.afterOther(before)
			case k < 58: // agy rewrites a file in its own format
				f := w.sharedFiles()
				if len(f) == 0 {
					continue
				}
				file := f[r.IntN(len(f))]
				data, _ := w.m.Get(file)
				var v any
				if json.Unmarshal(data, &v) != nil {
					continue
				}
				w.log("agy reformats %s", file)
				w.m.Put(file, []byte(userJSON(v, "\t")), 0o644)
				w.afterOther(before)
			case k < 62: // agy reads a file, to write it back later
				f := w.sharedFiles()
				if len(f) == 0 {
					continue
				}
				file := f[r.IntN(len(f))]
				w.snapshots[file], _ = w.m.Get(file)
				w.log("agy reads %s", file)
			case k < 68: // and writes back what it read: a stale write
				files := slices.Sorted(mapKeys(w.snapshots))
				if len(files) == 0 {
					continue
				}
				file := files[r.IntN(len(files))]
				w.log("agy writes back the %s it read", file)
				w.m.Put(file, w.snapshots[file], 0o644)
				delete(w.snapshots, file)
				w.afterOther(before)
			case k < 80: // the user edits something agyconf wrote
				w.userEdit(r)
				w.afterOther(before)
			case k < 85: // a secret rotates
				s := propSecrets[r.IntN(len(propSecrets))]
				w.secrets[s] = fmt.Sprintf("sekret-rotated-%d", r.IntN(1000))
				w.log("the secret %s rotates", s)
			case k < 92: // clean
				c := w.lastClean()
				w.log("clean")
				if _, err := w.render(w.m, c, false, false); err != nil {
					w.fail("clean: %v", err)
				}
				w.afterRender(before, c, false, false)
				w.last = w.empty
			default: // the config emptied
				w.log("render the emptied config")
				if _, err := w.render(w.m, w.empty, false, false); err != nil {
					w.fail("the emptied config: %v", err)
				}
				w.afterRender(before, w.empty, false, false)
				w.last = w.empty
			}
			when := fmt.Sprintf("after step %d", step)
			w.converge(when)
			w.letGo(when)
		}
	}
}
