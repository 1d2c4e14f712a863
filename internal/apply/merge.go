package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/render"
)

// A shared JSON file (mcp_config.json, hooks.json, settings.json) is the
// user's and agy's as much as agyconf's: agyconf owns entries of it —
// members of one object, items of string lists — and decides about each
// entry with the same table it uses for whole files. The file itself is
// rewritten only through jsonmerge, which keeps every other key, unknown
// field and the order of untouched entries.

// unitSep separates a file from the entry inside it in state keys and
// messages: ".gemini/config/mcp_config.json#/mcpServers/github".
const unitSep = "#"

// itemSep marks a list item in a state key: "…settings.json#/permissions/allow[]command(git *)".
const itemSep = "[]"

// unit is one entry agyconf wants in a shared file.
type unit struct {
	key      string   // state key
	path     []string // member path, or the list's path for an item
	item     string   // the item, for list items
	isItem   bool
	isDflt   bool
	want     any      // the value, secrets still references
	redacted any      // the value with secret strings replaced whole
	secrets  []string // pointers of secret strings, relative to the value
}

func unitKey(file string, path []string, item string, isItem bool) string {
	k := file + unitSep + pointer(path)
	if isItem {
		k += itemSep + item
	}
	return k
}

// pointer spells a unit's path as a JSON Pointer, as render does.
func pointer(path []string) string { return render.Pointer(path...) }

