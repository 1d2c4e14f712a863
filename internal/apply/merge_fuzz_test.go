package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/schema"
)

// The merge fuzz targets write random bytes as a shared file agy and the
// user edit too (mcp_config.json, hooks.json, the CLI's settings.json),
// then render two plans into it one after the other, the way a config
// that changes between renders does, and check what the issue asks of a
// merge:
//
//   - nothing panics;
//   - a file agyconf cannot read (not JSON, not an object, a list that is
//     not a list of strings…) is refused with an error naming it, and is
//     left byte for byte as it was; so is a file with a conflict;
//   - otherwise the file re-parses, every entry neither plan names keeps
//     its exact value (canonical form, numbers as written), every other
//     top-level key too, foreign list items stay in order; the current
//     plan's entries hold the plan's values (a default keeps a value it
//     found), and the previous plan's entries are gone;
//   - the result satisfies the file's schema whenever what was there did;
//   - a further Decide finds nothing to do.
//
// Run one at a time, for a while:
//
//	go test -run='^$' -fuzz=FuzzMergeMCPConfig -fuzztime=3m ./internal/apply/

// fastOptions render into root without fsyncs: a fuzz run is about the
// bytes, and a sync per file would make it a disk benchmark.
func fastOptions(t *testing.T, root string) Options {
	t.Helper()
	fsys, err := confine.Open(root, confine.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	return Options{FS: fsys, Store: NewStore(fsys, "state"), Instance: "state"}
}

// secretMark in a candidate's JSON is a string agyconf reads from a secret
// file; fuzzSecret is that file's content.
const (
	secretMark = "@SECRET@"
	fuzzSecret = "tok-1"
)

// entry is one thing a plan may hold: a member (a server, a named hook, a
// settings key) or, for settings, an item of a permission list.
type entry struct {
	name string // member name, or the item
	list string // for an item: allow, ask or deny
	json string // for a member: its value, secretMark where a secret goes
	dflt bool   // a default (settings' model)
}

// mergeTarget describes one shared file.
type mergeTarget struct {
	path   string
	schema string
	parent []string // render.Merge.Parent
	items  bool     // allow/ask/deny items, in the lists at itemsAt
	// itemsAt is the object holding the permission lists: permissions,
	// or config.json's userSettings.globalPermissionGrants.
	itemsAt []string
	dflts   []string
	cands   []entry
	// concurrent is a member agy adds between agyconf's decision and its
	// write (path, value): the write must keep it.
	concurrent []string
	concValue  string
}

var mcpTarget = mergeTarget{
	path: "cfg/mcp_config.json", schema: render.SchemaOf(agy.MCPConfig), parent: []string{"mcpServers"},
	concurrent: []string{"mcpServers", "added-by-agy"}, concValue: `{"command":"agy-added"}`,
	cands: []entry{
		{name: "github", json: `{"command":"gh","args":["mcp","stdio"],"env":{"GITHUB_TOKEN":"` + secretMark + `","LOG":"info"}}`},
		{name: "remote", json: `{"serverUrl":"https://mcp.example.com/sse","headers":{"Authorization":"Bearer ` + secretMark + `"}}`},
		{name: "fs", json: `{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"]}`},
		{name: "a/b~c é", json: `{"command":"x"}`},
	},
}

var hooksTarget = mergeTarget{
	path: "cfg/hooks.json", schema: render.SchemaOf(agy.Hooks),
	concurrent: []string{"added-by-agy"}, concValue: `{"enabled":false}`,
	cands: []entry{
		{name: "audit", json: `{"enabled":true,"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"lint","timeout":5}]}]}`},
		{name: "paused", json: `{"enabled":false,"Stop":[{"type":"command","command":"true","timeout":30}]}`},
		{name: "judge", json: `{"enabled":true,"PostInvocation":[{"type":"prompt","prompt":"Did it follow the plan?","model":"flash","timeout":30}]}`},
		{name: "a/b~c é", json: `{"enabled":true,"SessionStart":[{"type":"command","command":"echo hi","timeout":2}]}`},
	},
}

var settingsTarget = mergeTarget{
	path: "cfg/settings.json", schema: render.SchemaOf(agy.Settings), items: true, itemsAt: []string{"permissions"}, dflts: []string{"model"},
	concurrent: []string{"addedByAgy"}, concValue: `["/src/added-by-agy"]`,
	cands: []entry{
		{name: "command(git *)", list: "allow"},
		{name: "read_file", list: "allow"},
		{name: "command(git push *)", list: "ask"},
		{name: "command(rm -rf *)", list: "deny"},
		{name: "model", json: `"gemini-3-pro"`, dflt: true},
		{name: "toolPermission", json: `"request-review"`},
		{name: "statusLine", json: `{"enabled":true,"format":"{model}"}`},
	},
}

// userConfigTarget is ~/.gemini/config/config.json: plugin entries under
// plugins, grants in userSettings.globalPermissionGrants.
var userConfigTarget = mergeTarget{
	path: "cfg/config.json", schema: render.SchemaOf(agy.UserConfig), parent: []string{"plugins"},
	items: true, itemsAt: []string{"userSettings", "globalPermissionGrants"},
	concurrent: []string{"plugins", "added-by-agy"}, concValue: `{"enabled":true}`,
	cands: []entry{
		{name: "tools", json: `{"enabled":false}`},
		{name: "docs", json: `{"enabled":true}`},
		{name: "command(ls)", list: "allow"},
		{name: "command(rm -rf *)", list: "deny"},
		{name: "a/b~c é", json: `{"enabled":false}`},
		{name: "mcp(github/*)", list: "ask"},
	},
}

var permLists = []string{"allow", "ask", "deny"}

// chosen returns the candidates whose bit is set in sel.
func (tg *mergeTarget) chosen(sel uint8) []entry {
	var out []entry
	for i, c := range tg.cands {
		if sel&(1<<i) != 0 {
			out = append(out, c)
		}
	}
	return out
}

// goValue turns a candidate's JSON into the document tree render builds:
// maps, slices, strings, numbers, model.Str where a secret goes.
func goValue(t *testing.T, raw string) any {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("candidate %s: %v", raw, err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case string:
			if before, after, ok := strings.Cut(x, secretMark); ok {
				s := model.Str{{SecretFile: "/run/secrets/t"}}
				if before != "" {
					s = append(model.Str{{Text: before}}, s...)
				}
				if after != "" {
					s = append(s, model.Part{Text: after})
				}
				return s
			}
		}
		return v
	}
	return walk(v)
}

