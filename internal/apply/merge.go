package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

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
	// What a render without --adopt refuses of the file as a whole.
	var refused string
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
	switch {
	case l.hmLink():
		refused = hmLinkReason
	case l.outside:
		refused = outsideLinkReason(l.link)
	}
	if l.outside {
		// --adopt replaces the link by agyconf's own file: nothing of what
		// it points to is read, so there is nothing to merge into.
		l.exists = false
	}
	var live *jsonmerge.Doc
	if l.exists {
		if live, err = jsonmerge.ParseWith(l.data, syn); err != nil && l.link == "" {
			// Caught half written by a program that writes it in place
			// (agy, a login)? Read again after a pause, a few times.
			pause := time.Millisecond
			for try := 0; try < tornRetries && err != nil; try++ {
				time.Sleep(pause)
				pause *= 2
				again, rerr := readLive(opts.FS, d.Path, opts.ReadOutsideLinks)
				if rerr != nil || !again.exists || again.link != "" {
					break
				}
				if live, err = jsonmerge.ParseWith(again.data, syn); err == nil {
					l = again
				}
			}
		}
		if err != nil {
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
	// agyconf has written nothing into the file since it last let go of
	// all of it (or ever): the first write backs up the whole file.
	owner := st.Shared[d.Path] != nil
	// Someone else wrote it since agyconf last did.
	sh := st.Shared[d.Path]
	othersWrote := sh != nil && !sh.Others && l.exists && !sh.wrote(l.data)
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
	ownedOf := func(u unit) *FileState { return ownedOrGone(st, opts, u) }
	pre := measureAll(d.Path, us, resolved, live, ownedOf)
	for i, u := range us {
		wanted[u.key] = true
		c := Change{Path: d.Path, Unit: unitName(u), stateKey: u.key, doc: d}
		owned := st.Files[u.key]
		claim := ownedOf(u)
		if owned == nil && claim != nil {
			// Identical to what agyconf wrote there before it removed it
			// (agy writing back a copy it read before): agyconf's own, as
			// agyconf created it, if the live entry is that.
			owned = claim
		}
		f := opts.facts(u.key, owned)
		f.Desired = true
		if u.isItem {
			present, err := hasItem(live, u)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			if st.Files[u.key] == nil && owned != nil && !present {
				// Removed, and not written back: created anew.
				owned = nil
				f = opts.facts(u.key, nil)
				f.Desired = true
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
		if st.Files[u.key] == nil && owned != nil && !(m.present && m.ours) {
			// Not what agyconf wrote there: someone else's, as if
			// agyconf had never written it.
			owned = nil
			f = opts.facts(u.key, nil)
			f.Desired = true
			m = measureEntry(d.Path, u, resolved, m.liveRaw, m.present, nil)
			if m.err != nil {
				return nil, m.err
			}
		}
		wantRaw, wantHash, liveRaw, present, liveHash := m.want, m.wantHash, m.liveRaw, m.present, m.liveHash
		c.state = &FileState{SHA256: wantHash, Secrets: u.secrets}
		if st.Files[u.key] == nil && claim != nil {
			// What agyconf wrote there before it removed the entry stays
			// its own, also when the entry is made anew: agy may yet write
			// back a copy it read before the removal.
			c.state.Earlier = claim.wroteBefore(wantHash)
			c.state.SecretsBefore = unionSorted(u.secrets, claim.Secrets, claim.SecretsBefore)
		}
		f.UpToDate = m.upToDate
		f.Live, f.Default = present, u.isDflt
		waits := opts.waitingIn(u.want)
		// The same content, but for a secret's value, is agyconf's own
		// after a rotation; what is not agyconf's is the same content only
		// when its values are the config's too (the user's own credential
		// in place of the config's is a conflict, not something found),
		// unless the secret cannot be read yet to say.
		f.SameContent = present && liveHash == wantHash && (owned != nil || m.upToDate || waits != nil)
		f.Ours = owned != nil && present && m.ours
		if !places && !f.Owned {
			f.Elsewhere = "" // cannot happen: planned files are places
		}
		dec := decideUnit(f, opts.flags())
		if waits != nil {
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

	// Entries agyconf owned that the config no longer has.
	for _, key := range stateKeys(st, d.Path) {
		if wanted[key] {
			continue
		}
		owned := st.Files[key]
		path, item, isItem := parseUnitKey(key)
		if !places {
			changes = append(changes, notAPlace(d.Path, key, owned.Origin))
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
				edits = true
			}
			c.apply(dec, owned)
			changes = append(changes, c)
			continue
		}
		raw, present := live.Get(path...)
		f := Facts{Owned: true, Live: present, Origin: owned.Origin, HasOriginal: owned.Original != ""}
		fields := render.AgyFieldsUnder(path[:len(path)-1])
		var agys []string
		if present {
			// What agy set itself since is the user's, not an edit,
			// here as for an entry the config still declares.
			var err error
			if f.Ours, agys, err = oursBut(raw, fields, owned, owned.ptrSets(nil)); err != nil {
				return nil, fmt.Errorf("%s %s: %w", d.Path, pointer(path), err)
			}
		}
		dec := decideUnit(f, Flags{})
		if dec.Action == Keep && f.HasOriginal {
			// Already what was given back (a render cut short after it
			// gave it back and before the state said so): let go of.
			if orig, err := original(opts, st, d.Path, pointer(path), owned.Original, raw); err == nil && sameJSON(stripFields(raw, fields, nil), stripFields(orig, fields, nil)) {
				dec = Decision{Action: Release, Forget: true, Reason: reasonGivenBack}
			}
		}
		var orig []byte
		if dec.Restore {
			var err error
			var liveRaw []byte
			if present {
				liveRaw = raw
			}
			switch orig, err = original(opts, st, d.Path, pointer(path), owned.Original, liveRaw); {
			case err != nil || !json.Valid(orig):
				dec = Decision{Action: Release, Forget: true, Reason: reasonNoOriginal}
			case present && owned.SHA256 == "" && sameJSON(stripFields(raw, notAgyconfs(raw, fields, agys), nil), stripFields(orig, notAgyconfs(raw, fields, agys), nil)):
				// No write over it is recorded in place, and it is still
				// what the user had but for what agy set since (a render
				// cut short before its write; the user's credential hashes
				// like agyconf's): left as it is.
				dec = Decision{Action: Release, Forget: true, Reason: reasonReleased}
			case present:
				// What agy set itself is the user's latest word: a
				// server disabled since is given back disabled.
				orig = withAgyFields(orig, raw, fields, agys)
			}
		}
		c.apply(dec, owned)
		switch {
		case dec.Remove:
			live.Delete(path...)
			ops = append(ops, func(doc *jsonmerge.Doc) error { doc.Delete(path...); return nil })
			edits = true
		case dec.Restore:
			// The entry as it was written, not merged into agyconf's.
			op := func(doc *jsonmerge.Doc) error { return doc.Replace(orig, path...) }
			if err := op(live); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			ops, edits = append(ops, op), true
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
	// The plan wants nothing of a file agyconf merged into: what is left
	// may be the file as agyconf found it, given back as it was, or
	// nothing but the empty objects and lists agyconf made — also when
	// this render takes nothing out of it (an earlier one did).
	back := func(b []byte, _ bool) ([]byte, bool) { return b, false }
	if len(wanted) == 0 && l.exists && places {
		back = lettingGo(opts, st, d.Path, syn, l.data)
		if data, gone := back(l.data, true); !edits && (gone || !bytes.Equal(data, l.data)) {
			edits = true
		}
	}
	if edits {
		var fresh []byte
		if !l.exists && !anyPending {
			if fresh, err = d.Bytes(opts.Secrets); err != nil {
				return nil, err
			}
		}
		w := mergeWrite(d, l, live, owner, fresh)
		var gone bool
		w.data, gone = back(w.data, true)
		if gone {
			w.data, w.remove = nil, true
		}
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
			// Someone else wrote the file since the decision: it is no
			// longer the file agyconf took over, and never given back
			// for it; it goes only if it holds nothing (nil).
			data, gone := back(doc.Bytes(), false)
			if gone {
				return nil, nil
			}
			return data, nil
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
	if refused != "" {
		for i := range changes {
			if changes[i].Action == Merge {
				changes[i].Refused = refused
			}
		}
	}
	if othersWrote {
		// Said by every change of the file (there is one for each entry
		// agyconf records in it), whether or not it is written.
		for i := range changes {
			changes[i].othersWrote = true
		}
	}
	return changes, nil
}

// lettingGo returns what becomes of a shared file once agyconf's entries
// are out of it (their removals and give-backs merged into b), live
// being the file as it was decided on. The file agyconf took over (the
// whole-file backup of the first merge into it, secrets put back) comes
// back byte for byte when b holds the same value — the containers agyconf
// made and left empty aside — and the file is as agyconf last wrote it
// (asDecided, and its hash the one the state records): nobody else
// changed it since. A file agyconf created goes (gone) when nothing is
// left in it but those empty containers and no comment. Anything else
// keeps the merge as it is.
func lettingGo(opts Options, st *State, file string, syn jsonmerge.Syntax, live []byte) func(b []byte, asDecided bool) (out []byte, gone bool) {
	sh := st.Shared[file]
	// The containers agyconf's entries lived in, deepest first.
	// Those of the entries it records, and those the file's record keeps
	// of entries earlier renders pruned.
	var parents [][]string
	seen := map[string]bool{}
	add := func(path []string) {
		if p := pointer(path); !seen[p] {
			seen[p] = true
			parents = append(parents, path)
		}
	}
	for _, key := range stateKeys(st, file) {
		for _, p := range containersOf(key) {
			add(p)
		}
	}
	if sh != nil {
		for _, ptr := range sh.Containers {
			if p, _, _ := parseUnitKey(unitSep + ptr); len(p) > 0 {
				add(p)
			}
		}
	}
	sort.SliceStable(parents, func(i, j int) bool { return len(parents[i]) > len(parents[j]) })
	// tidy drops the empty containers of agyconf's entries that was does
	// not have (nil: none has them).
	tidy := func(doc *jsonmerge.Doc, was *jsonmerge.Doc) []byte {
		for _, p := range parents {
			raw, ok := doc.Get(p...)
			if !ok {
				continue
			}
			if was != nil {
				if _, had := was.Get(p...); had {
					continue
				}
			}
			if c, err := jsonmerge.Canonical(raw); err == nil && (string(c) == "{}" || string(c) == "[]") {
				doc.Delete(p...)
			}
		}
		return doc.Bytes()
	}
	var found []byte
	var was *jsonmerge.Doc
	for i := len(st.Backups) - 1; i >= 0; i-- {
		if b := st.Backups[i]; b.Path == file && b.Entry == "" && b.Reason == "takeover" {
			if data, err := original(opts, st, file, "", b.ID, live); err == nil {
				if doc, err := jsonmerge.ParseWith(data, syn); err == nil {
					found, was = data, doc
				}
			}
			break
		}
	}
	untouched := sh != nil && !sh.Others && sh.wrote(live)
	created := sh != nil && sh.Created
	return func(b []byte, asDecided bool) ([]byte, bool) {
		doc, err := jsonmerge.ParseWith(b, syn)
		if err != nil {
			return b, false
		}
		switch {
		case created:
			if tidied := tidy(doc, nil); string(bytes.TrimSpace(tidied)) == "{}" {
				return nil, true
			}
		case was != nil:
			// The empty containers agyconf made go, whoever else wrote
			// the file since; the file as found comes back whole only if
			// nobody did — then every empty container it did not have is
			// agyconf's (one its entries lived in, dropped by an earlier
			// render).
			tidied := tidy(doc, was)
			if untouched && asDecided {
				if all, err := jsonmerge.ParseWith(tidied, syn); err == nil && sameValue(tidyAll(all, was), found, syn) {
					return found, false
				}
			}
			return tidied, false
		}
		return b, false
	}
}

// tidyAll drops from doc every empty object and list that was does not
// have, deepest first, and returns the text.
func tidyAll(doc, was *jsonmerge.Doc) []byte {
	var paths [][]string
	var walk func(path []string)
	walk = func(path []string) {
		for _, k := range doc.Keys(path...) {
			p := append(slices.Clone(path), k)
			paths = append(paths, p)
			walk(p)
		}
	}
	walk(nil)
	sort.SliceStable(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	for _, p := range paths {
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

// oursBut reports whether the live entry raw is what agyconf wrote (owned
// records it), but for the members agy sets itself (fields): each such
// member live holds is either agy's, set since, or agyconf's own, written
// because the config set it, and the state's hash says which — it holds
// the members the config set and none the config left to agy. agys are
// the members found to be agy's.
//
// Two readings can both match, each a different write of agyconf's: the
// entry written with "disabled": true, and an earlier (or a pending)
// write without it, which the live entry is with agy's "disabled": true
// added. The hashes are tried newest first — what agyconf last wrote,
// then what renders cut short were writing, then the earlier writes from
// the latest — so the reading is the one that needs the fewest writes
// since: the entry exactly as agyconf last wrote it is agyconf's, and an
// adopted entry the config disabled, enabled and disabled again goes
// back as the user had it, not disabled.
func oursBut(raw json.RawMessage, fields []string, owned *FileState, ptrSets [][]string) (ours bool, agys []string, err error) {
	present := withMembers(raw, fields)
	var tiers [][]string
	if owned.SHA256 != "" {
		tiers = append(tiers, []string{owned.SHA256})
	}
	if len(owned.Pending) > 0 {
		tiers = append(tiers, owned.Pending)
	}
	for i := len(owned.Earlier) - 1; i >= 0; i-- {
		tiers = append(tiers, owned.Earlier[i:i+1])
	}
	for _, tier := range tiers {
		// Every way of splitting the members live holds into agy's and
		// agyconf's (agy sets one member, "disabled": two ways), the
		// members all agy's first; each with the secrets' places of
		// every record.
		for mask := (1 << len(present)) - 1; mask >= 0; mask-- {
			var strip []string
			for i, f := range present {
				if mask&(1<<i) != 0 {
					strip = append(strip, f)
				}
			}
			for _, ptrs := range ptrSets {
				h, err := redactedHash(stripFields(raw, strip, nil), ptrs)
				if err != nil {
					return false, nil, err
				}
				if slices.Contains(tier, h) {
					return true, strip, nil
				}
			}
		}
	}
	return false, nil, nil
}

// notAgyconfs is the members agy sets (fields) that raw does not hold as
// agyconf wrote them: the ones it lacks, and the ones oursBut found agy's.
func notAgyconfs(raw json.RawMessage, fields, agys []string) []string {
	held := withMembers(raw, fields)
	var out []string
	for _, f := range fields {
		if !slices.Contains(held, f) || slices.Contains(agys, f) {
			out = append(out, f)
		}
	}
	return out
}

// withAgyFields is an entry given back (orig) with the members agy sets
// itself (fields) as the user's latest word: set as the live entry has
// them where agy set them (agys). A member live holds because the config
// set it is agyconf's, and one live does not hold may have been taken out
// by agyconf (the config set it, then no longer did) as well as by agy:
// for both the entry goes back as it was. It is edited in its text, so
// that the rest of it stays byte for byte.
func withAgyFields(orig, live json.RawMessage, fields, agys []string) json.RawMessage {
	if len(fields) == 0 {
		return orig
	}
	var o, l map[string]json.RawMessage
	if json.Unmarshal(orig, &o) != nil || json.Unmarshal(live, &l) != nil || o == nil {
		return orig
	}
	doc, err := jsonmerge.ParseWith(orig, jsonmerge.JSONC)
	if err != nil {
		return orig
	}
	changed := false
	for _, f := range fields {
		lv, inLive := l[f]
		ov, inOrig := o[f]
		switch {
		case inLive && slices.Contains(agys, f) && (!inOrig || !bytes.Equal(lv, ov)):
			if doc.Set(lv, f) != nil {
				return orig
			}
			changed = true
		}
	}
	if !changed {
		return orig
	}
	return doc.Bytes()
}

// mergeWrite is the write that carries a shared file's entry changes.
func mergeWrite(d *render.Document, l live, doc *jsonmerge.Doc, owner bool, data []byte) Change {
	c := Change{Path: d.Path, Action: Merge, data: data, mode: l.mode, doc: d, live: l.data}
	if !l.exists {
		// A new file is exactly the rendered document, or, while entries
		// of it wait for a secret, the others merged into nothing.
		c.mode, c.createsFile, c.absent = d.Mode, true, true
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
		// The whole file, the first time agyconf writes into it.
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

// ownedOrGone is the state's record of an entry, or, for one it does not
// record that agyconf removed and no other instance owns, the record of
// what agyconf wrote there (it is agyconf's again if the live entry is
// that; a list item, which is only its text, is whenever it is there);
// nil for neither.
func ownedOrGone(st *State, opts Options, u unit) *FileState {
	if o := st.Files[u.key]; o != nil {
		return o
	}
	if opts.ownedElsewhere(u.key) != "" {
		return nil
	}
	if g := st.gone(u.key); g != nil {
		return g.asOwned()
	}
	return nil
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
	ours     bool   // the live entry is what agyconf wrote (or was writing, or wrote before)
	upToDate bool   // the live entry means what agyconf writes
	err      error
}

// measureAll measures every entry of us that is a member (list items need
// nothing), against the live file as it was read, on up to workers
// goroutines: each reads only its own entry, and the live file is only
// read (its lookups are built before they start).
func measureAll(file string, us []unit, resolved any, live *jsonmerge.Doc, ownedOf func(unit) *FileState) []measured {
	out := make([]measured, len(us))
	for i, u := range us {
		if !u.isItem {
			out[i].liveRaw, out[i].present = live.Get(u.path...)
		}
	}
	_ = parallel(len(us), func(i int) error {
		if u := us[i]; !u.isItem {
			out[i] = measureEntry(file, u, resolved, out[i].liveRaw, out[i].present, ownedOf(u))
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
	var ownedPtrs []string
	if owned != nil {
		ownedPtrs = owned.Secrets
	}
	// Redacted where the recorded state saw secrets and where the plan
	// puts them now, so that a secret moving in or out is a change, not a
	// conflict.
	ptrs := append(slices.Clone(u.secrets), ownedPtrs...)
	liveCanon, liveErr := jsonmerge.Canonical(liveRaw)
	hashOf := func(strip, ptrs []string) (string, error) {
		if len(strip) == 0 && len(ptrs) == 0 && liveErr == nil {
			// Nothing stripped, nothing redacted: redactedHash(liveRaw).
			return sum(jsonmerge.EncodingJSONFormOf(liveCanon)), nil
		}
		return redactedHash(stripFields(liveRaw, strip, redRaw), ptrs)
	}
	// What agy toggles itself, and the config does not set, is the
	// user's: it neither counts as an edit nor is overwritten. Unless
	// agyconf wrote it, when the config set it before: then it goes.
	held := withMembers(liveRaw, render.AgyFieldsUnder(u.path[:len(u.path)-1]))
	fields := notSetIn(m.want, held)
	strip := fields
	if m.liveHash, err = hashOf(strip, ptrs); err != nil {
		return measured{err: fmt.Errorf("%s %s: %w", file, pointer(u.path), err)}
	}
	m.ours = owned != nil && owned.matches(m.liveHash)
	if owned != nil && !m.ours {
		// Recorded with other secrets' places (a render cut short, a
		// secret moved), or with a member agy sets that agyconf wrote,
		// or one agy set that the config now sets to the same value (agy
		// disabled the server, then the config declared it disabled). A
		// value of agy's the config now sets otherwise stays a conflict,
		// as any edit of a field the config sets.
		if ours, agys, err := oursBut(liveRaw, notSetOtherwise(m.want, liveRaw, held), owned, owned.ptrSets(u.secrets)); err == nil && ours {
			m.ours = true
			if !slices.Equal(agys, strip) {
				strip = agys
				if m.liveHash, err = hashOf(strip, ptrs); err != nil {
					return measured{err: fmt.Errorf("%s %s: %w", file, pointer(u.path), err)}
				}
			}
		}
	}
	agyFields := strip
	liveRaw = keepAgyFields(liveRaw, m.want, agyFields, &m.want)
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

// notSetIn is the fields the entry want (JSON) does not set.
func notSetIn(want json.RawMessage, fields []string) []string {
	if len(fields) == 0 {
		return nil
	}
	var w map[string]json.RawMessage
	_ = json.Unmarshal(want, &w)
	var out []string
	for _, f := range fields {
		if _, set := w[f]; !set {
			out = append(out, f)
		}
	}
	return out
}

// notSetOtherwise is the fields the entry want (JSON) does not set, or
// sets to the value live has.
func notSetOtherwise(want, live json.RawMessage, fields []string) []string {
	if len(fields) == 0 {
		return nil
	}
	var w, l map[string]json.RawMessage
	_ = json.Unmarshal(want, &w)
	_ = json.Unmarshal(live, &l)
	var out []string
	for _, f := range fields {
		wv, set := w[f]
		if !set || sameJSON(wv, l[f]) {
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