// units lists the entries of a shared document, sorted by key.
func units(d *render.Document) []unit {
	m := d.Merge
	redacted := d.Redacted()
	var out []unit
	itemRoots := map[string]bool{}
	for _, p := range m.Items {
		if len(m.Parent) == 0 && len(p) > 0 {
			itemRoots[p[0]] = true
		}
		for _, it := range arrayAt(d.JSON, p) {
			s, _ := literal(it)
			out = append(out, unit{key: unitKey(d.Path, p, s, true), path: p, item: s, isItem: true})
		}
	}
	parent, _ := valueAt(d.JSON, m.Parent).(map[string]any)
	redParent, _ := valueAt(redacted, m.Parent).(map[string]any)
	for k, v := range parent {
		if itemRoots[k] {
			continue
		}
		path := append(append([]string(nil), m.Parent...), k)
		u := unit{key: unitKey(d.Path, path, "", false), path: path, want: v, redacted: redParent[k], isDflt: slices.Contains(m.Defaults, k)}
		u.secrets = (&render.Document{JSON: v}).SecretPointers()
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func valueAt(v any, path []string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func arrayAt(v any, path []string) []any {
	a, _ := valueAt(v, path).([]any)
	return a
}

// literal returns the text of a plain string value of a document tree.
func literal(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case interface{ Literal() (string, bool) }:
		return x.Literal()
	}
	return "", false
}

// decideShared decides every entry of a shared file, and the file's new
// content when an entry changes; l is the live file, and syn what it is
// read with.
func decideShared(d *render.Document, l live, syn jsonmerge.Syntax, st *State, opts Options) ([]Change, error) {
	var err error
	switch hm := opts.hmSwitch(d.Path, l); {
	case hm.linked:
		// No flag takes over a link the new generation makes (decideDoc).
		return []Change{{Path: d.Path, Action: Conflict, Reason: hmLinkedReason}}, nil
	case hm.gone:
		// Gone by the time the render runs: nothing to merge into.
		l = live{}
	}
	if l.hmLink() && !opts.Adopt {
		return []Change{{Path: d.Path, Action: Conflict, Reason: hmLinkReason}}, nil
	}
	if l.outside && !opts.Adopt {
		return []Change{{Path: d.Path, Action: Conflict, Reason: outsideLinkReason(l.link)}}, nil
	}
	if l.outside {
		// --adopt replaces the link by agyconf's own file: nothing of what
		// it points to is read, so there is nothing to merge into.
		l.exists = false
	}
	var live *jsonmerge.Doc
	if l.exists {
		if live, err = jsonmerge.ParseWith(l.data, syn); err != nil {
			return nil, fmt.Errorf("%s: %w; agyconf never rewrites a file it cannot read", d.Path, err)
		}
	} else if live, err = jsonmerge.Parse([]byte("{}")); err != nil {
		panic(err)
	}
	resolved, err := resolveTree(d, opts.readOrPlaceholder())
	if err != nil {
		return nil, err
	}

	var changes []Change
	wanted := map[string]bool{}
	edits := false
	// ops are the edits as functions, to be applied again to the file as
	// it is just before the write, should agy have changed it meanwhile.
	var ops []func(*jsonmerge.Doc) error
	owner := ownsAny(st, d.Path)
	places := opts.writes(d.Path)
	anyPending := false
	// A new file is the rendered document itself, unless an entry waits
	// for a secret: its entries go into live only then, after the loop
	// (each a member of the parent of its own, which no other entry's
	// decision reads). 10,000 servers set one by one into an empty
	// document were a third of deciding them.
	var sets []func(*jsonmerge.Doc) error
	us := units(d)
	// Every entry's hashes, on every core, before the entries are decided
	// one by one: they are most of deciding a file of many entries.
	pre := measureAll(d.Path, us, resolved, live, st)
	for i, u := range us {
		wanted[u.key] = true
		c := Change{Path: d.Path, Unit: unitName(u), stateKey: u.key, doc: d}
		owned := st.Files[u.key]
		f := opts.facts(u.key, owned)
		f.Desired = true
		if u.isItem {
			present, err := hasItem(live, u)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			// An item is its own content: present is up to date, and a
			// list item two instances both declare stays while either does.
			f.Live, f.UpToDate, f.SameContent, f.Ours, f.Elsewhere = present, present, present, present, ""
			c.state = &FileState{Item: true}
			c.apply(decideUnit(f, opts.flags()), owned)
			if !present {
				op := func(doc *jsonmerge.Doc) error { return doc.AddString(u.item, u.path...) }
				if err := op(live); err != nil {
					return nil, fmt.Errorf("%s: %w", d.Path, err)
				}
				ops, edits = append(ops, op), true
			}
			changes = append(changes, c)
			continue
		}
		// The entry as the live file has it now, which the edits of the
		// entries before it leave as it was; measured again if not.
		m := pre[i]
		if liveRaw, present := live.Get(u.path...); present != m.present || !bytes.Equal(liveRaw, m.liveRaw) {
			m = measureEntry(d.Path, u, resolved, liveRaw, present, owned)
		}
		if m.err != nil {
			return nil, m.err
		}
		wantRaw, wantHash, liveRaw, present, liveHash := m.want, m.wantHash, m.liveRaw, m.present, m.liveHash
		c.state = &FileState{SHA256: wantHash, Secrets: u.secrets}
		f.UpToDate = m.upToDate
		f.Live, f.Default = present, u.isDflt
		f.SameContent = present && liveHash == wantHash
		f.Ours = owned != nil && present && owned.matches(liveHash)
		if !places && !f.Owned {
			f.Elsewhere = "" // cannot happen: planned files are places
		}
		dec := decideUnit(f, opts.flags())
		if waits := opts.waitingIn(u.want); waits != nil {
			if dec = pendingDecision(dec, f, waits); dec.Action == Pending {
				c.markPending(dec, waits)
				changes, anyPending = append(changes, c), true
				continue
			}
		}
		c.apply(dec, owned)
		if dec.Action == Conflict && l.exists {
			// What the file would be with this entry as the config wants it.
			if doc, err := jsonmerge.ParseWith(l.data, syn); err == nil && doc.Set(wantRaw, u.path...) == nil {
				c.live, c.wouldBe = l.data, doc.Bytes()
				for _, key := range stateKeys(st, d.Path) {
					p, _, _ := parseUnitKey(key)
					for _, sp := range st.Files[key].Secrets {
						c.secrets = append(c.secrets, pointer(p)+sp)
					}
				}
				for _, sp := range u.secrets {
					c.secrets = append(c.secrets, pointer(u.path)+sp)
				}
			}
		}
		if dec.Backup && present {
			c.backup = liveRaw
			c.backupRefs = render.SecretStrs(u.want)
			c.backupPtrs = append([]string(nil), u.secrets...)
			if owned != nil {
				c.backupPtrs = append(c.backupPtrs, owned.Secrets...)
			}
		}
		if dec.Write {
			path, raw := u.path, wantRaw
			op := func(doc *jsonmerge.Doc) error { return doc.Set(raw, path...) }
			if !l.exists {
				sets = append(sets, op)
			} else if err := op(live); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			ops, edits = append(ops, op), true
		}
		changes = append(changes, c)
	}
	if anyPending {
		for _, op := range sets {
			if err := op(live); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
		}
	}

	// Entries agyconf owned that the config no longer has. sims replay
	// on the file as agyconf found it what happened to each in the live
	// file (givesBack): put in by a render, taken out or given back now.
	var sims []replayed
	for _, key := range stateKeys(st, d.Path) {
		if wanted[key] {
			continue
		}
		owned := st.Files[key]
		path, item, isItem := parseUnitKey(key)
		if !places {
			changes = append(changes, notAPlace(d.Path, key))
			continue
		}
		c := Change{Path: d.Path, Unit: displayUnit(path, item, isItem), stateKey: key}
		if isItem {
			present, _ := live.ArrayStrings(path...)
			f := Facts{Owned: true, Live: slices.Contains(present, item), Ours: true, Origin: owned.Origin}
			dec := decideUnit(f, Flags{})
			if dec.Restore {
				dec = Decision{Action: Release, Forget: true, Reason: reasonReleased}
			}
			// A list item two instances both declare stays while either
			// still does.
			if dec.Remove && opts.ownedElsewhere(key) == "" && live.RemoveString(item, path...) {
				ops = append(ops, func(doc *jsonmerge.Doc) error { doc.RemoveString(item, path...); return nil })
				sims = append(sims, replayed{
					put: func(doc *jsonmerge.Doc) {
						if had, _ := doc.ArrayStrings(path...); !slices.Contains(had, item) {
							_ = doc.AddString(item, path...)
						}
					},
					take: func(doc *jsonmerge.Doc) { doc.RemoveString(item, path...) },
				})
				edits = true
			}
			c.apply(dec, owned)
			changes = append(changes, c)
			continue
		}
		raw, present := live.Get(path...)
		f := Facts{Owned: true, Live: present, Origin: owned.Origin, HasOriginal: owned.Original != ""}
		if present {
			// What agy set itself since is the user's, not an edit,
			// here as for an entry the config still declares.
			h, err := redactedHash(stripFields(raw, render.AgyFieldsUnder(path[:len(path)-1]), nil), owned.Secrets)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", d.Path, pointer(path), err)
			}
			f.Ours = owned.matches(h)
		}
		dec := decideUnit(f, Flags{})
		var orig []byte
		if dec.Restore {
			var err error
			if orig, err = original(opts, st, d.Path, pointer(path), owned.Original); err != nil || !json.Valid(orig) {
				dec = Decision{Action: Release, Forget: true, Reason: reasonNoOriginal}
			} else if present {
				// What agy set itself is the user's latest word: a
				// server disabled since is given back disabled.
				orig = withAgyFields(orig, raw, render.AgyFieldsUnder(path[:len(path)-1]))
			}
		}
		c.apply(dec, owned)
		switch {
		case dec.Remove:
			live.Delete(path...)
			ops = append(ops, func(doc *jsonmerge.Doc) error { doc.Delete(path...); return nil })
			sims = append(sims, replayed{
				put: func(doc *jsonmerge.Doc) {
					if _, had := doc.Get(path...); !had {
						_ = doc.Set(raw, path...)
					}
				},
				take: func(doc *jsonmerge.Doc) { doc.Delete(path...) },
			})
			edits = true
		case dec.Restore:
			op := func(doc *jsonmerge.Doc) error { return doc.Set(orig, path...) }
			if err := op(live); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			ops, edits = append(ops, op), true
			sims = append(sims, replayed{
				put:  func(doc *jsonmerge.Doc) { _ = doc.Set(raw, path...) },
				take: func(doc *jsonmerge.Doc) { _ = op(doc) },
			})
		}
		changes = append(changes, c)
	}

	if l.exists && d.Mode == render.ModeSecret && l.mode != render.ModeSecret && len(wanted) > 0 {
		// Modes are drift: a file that holds inline credentials is 0600,
		// whoever widened it.
		changes = append(changes, Change{Path: d.Path, Action: Update, Reason: modeReason(l.mode, render.ModeSecret)})
		edits = true
	}
	if l.link != "" && len(wanted) > 0 {
		edits = true // a link is replaced by a regular file
	}
	if edits {
		var fresh []byte
		if !l.exists && !anyPending {
			if fresh, err = d.Bytes(opts.Secrets); err != nil {
				return nil, err
			}
		}
		// The plan wants nothing of a file agyconf merged into: what is
		// left may be the file as agyconf found it, given back as it was.
		back := func(b []byte) []byte { return b }
		if len(wanted) == 0 && l.exists {
			back = givesBack(opts, st, d.Path, syn, sims)
		}
		w := mergeWrite(d, l, live, owner, fresh)
		w.data = back(w.data)
		w.rebuild = func(current []byte) ([]byte, error) {
			doc, err := jsonmerge.ParseWith(current, syn)
			if err != nil {
				return nil, fmt.Errorf("%s changed while agyconf rendered, and no longer parses: %w", d.Path, err)
			}
			for _, op := range ops {
				if err := op(doc); err != nil {
					return nil, err
				}
			}
			return back(doc.Bytes()), nil
		}
		// Entries that held secrets when agyconf wrote them are redacted
		// when the change is shown, like the ones that hold them now.
		for _, key := range stateKeys(st, d.Path) {
			path, _, _ := parseUnitKey(key)
			for _, p := range st.Files[key].Secrets {
				w.secrets = append(w.secrets, pointer(path)+p)
			}
		}
		changes = append(changes, w)
	}
	return changes, nil
}

// givesBack returns what turns a shared file agyconf lets go of into the
// file as agyconf found it, byte for byte (the whole-file backup taken the
// first time it merged into it), when nothing but agyconf changed it
// since: the merged text equals, byte for byte, that file with sims
// replayed on it (agyconf's entries put in and the text written, then
// taken out or given back, as the live file went through it), the
// containers agyconf made and left empty gone from both, and the replay
// changed no value. What the replay leaves different is then only what
// agyconf's own edits did to the text around its entries (a trailing
// comma, a blank line, an empty "mcpServers"). Anything else (an entry
// agy added, a user's comment, a reordering, a server disabled since)
// keeps the merge as it is, and so does a history the replay does not
// reproduce (entries put in by several renders). A backup with secrets
// taken out never matches, and is never written back.
func givesBack(opts Options, st *State, file string, syn jsonmerge.Syntax, sims []replayed) func([]byte) []byte {
	keep := func(b []byte) []byte { return b }
	var id string
	for i := len(st.Backups) - 1; i >= 0; i-- {
		if b := st.Backups[i]; b.Path == file && b.Entry == "" && b.Reason == "takeover" {
			id = b.ID
			break
		}
	}
	if id == "" {
		return keep
	}
	found, err := opts.Store.ReadBackup(id)
	if err != nil {
		return keep
	}
	was, err := jsonmerge.ParseWith(found, syn)
	if err != nil {
		return keep
	}
	// The containers agyconf's entries lived in, deepest first: dropped
	// where the file as found had none and they are left empty.
	var parents [][]string
	seen := map[string]bool{}
	for _, key := range stateKeys(st, file) {
		path, _, isItem := parseUnitKey(key)
		if !isItem {
			path = path[:len(path)-1]
		}
		for ; len(path) > 0; path = path[:len(path)-1] {
			if p := pointer(path); !seen[p] {
				seen[p] = true
				parents = append(parents, slices.Clone(path))
			}
		}
	}
	sort.Slice(parents, func(i, j int) bool { return len(parents[i]) > len(parents[j]) })
	tidy := func(doc *jsonmerge.Doc) []byte {
		for _, p := range parents {
			raw, ok := doc.Get(p...)
			if !ok {
				continue
			}
			if _, had := was.Get(p...); had {
				continue
			}
			if c, err := jsonmerge.Canonical(raw); err == nil && (string(c) == "{}" || string(c) == "[]") {
				doc.Delete(p...)
			}
		}
		return doc.Bytes()
	}
	// A render put agyconf's entries in and wrote the file; this run read
	// it back and takes them out: two texts, as the file went through.
	replay, err := jsonmerge.ParseWith(found, syn)
	if err != nil {
		return keep
	}
	for _, sim := range sims {
		sim.put(replay)
	}
	if replay, err = jsonmerge.ParseWith(replay.Bytes(), syn); err != nil {
		return keep
	}
	for _, sim := range sims {
		sim.take(replay)
	}
	want := tidy(replay)
	if !sameValue(want, found, syn) {
		return keep // agyconf gives back something other than what it found
	}
	return func(b []byte) []byte {
		doc, err := jsonmerge.ParseWith(b, syn)
		if err != nil {
			return b
		}
		if bytes.Equal(tidy(doc), want) {
			return found
		}
		return b
	}
}

// replayed is what happened to one of agyconf's entries in a shared file,
// for givesBack to replay on the file as agyconf found it: put in (as
// the live file holds it) by a render, then taken out or given back.
type replayed struct{ put, take func(*jsonmerge.Doc) }

// sameValue reports whether two texts of a JSON document hold the same
// value.
func sameValue(a, b []byte, syn jsonmerge.Syntax) bool {
	canon := func(t []byte) []byte {
		doc, err := jsonmerge.ParseWith(t, syn)
		if err != nil {
			return nil
		}
		raw, _ := doc.Get()
		c, err := jsonmerge.Canonical(raw)
		if err != nil {
			return nil
		}
		return c
	}
	ca, cb := canon(a), canon(b)
	return ca != nil && bytes.Equal(ca, cb)
}

// withAgyFields is an entry given back (orig) with the members agy sets
// itself (fields) as the live entry has them: set where live sets them,
// absent where live has none.
func withAgyFields(orig, live json.RawMessage, fields []string) json.RawMessage {
	if len(fields) == 0 {
		return orig
	}
	var o, l map[string]json.RawMessage
	if json.Unmarshal(orig, &o) != nil || json.Unmarshal(live, &l) != nil {
		return orig
	}
	changed := false
	for _, f := range fields {
		lv, inLive := l[f]
		ov, inOrig := o[f]
		switch {
		case inLive && (!inOrig || !bytes.Equal(lv, ov)):
			o[f] = lv
			changed = true
		case !inLive && inOrig:
			delete(o, f)
			changed = true
		}
	}
	if !changed {
		return orig
	}
	out, err := json.Marshal(o)
	if err != nil {
		return orig
	}
	return out
}

// mergeWrite is the write that carries a shared file's entry changes.
func mergeWrite(d *render.Document, l live, doc *jsonmerge.Doc, owner bool, data []byte) Change {
	c := Change{Path: d.Path, Action: Merge, data: data, mode: l.mode, doc: d, live: l.data}
	if !l.exists {
		// A new file is exactly the rendered document, or, while entries
		// of it wait for a secret, the others merged into nothing.
		c.mode = d.Mode
	}
	if c.data == nil || l.exists {
		// The merged text, encoded only when it is what gets written.
		c.data = doc.Bytes()
	}
	if d.Mode == render.ModeSecret {
		// Credentials go only into files of mode 0600, whoever made them.
		c.mode = render.ModeSecret
	}
	if l.exists && (!owner || l.link != "") {
		// The whole file, the first time agyconf merges into it.
		c.backup, c.backupReason = l.data, "takeover"
		c.backupRefs = render.SecretStrs(d.JSON)
	}
	if l.outside {
		c.backup, c.backupReason = []byte("symbolic link to "+l.link+"\n"), "takeover"
	}
	return c
}

// resolveTree is what the document's text, secrets read, decodes to
// (UseNumber): built as a value where it can be (render.Document.Decoded),
// without writing the text and reading it back.
func resolveTree(d *render.Document, read render.SecretReader) (any, error) {
	if v, ok, err := d.Decoded(read); err != nil || ok {
		return v, err
	}
	b, err := d.Bytes(read)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err = dec.Decode(&v)
	return v, err
}

func hasItem(live *jsonmerge.Doc, u unit) (bool, error) {
	items, err := live.ArrayStrings(u.path...)
	if err != nil {
		return false, err
	}
	return slices.Contains(items, u.item), nil
}

// ownsAny reports whether the state records an entry of file: if not, the
// file is taken over now, and backed up first.
func ownsAny(st *State, file string) bool { return len(stateKeys(st, file)) > 0 }

// stateKeys lists the state's keys of file's entries, sorted.
func stateKeys(st *State, file string) []string { return st.keysByFile()[file] }

// measured is what deciding an entry of a shared file needs of its value
// and of the live file's.
type measured struct {
	want     json.RawMessage // the entry agyconf writes, with what agy set itself kept
	wantHash string          // its hash as the state records it, secrets redacted
	liveRaw  json.RawMessage // the entry in the live file, as written
	present  bool
	liveHash string // the live entry's hash, without what agy set itself
	upToDate bool   // the live entry means what agyconf writes
	err      error
}

// measureAll measures every entry of us that is a member (list items need
// nothing), against the live file as it was read, on up to workers
// goroutines: each reads only its own entry, and the live file is only
// read (its lookups are built before they start).
func measureAll(file string, us []unit, resolved any, live *jsonmerge.Doc, st *State) []measured {
	out := make([]measured, len(us))
	for i, u := range us {
		if !u.isItem {
			out[i].liveRaw, out[i].present = live.Get(u.path...)
		}
	}
	_ = parallel(len(us), func(i int) error {
		if u := us[i]; !u.isItem {
			out[i] = measureEntry(file, u, resolved, out[i].liveRaw, out[i].present, st.Files[u.key])
		}
		return nil
	})
	return out
}

// measureEntry measures one entry, whose live value is liveRaw if present;
// owned is what the state records of it.
func measureEntry(file string, u unit, resolved any, liveRaw json.RawMessage, present bool, owned *FileState) measured {
	m := measured{liveRaw: liveRaw, present: present}
	var err error
	if m.want, err = json.Marshal(valueAt(resolved, u.path)); err != nil {
		return measured{err: err}
	}
	redRaw, err := json.Marshal(u.redacted)
	if err != nil {
		return measured{err: err}
	}
	// Each side is read once: the canonical form compared below, and the
	// hash of the same reading (jsonmerge.EncodingJSONFormOf), when the
	// entry holds no secret and what is hashed is what is compared.
	var wantCanon []byte // jsonmerge.Canonical(m.want), once read
	if bytes.Equal(redRaw, m.want) {
		if c, err := jsonmerge.Canonical(m.want); err == nil {
			wantCanon, m.wantHash = c, sum(jsonmerge.EncodingJSONFormOf(c))
		}
	}
	if wantCanon == nil {
		if m.wantHash, err = redactedHash(redRaw, nil); err != nil {
			return measured{err: err}
		}
	}
	if !present {
		return m
	}
	ptrs := u.secrets
	if owned != nil {
		ptrs = append(append([]string(nil), ptrs...), owned.Secrets...)
	}
	// What agy toggles itself, and the config does not set, is the
	// user's: it neither counts as an edit nor is overwritten.
	agyFields := withMembers(liveRaw, render.AgyFieldsUnder(u.path[:len(u.path)-1]))
	liveRaw = keepAgyFields(liveRaw, m.want, agyFields, &m.want)
	liveCanon, liveErr := jsonmerge.Canonical(liveRaw)
	if len(agyFields) == 0 && len(ptrs) == 0 && liveErr == nil {
		// Nothing stripped, nothing redacted: redactedHash(liveRaw).
		m.liveHash = sum(jsonmerge.EncodingJSONFormOf(liveCanon))
	} else if m.liveHash, err = redactedHash(stripFields(liveRaw, agyFields, redRaw), ptrs); err != nil {
		return measured{err: fmt.Errorf("%s %s: %w", file, pointer(u.path), err)}
	}
	if wantCanon == nil || len(agyFields) > 0 {
		// Not read yet, or keepAgyFields may have added to it.
		wantCanon, _ = jsonmerge.Canonical(m.want)
	}
	m.upToDate = bytes.Equal(liveCanon, wantCanon)
	return m
}

// withMembers is the names of fields that raw may have as members: those
// its text spells, or all of them when a name in it is escaped. A field it
// cannot have changes nothing in stripFields or keepAgyFields, which decode
// the entry to look for it; most entries have none.
func withMembers(raw json.RawMessage, fields []string) []string {
	if bytes.IndexByte(raw, '\\') >= 0 {
		return fields
	}
	var out []string
	for _, f := range fields {
		if bytes.Contains(raw, []byte(`"`+f+`"`)) {
			out = append(out, f)
		}
	}
	return out
}

// stripFields removes from an entry the members agy sets itself that the
// config does not set (want, the entry agyconf wants, nil when it wants
// none): they do not count in its hash.
func stripFields(raw json.RawMessage, fields []string, want json.RawMessage) json.RawMessage {
	if len(fields) == 0 {
		return raw
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	var w map[string]json.RawMessage
	if want != nil {
		_ = json.Unmarshal(want, &w)
	}
	changed := false
	for _, f := range fields {
		if _, set := w[f]; set {
			continue
		}
		if _, ok := m[f]; ok {
			delete(m, f)
			changed = true
		}
	}
	if !changed {
		return raw
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// keepAgyFields carries the members agy sets itself, and the config does
// not, from the live entry into what agyconf writes (*want), so that a
// server agy disabled stays disabled; it returns the live entry.
func keepAgyFields(live, want json.RawMessage, fields []string, out *json.RawMessage) json.RawMessage {
	if len(fields) == 0 {
		return live
	}
	var l, w map[string]json.RawMessage
	if json.Unmarshal(live, &l) != nil || json.Unmarshal(want, &w) != nil || w == nil {
		return live // want is not an object (null decodes to no map)
	}
	changed := false
	for _, f := range fields {
		if _, set := w[f]; set {
			continue
		}
		if v, ok := l[f]; ok {
			w[f] = v
			changed = true
		}
	}
	if changed {
		if b, err := json.Marshal(w); err == nil {
			*out = b
		}
	}
	return live
}

func parseUnitKey(key string) (path []string, item string, isItem bool) {
	_, ptr, _ := strings.Cut(key, unitSep)
	if i := strings.Index(ptr, itemSep); i >= 0 {
		ptr, item, isItem = ptr[:i], ptr[i+len(itemSep):], true
	}
	for _, p := range strings.Split(ptr, "/")[1:] {
		path = append(path, strings.NewReplacer("~1", "/", "~0", "~").Replace(p))
	}
	return path, item, isItem
}

func unitName(u unit) string { return displayUnit(u.path, u.item, u.isItem) }

// displayUnit names an entry for people: mcpServers.github,
// permissions.allow["command(git *)"].
func displayUnit(path []string, item string, isItem bool) string {
	s := strings.Join(path, ".")
	if isItem {
		s += fmt.Sprintf("[%q]", item)
	}
	return s
}