// doc is the document render would produce for es; nil for none (render
// leaves a shared file out when the config has nothing for it).
func (tg *mergeTarget) doc(t *testing.T, es []entry) *render.Document {
	if len(es) == 0 {
		return nil
	}
	members := map[string]any{}
	perms := map[string]any{}
	secret := false
	for _, e := range es {
		if e.list != "" {
			l, _ := perms[e.list].([]any)
			perms[e.list] = append(l, e.name)
			continue
		}
		members[e.name] = goValue(t, e.json)
		secret = secret || strings.Contains(e.json, secretMark)
	}
	mode := render.ModeFile
	if secret {
		mode = render.ModeSecret
	}
	d := &render.Document{Path: tg.path, Mode: mode, Schema: tg.schema, Merge: &render.Merge{Parent: tg.parent, Defaults: tg.dflts}}
	root := members
	if len(tg.parent) > 0 {
		root = map[string]any{tg.parent[0]: members}
	}
	if tg.items {
		for _, l := range permLists {
			d.Merge.Items = append(d.Merge.Items, append(slices.Clone(tg.itemsAt), l))
		}
		if len(perms) > 0 {
			var v any = perms
			for i := len(tg.itemsAt) - 1; i > 0; i-- {
				v = map[string]any{tg.itemsAt[i]: v}
			}
			root[tg.itemsAt[0]] = v
		}
	}
	d.JSON = root
	return d
}

