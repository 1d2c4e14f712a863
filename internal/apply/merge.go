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

func pointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(p))
	}
	return b.String()
}

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
// content when an entry changes.
func decideShared(d *render.Document, st *State, opts Options) ([]Change, error) {
	l, err := readLive(opts.FS, d.Path, opts.ReadOutsideLinks)
	if err != nil {
		return nil, err
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
		if live, err = jsonmerge.Parse(l.data); err != nil {
			return nil, fmt.Errorf("%s: %w; agyconf never rewrites a file it cannot read", d.Path, err)
		}
	} else if live, err = jsonmerge.Parse([]byte("{}")); err != nil {
		panic(err)
	}
	resolved, err := resolveTree(d, opts.Secrets)
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
	for _, u := range units(d) {
		wanted[u.key] = true
		c := Change{Path: d.Path, Unit: unitName(u), stateKey: u.key, doc: d}
		owned := st.Files[u.key]
		if other := opts.ownedElsewhere(u.key); other != "" && owned == nil && !u.isItem && !u.isDflt {
			c.Action, c.Reason = Conflict, otherInstance(other)
			changes = append(changes, c)
			continue
		}
		if u.isItem {
			present, err := hasItem(live, u)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			switch {
			case present && owned != nil:
				c.Action = Unchanged
			case present:
				c.Action = Adopt
			case owned != nil:
				c.Action = Recreate
			default:
				c.Action = Create
			}
			if !present {
				op := func(doc *jsonmerge.Doc) error { return doc.AddString(u.item, u.path...) }
				if err := op(live); err != nil {
					return nil, fmt.Errorf("%s: %w", d.Path, err)
				}
				ops, edits = append(ops, op), true
			}
			c.state = &FileState{Item: true}
			changes = append(changes, c)
			continue
		}
		wantRaw, err := json.Marshal(valueAt(resolved, u.path))
		if err != nil {
			return nil, err
		}
		redRaw, err := json.Marshal(u.redacted)
		if err != nil {
			return nil, err
		}
		wantHash, err := redactedHash(redRaw, nil)
		if err != nil {
			return nil, err
		}
		c.state = &FileState{SHA256: wantHash, Secrets: u.secrets}
		liveRaw, present := live.Get(u.path...)
		var liveHash string
		upToDate := false
		if present {
			ptrs := u.secrets
			if owned != nil {
				ptrs = append(append([]string(nil), ptrs...), owned.Secrets...)
			}
			if liveHash, err = redactedHash(liveRaw, ptrs); err != nil {
				return nil, fmt.Errorf("%s %s: %w", d.Path, pointer(u.path), err)
			}
			a, _ := jsonmerge.Canonical(liveRaw)
			b, _ := jsonmerge.Canonical(wantRaw)
			upToDate = bytes.Equal(a, b)
		}
		write := false
		switch {
		case u.isDflt && present && !upToDate && owned != nil && owned.matches(liveHash):
			// Still what agyconf wrote: the config changed, nobody else did.
			c.Action, write = Update, true
		case u.isDflt && present:
			c.Action = Unchanged // someone else's value: agy owns it from now on
			if !upToDate {
				c.Reason = "differs from the config, but agy set it since agyconf wrote it; agyconf only sets it where it is absent or still its own: delete it to get the config's value"
			}
		case !present && owned != nil:
			c.Action, write = Recreate, true
		case !present:
			c.Action, write = Create, true
		case upToDate && owned == nil:
			c.Action = Adopt
		case upToDate:
			c.Action = Unchanged
		case liveHash == wantHash:
			c.Action, write = Update, true // a secret's value changed
		case owned == nil && opts.Adopt:
			c.Action, write = Adopt, true
		case owned == nil:
			c.Action, c.Reason = Conflict, "is not agyconf's: it was there before; remove it, write it into the config as it is, or pass --adopt"
		case !owned.matches(liveHash) && opts.Force:
			c.Action, write = Update, true
		case !owned.matches(liveHash):
			c.Action, c.Reason = Conflict, "was edited since agyconf wrote it; move the edit into the config, delete the entry to get agyconf's version back, or pass --force"
		default:
			c.Action, write = Update, true
		}
		if write {
			path := u.path
			op := func(doc *jsonmerge.Doc) error { return doc.Set(wantRaw, path...) }
			if err := op(live); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Path, err)
			}
			ops, edits = append(ops, op), true
		}
		changes = append(changes, c)
	}

	// Entries agyconf wrote that the config no longer has.
	for _, key := range stateKeys(st, d.Path) {
		if wanted[key] {
			continue
		}
		owned := st.Files[key]
		path, item, isItem := parseUnitKey(key)
		c := Change{Path: d.Path, Unit: displayUnit(path, item, isItem), Action: Prune, stateKey: key}
		if isItem {
			// A list item two instances both declare stays while either
			// still does.
			if opts.ownedElsewhere(key) == "" && live.RemoveString(item, path...) {
				ops = append(ops, func(doc *jsonmerge.Doc) error { doc.RemoveString(item, path...); return nil })
				edits = true
			}
			changes = append(changes, c)
			continue
		}
		raw, present := live.Get(path...)
		if present {
			h, err := redactedHash(raw, owned.Secrets)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", d.Path, pointer(path), err)
			}
			if !owned.matches(h) {
				c.Action, c.Reason = Keep, "is no longer in the config, but was edited since agyconf wrote it; left in place"
			} else {
				live.Delete(path...)
				ops = append(ops, func(doc *jsonmerge.Doc) error { doc.Delete(path...); return nil })
				edits = true
			}
		}
		changes = append(changes, c)
	}

	if l.link != "" && len(wanted) > 0 {
		edits = true // a link is replaced by a regular file
	}
	if edits {
		var fresh []byte
		if !l.exists {
			if fresh, err = d.Bytes(opts.Secrets); err != nil {
				return nil, err
			}
		}
		w := mergeWrite(d, l, live, owner, fresh)
		w.rebuild = func(current []byte) ([]byte, error) {
			doc, err := jsonmerge.Parse(current)
			if err != nil {
				return nil, fmt.Errorf("%s changed while agyconf rendered, and no longer parses: %w", d.Path, err)
			}
			for _, op := range ops {
				if err := op(doc); err != nil {
					return nil, err
				}
			}
			return doc.Bytes(), nil
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

// mergeWrite is the write that carries a shared file's entry changes.
func mergeWrite(d *render.Document, l live, doc *jsonmerge.Doc, owner bool, data []byte) Change {
	c := Change{Path: d.Path, Action: Merge, data: doc.Bytes(), mode: l.mode, doc: d, live: l.data}
	if !l.exists {
		// A new file is exactly the rendered document.
		c.data, c.mode = data, d.Mode
	}
	if d.Mode == render.ModeSecret {
		// Credentials go only into files of mode 0600, whoever made them.
		c.mode = render.ModeSecret
	}
	if l.exists && (!owner || l.link != "") {
		c.backup = l.data
	}
	if l.outside {
		c.backup = []byte("symbolic link to " + l.link + "\n")
	}
	return c
}

func resolveTree(d *render.Document, read render.SecretReader) (any, error) {
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

func stateKeys(st *State, file string) []string {
	var out []string
	for k := range st.Files {
		if strings.HasPrefix(k, file+unitSep) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
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