var (
	validatorOnce sync.Once
	validator     *schema.Validator
	validatorErr  error
)

func fuzzValidator(t *testing.T) *schema.Validator {
	validatorOnce.Do(func() {
		validator, validatorErr = schema.NewValidator(render.SchemaOf(agy.MCPConfig), render.SchemaOf(agy.Hooks), render.SchemaOf(agy.Settings), render.SchemaOf(agy.UserConfig))
	})
	if validatorErr != nil {
		t.Fatal(validatorErr)
	}
	return validator
}

// canon is the canonical form of the value at path, and whether there is
// one.
func canon(t *testing.T, d *jsonmerge.Doc, path ...string) (string, bool) {
	t.Helper()
	raw, ok := d.Get(path...)
	if !ok {
		return "", false
	}
	c, err := jsonmerge.Canonical(raw)
	if err != nil {
		t.Fatalf("canonical form of %q: %v", path, err)
	}
	return string(c), true
}

func canonString(t *testing.T, raw string) string {
	t.Helper()
	c, err := jsonmerge.Canonical(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("canonical form of %s: %v", raw, err)
	}
	return string(c)
}

// fuzzMerge is the body of every merge fuzz target. live is the file's
// content (absent when flags&1), selA and selB choose the two plans' entries,
// flags&2 passes --adopt, flags&4 has agy add a member between each decision
// and its write.
func fuzzMerge(t *testing.T, tg *mergeTarget, live []byte, selA, selB, flags uint8) {
	root := t.TempDir()
	opts := fastOptions(t, root)
	opts.Adopt = flags&2 != 0
	opts.Secrets = func(p string) (string, error) {
		if p == "/run/secrets/t" {
			return fuzzSecret, nil
		}
		return "", os.ErrNotExist
	}
	full := filepath.Join(root, filepath.FromSlash(tg.path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	absent := flags&1 != 0
	if !absent {
		if err := os.WriteFile(full, live, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var orig *jsonmerge.Doc
	origValid := absent
	if !absent {
		var perr error
		orig, perr = jsonmerge.ParseWith(live, jsonmerge.AgySyntax(tg.schema))
		origValid = perr == nil && fuzzValidator(t).ValidateJSON(tg.schema, live) == nil
	}

	named := map[string]bool{} // "list\x00item" or member name, of any plan so far
	key := func(e entry) string { return e.list + "\x00" + e.name }
	var prev []entry
	for run, sel := range []uint8{selA, selB} {
		es := tg.chosen(sel)
		before, beforeErr := os.ReadFile(full)
		var docs []*render.Document
		if d := tg.doc(t, es); d != nil {
			docs = append(docs, d)
		}
		p := &render.Plan{Documents: docs}
		st, err := opts.Store.LoadState(opts.Instance)
		if err != nil {
			t.Fatal(err)
		}
		changes, err := Decide(p, st, opts)
		concurrent := false
		if err == nil && flags&4 != 0 && beforeErr == nil {
			// agy writes the file meanwhile: the write merges into that.
			var had bool
			if orig != nil {
				_, had = orig.Get(tg.concurrent...)
			}
			if d, perr := jsonmerge.ParseWith(before, jsonmerge.AgySyntax(tg.schema)); perr == nil && !had && d.Set(json.RawMessage(tg.concValue), tg.concurrent...) == nil {
				if werr := os.WriteFile(full, d.Bytes(), 0o644); werr != nil {
					t.Fatal(werr)
				}
				before, concurrent = d.Bytes(), true
				if origValid && fuzzValidator(t).ValidateJSON(tg.schema, before) != nil {
					origValid = false
				}
			}
		}
		if err == nil {
			err = Execute(changes, st, opts)
		}
		after, afterErr := os.ReadFile(full)
		if err != nil {
			// A refusal: the file is as it was, and the message says which.
			if !bytes.Equal(before, after) || (beforeErr == nil) != (afterErr == nil) {
				t.Fatalf("run %d failed (%v) but changed %s:\nbefore: %q\nafter:  %q", run+1, err, tg.path, before, after)
			}
			var ce *ConflictError
			if !errors.As(err, &ce) && !strings.Contains(err.Error(), tg.path) {
				t.Fatalf("run %d: the error does not name %s: %v", run+1, tg.path, err)
			}
			return
		}
		if orig == nil && !absent && len(docs) > 0 {
			t.Fatalf("run %d: a file jsonmerge cannot parse was merged into: %q", run+1, live)
		}
		for _, e := range es {
			named[key(e)] = true
		}
		if orig == nil && !absent {
			// Nothing was planned for it yet: it must be untouched.
			if !bytes.Equal(after, live) {
				t.Fatalf("run %d: an unreadable file no plan names changed", run+1)
			}
			prev = es
			continue
		}
		if afterErr != nil {
			if errors.Is(afterErr, os.ErrNotExist) && absent && len(es) == 0 {
				prev = es
				continue // never created, nothing to create
			}
			t.Fatalf("run %d: reading the result: %v", run+1, afterErr)
		}
		out, err := jsonmerge.ParseWith(after, jsonmerge.AgySyntax(tg.schema))
		if err != nil {
			t.Fatalf("run %d: the result does not parse: %v\n%s", run+1, err, after)
		}
		// agyconf writes strict JSON: a result is JSONC only where the
		// file was.
		if (orig == nil || json.Valid(live)) && !json.Valid(after) {
			t.Fatalf("run %d: encoding/json refuses the result:\n%s", run+1, after)
		}
		checkMerged(t, tg, orig, out, es, prev, named)
		if concurrent {
			got, ok := canon(t, out, tg.concurrent...)
			if want := canonString(t, tg.concValue); !ok || got != want {
				t.Fatalf("run %d: agy's concurrent write was lost: %s (present %v)\n%s", run+1, got, ok, after)
			}
		}
		if origValid {
			if err := fuzzValidator(t).ValidateJSON(tg.schema, after); err != nil {
				t.Fatalf("run %d: a schema-valid file became invalid: %v\nbefore: %s\nafter:  %s", run+1, err, live, after)
			}
		}
		// Idempotent: the same plan again has nothing to do.
		st, err = opts.Store.LoadState(opts.Instance)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Decide(p, st, opts)
		if err != nil {
			t.Fatalf("run %d: deciding again: %v", run+1, err)
		}
		for _, c := range again {
			if c.data != nil || c.remove || (c.Action != Unchanged && c.Action != Keep) {
				t.Fatalf("run %d: deciding again wants %s %s %s (%s)\nfile: %s", run+1, c.Action, c.Path, c.Unit, c.Reason, after)
			}
		}
		prev = es
	}
}

// checkMerged checks one merged result against the original content.
func checkMerged(t *testing.T, tg *mergeTarget, orig, out *jsonmerge.Doc, cur, prev []entry, named map[string]bool) {
	t.Helper()
	scope := tg.parent // the object whose members the plans own
	inCur := map[string]entry{}
	for _, e := range cur {
		inCur[e.list+"\x00"+e.name] = e
	}
	// Top-level keys outside the merge's object, or not named: foreign.
	var origTop []string
	if orig != nil {
		origTop = orig.Keys()
	}
	for _, k := range origTop {
		switch {
		case len(scope) > 0 && k == scope[0]:
			continue
		case len(scope) == 0 && named["\x00"+k]:
			continue
		case tg.items && k == tg.itemsAt[0] && anyItems(named):
			continue
		}
		want, _ := canon(t, orig, k)
		got, ok := canon(t, out, k)
		if !ok || got != want {
			t.Fatalf("foreign key %q: was %s, now %s (present %v)", k, want, got, ok)
		}
	}
	// Members of the merge's object that no plan names: foreign.
	if len(scope) > 0 && orig != nil {
		for _, k := range orig.Keys(scope...) {
			if named["\x00"+k] {
				continue
			}
			want, _ := canon(t, orig, append(slices.Clone(scope), k)...)
			got, ok := canon(t, out, append(slices.Clone(scope), k)...)
			if !ok || got != want {
				t.Fatalf("foreign entry %s/%s: was %s, now %s (present %v)", scope[0], k, want, got, ok)
			}
		}
	}
	// Permission lists: foreign items stay, in order; every other key on
	// the way to them stays.
	at := func(segs ...string) []string { return append(slices.Clone(tg.itemsAt), segs...) }
	if tg.items && orig != nil && anyItems(named) {
		for i := 1; i <= len(tg.itemsAt); i++ {
			p := tg.itemsAt[:i]
			for _, k := range orig.Keys(p...) {
				if (i < len(tg.itemsAt) && k == tg.itemsAt[i]) || (i == len(tg.itemsAt) && slices.Contains(permLists, k)) {
					continue
				}
				want, _ := canon(t, orig, append(slices.Clone(p), k)...)
				got, ok := canon(t, out, append(slices.Clone(p), k)...)
				if !ok || got != want {
					t.Fatalf("foreign key %s/%s: was %s, now %s", strings.Join(p, "/"), k, want, got)
				}
			}
		}
		for _, l := range permLists {
			was, err := orig.ArrayStrings(at(l)...)
			if err != nil {
				continue // refused, had a plan added to it
			}
			now, err := out.ArrayStrings(at(l)...)
			if err != nil {
				t.Fatalf("%s/%s no longer a list of strings: %v", strings.Join(tg.itemsAt, "/"), l, err)
			}
			var foreign []string
			for _, s := range was {
				if !named[l+"\x00"+s] {
					foreign = append(foreign, s)
				}
			}
			var kept []string
			for _, s := range now {
				if !named[l+"\x00"+s] {
					kept = append(kept, s)
				}
			}
			if !slices.Equal(foreign, kept) {
				t.Fatalf("foreign items of %s/%s: were %q, now %q", strings.Join(tg.itemsAt, "/"), l, foreign, kept)
			}
		}
	}
	// The current plan's entries.
	for _, e := range cur {
		if e.list != "" {
			now, err := out.ArrayStrings(at(e.list)...)
			if err != nil || !slices.Contains(now, e.name) {
				t.Fatalf("item %q missing from %s/%s: %q, %v", e.name, strings.Join(tg.itemsAt, "/"), e.list, now, err)
			}
			continue
		}
		path := append(slices.Clone(scope), e.name)
		want := canonString(t, strings.ReplaceAll(e.json, secretMark, fuzzSecret))
		if e.dflt && orig != nil {
			if was, ok := canon(t, orig, path...); ok {
				want = was // a default never overrides a value it found
			}
		}
		got, ok := canon(t, out, path...)
		if !ok || got != want {
			t.Fatalf("entry %q: %s, want %s (present %v)", e.name, got, want, ok)
		}
	}
	// The previous plan's entries the current one dropped: what agyconf
	// created is gone; what was there before agyconf (found, or taken
	// over with --adopt) is given back as it was; a default someone else
	// set stays.
	for _, e := range prev {
		if _, ok := inCur[e.list+"\x00"+e.name]; ok {
			continue
		}
		if e.list != "" {
			now, _ := out.ArrayStrings(at(e.list)...)
			var was []string
			if orig != nil {
				was, _ = orig.ArrayStrings(at(e.list)...)
			}
			if slices.Contains(now, e.name) != slices.Contains(was, e.name) {
				t.Fatalf("dropped item %q: in %s/%s before agyconf %v, now %v", e.name, strings.Join(tg.itemsAt, "/"), e.list, slices.Contains(was, e.name), slices.Contains(now, e.name))
			}
			continue
		}
		path := append(slices.Clone(scope), e.name)
		got, present := canon(t, out, path...)
		if orig != nil {
			if was, ok := canon(t, orig, path...); ok {
				if !present || got != was {
					t.Fatalf("dropped entry %q was there before agyconf (%s); now %s (present %v), want it given back", e.name, was, got, present)
				}
				continue
			}
		}
		if e.dflt && orig != nil {
			if was, ok := canon(t, orig, path...); ok && was != canonString(t, e.json) {
				if !present || got != was {
					t.Fatalf("default %q someone else set: was %s, now %s (present %v)", e.name, was, got, present)
				}
				continue
			}
		}
		if present {
			t.Fatalf("dropped entry %q still there: %s", e.name, got)
		}
	}
}

func anyItems(named map[string]bool) bool {
	for k := range named {
		if !strings.HasPrefix(k, "\x00") {
			return true
		}
	}
	return false
}

// mergeSeeds are files the fuzzer starts from: well formed, with foreign
// entries, with agyconf's names holding other values, and refusals.
func mergeSeeds(tg *mergeTarget) []string {
	common := []string{
		``, `{}`, `[]`, `null`, `{"a":1,}`, "\xef\xbb\xbf{}", `{"a":1,"a":2}`, "{\n// comment\n}",
		"\xef\xbb\xbf// mine\n{\n  \"zeta\": 1, // z\n  /* b */ \"b\": [1, 2,],\n}\n",
		`{"zeta":[1.0,1e3,-0],"esc":"\u00e9\/"}`,
	}
	switch tg.path {
	case mcpTarget.path:
		return append(common,
			`{"mcpServers":{}}`,
			`{"mcpServers":{"mine":{"command":"mine","args":["1.0"]}},"zeta":true}`,
			`{"mcpServers":{"github":{"command":"other"}}}`,
			`{"mcpServers":{"github":{"args":["mcp","stdio"],"command":"gh","env":{"GITHUB_TOKEN":"someone else's","LOG":"info"}}}}`,
			`{"mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"]},"x":{"serverUrl":"https://x"}}}`,
			`{"mcpServers":[]}`, `{"mcpServers":"x"}`, `{"mcpServers":null}`,
			`{"mcpServers":{"a/b~c \u00e9":{"command":"x"}}}`,
			"{\n  // servers\n  \"mcpServers\": {\n    // GitHub\n    \"github\": {\"command\": \"gh\", /* args */ \"args\": [\"mcp\",], \"env\": {\"GITHUB_TOKEN\": \"x\"},},\n    \"fs\": {\"command\": \"npx\"}, // theirs\n  },\n}\n",
		)
	case userConfigTarget.path:
		return append(common,
			`{"plugins":{},"userSettings":{}}`,
			`{"plugins":{"mine":{"enabled":true},"tools":{"enabled":true}},"userSettings":{"artifactReviewMode":"X","globalPermissionGrants":{"allow":["command(git status)","command(ls)"],"deny":[]}},"remoteControl":{"enabled":true}}`,
			`{"plugins":{"tools":{"enabled":false,"installedFrom":"builtin"}}}`,
			`{"plugins":[]}`, `{"plugins":{"tools":true}}`, `{"userSettings":[]}`,
			`{"userSettings":{"globalPermissionGrants":{"allow":"x"}}}`,
			`{"userSettings":{"globalPermissionGrants":{"allow":["read_file","read_file"],"extra":{"a":1}}}}`,
		)
	case hooksTarget.path:
		return append(common,
			`{"mine":{"enabled":true,"Stop":[{"type":"command","command":"true","timeout":30}]}}`,
			`{"audit":{"enabled":false}}`,
			`{"paused":{"enabled":false,"Stop":[{"type":"command","command":"true","timeout":30}]},"other":{"enabled":true}}`,
			`{"enabled":true}`,
		)
	default:
		return append(common,
			`{"permissions":{"allow":["command(ls *)","command(git *)"],"deny":[]},"model":"flash","trusted":["/src"]}`,
			`{"permissions":{"allow":"x"}}`, `{"permissions":{"allow":[1]}}`, `{"permissions":[]}`,
			`{"permissions":{"allow":["read_file","read_file"],"extra":{"a":1}}}`,
			`{"model":"gemini-3-pro","toolPermission":"always-proceed"}`,
			`{"statusLine":{"enabled":false},"auth":{"type":"oauth"}}`,
		)
	}
}

func addMergeSeeds(f *testing.F, tg *mergeTarget) {
	all := uint8(1<<len(tg.cands) - 1)
	for i, s := range mergeSeeds(tg) {
		f.Add([]byte(s), all, uint8(0), uint8(0))
		f.Add([]byte(s), uint8(0b0101), uint8(0b0011), uint8(i%2)<<1)
		f.Add([]byte(s), all, uint8(0b1010), uint8(2))
	}
	f.Add([]byte(nil), all, uint8(0b0110), uint8(1))
	f.Add([]byte(nil), uint8(0), all, uint8(1))
}

func FuzzMergeMCPConfig(f *testing.F) {
	addMergeSeeds(f, &mcpTarget)
	f.Fuzz(func(t *testing.T, live []byte, selA, selB, flags uint8) {
		fuzzMerge(t, &mcpTarget, live, selA, selB, flags)
	})
}

func FuzzMergeUserConfig(f *testing.F) {
	addMergeSeeds(f, &userConfigTarget)
	f.Fuzz(func(t *testing.T, live []byte, selA, selB, flags uint8) {
		fuzzMerge(t, &userConfigTarget, live, selA, selB, flags)
	})
}

func FuzzMergeHooks(f *testing.F) {
	addMergeSeeds(f, &hooksTarget)
	f.Fuzz(func(t *testing.T, live []byte, selA, selB, flags uint8) {
		fuzzMerge(t, &hooksTarget, live, selA, selB, flags)
	})
}

func FuzzMergeSettings(f *testing.F) {
	addMergeSeeds(f, &settingsTarget)
	f.Fuzz(func(t *testing.T, live []byte, selA, selB, flags uint8) {
		fuzzMerge(t, &settingsTarget, live, selA, selB, flags)
	})
}

// FuzzManagedBlockForeignText extends FuzzManagedBlock, which checks
// splice, extract and remove on their own, to the user's text around a
// block and to a render's whole lifecycle of GEMINI.md: a block replaced in
// place keeps the text before and after it byte for byte; a render creates
// the block after the user's text, a second render has nothing to do, the
// user writes below the block, an update keeps that, and a prune gives the
// user's text back exactly.
func FuzzManagedBlockForeignText(f *testing.F) {
	f.Add([]byte("# Notes\n\nBe brief.\n"), []byte("## old\n"), []byte("after\n"), []byte("## rule\n\nOne.\n"))
	f.Add([]byte(""), []byte(""), []byte(""), []byte(""))
	f.Add([]byte("no newline"), []byte("x\n"), []byte("tail without newline"), []byte("y\n"))
	f.Add([]byte("\n\n"), []byte("\n"), []byte("\n"), []byte("\n"))
	f.Add([]byte("a\r\nb\r\n"), []byte("<!-- BEGIN\n"), []byte("<!-- END -->\n"), []byte("## a\n\n## b\n"))
	f.Fuzz(func(t *testing.T, pre, old, post, block []byte) {
		for _, b := range [][]byte{pre, old, post, block} {
			if bytes.Contains(b, []byte("agyconf")) {
				t.Skip("marker text is agyconf's own")
			}
		}
		// line ends b's last line as spliceBlock does: with the line
		// ending the text uses.
		line := func(b []byte) []byte {
			if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n")) {
				nl := "\n"
				if crlf(b) {
					nl = "\r\n"
				}
				return append(bytes.Clone(b), nl...)
			}
			return b
		}
		rawPre := pre
		// Blocks in LF form, as render writes them and extractBlock reads
		// them back (FuzzManagedBlock covers other line endings).
		pre, old, block = line(pre), lf(line(old)), lf(line(block))
		wrap := func(b []byte) []byte {
			return []byte(blockBegin + "\n" + string(b) + blockEnd + "\n")
		}

		// In place: the text around the block is the user's, untouched.
		file := slices.Concat(pre, wrap(old), post)
		want := slices.Concat(pre, wrap(block), post)
		if got := html.splice(file, block); !bytes.Equal(got, want) {
			t.Fatalf("splice in place:\n got %q\nwant %q", got, want)
		}
		if len(post) == 0 {
			// The end marker as the file's last line, without a newline.
			noNL := file[:len(file)-1]
			if got := html.splice(noNL, block); !bytes.Equal(got, want) {
				t.Fatalf("splice in place, no final newline:\n got %q\nwant %q", got, want)
			}
		}

		// Through Decide and Execute.
		root := t.TempDir()
		opts := fastOptions(t, root)
		full := filepath.Join(root, "GEMINI.md")
		if len(rawPre) > 0 {
			if err := os.WriteFile(full, rawPre, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		doc := func(b []byte) *render.Plan {
			return plan(&render.Document{Path: "GEMINI.md", Kind: render.ManagedBlock, Mode: render.ModeFile, Text: b})
		}
		run := func(p *render.Plan) []Change {
			t.Helper()
			st, err := opts.Store.LoadState(opts.Instance)
			if err != nil {
				t.Fatal(err)
			}
			cs, err := Decide(p, st, opts)
			if err == nil {
				err = Execute(cs, st, opts)
			}
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			return cs
		}
		read := func() []byte {
			b, err := os.ReadFile(full)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		check := func(when string, blk, after []byte) {
			t.Helper()
			got := read()
			if !bytes.HasPrefix(got, rawPre) {
				t.Fatalf("%s: the user's text before the block changed:\n%q", when, got)
			}
			w := wrap(blk)
			if crlf(rawPre) {
				// A block appended to a CRLF file takes its line endings.
				w = bytes.ReplaceAll(w, []byte("\n"), []byte("\r\n"))
			}
			if !bytes.HasSuffix(got, slices.Concat(w, after)) {
				t.Fatalf("%s: not the block then the user's text after it:\n%q", when, got)
			}
			if b, ok, err := html.extract(got); err != nil || !ok || !bytes.Equal(b, blk) {
				t.Fatalf("%s: extract = %q, %v, %v; want %q", when, b, ok, err, blk)
			}
		}
		run(doc(block))
		check("created", block, nil)
		for _, c := range run(doc(block)) {
			if c.Action != Unchanged {
				t.Fatalf("a second render: %s", c.Action)
			}
		}
		// The user writes below the block; an update keeps it.
		if err := os.WriteFile(full, append(read(), post...), 0o644); err != nil {
			t.Fatal(err)
		}
		run(doc(old))
		check("updated", old, post)
		// Pruned: exactly the user's text is left, or no file when there
		// was none.
		run(plan())
		got, err := os.ReadFile(full)
		if wantAfter := slices.Concat(pre, post); len(wantAfter) == 0 {
			if !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("pruning the whole file's block left %q, %v", got, err)
			}
		} else if !bytes.Equal(got, wantAfter) {
			t.Fatalf("after the prune:\n got %q\nwant %q", got, wantAfter)
		}
	})
}
