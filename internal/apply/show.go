package apply

import (
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/render"
)

// Drift returns the changes a render would make to the tree, for `render
// --check`: everything but paths already right. What changes only the
// state — a file found already right, one released as it is — is in
// sync.
func Drift(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Action == Unchanged || c.Action == Merge || ((c.Action == Found || c.Action == Release) && !c.Writes()) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// Writes reports whether any of changes would touch the disk.
func Writes(changes []Change) bool {
	for _, c := range changes {
		if c.Writes() {
			return true
		}
	}
	return false
}

// Refused reports whether a render of changes would be refused: a
// conflict stops the whole run before anything is written.
func Refused(changes []Change) bool {
	for _, c := range changes {
		if c.Action == Conflict {
			return true
		}
	}
	return false
}

// Writes reports whether the change would touch the disk.
func (c Change) Writes() bool { return c.data != nil || c.remove }

// Creates reports whether the change writes a file where there is none,
// and Removes whether it removes the file: a diff shows such a file as
// /dev/null on that side, as git does, so that patch creates or removes
// it rather than leaving it empty.
func (c Change) Creates() bool { return c.absent && c.data != nil }

// Removes: see Creates.
func (c Change) Removes() bool { return c.remove }

// Shown returns the content before and after the change as a person may
// see it, byte for byte what is on disk and what a render writes, except
// that every string holding a secret, live or planned, is replaced whole
// by the placeholder in place, so a diff shows that a secret changes but
// never what it is. A conflict shows what the config wants where the file
// has something else.
func (c Change) Shown() (before, after string) {
	ptrs, isJSON := c.pointers(), (c.doc != nil && c.doc.JSON != nil) || len(c.secrets) > 0
	before = redactIn(c.live, ptrs, isJSON)
	switch {
	case c.remove:
		after = ""
	case (c.Action == Conflict || c.Action == Keep) && c.wouldBe != nil:
		after = redactIn(c.wouldBe, ptrs, isJSON)
	case c.Action == Conflict || c.Action == Keep:
		after = before // agyconf leaves it as it is
	case c.data != nil:
		after = redactIn(c.data, ptrs, isJSON)
	default:
		after = before
	}
	return before, after
}

func (c Change) pointers() []string {
	ptrs := append([]string(nil), c.secrets...)
	if c.doc != nil {
		ptrs = append(ptrs, c.doc.SecretPointers()...)
	}
	return ptrs
}

// redactIn replaces the strings at ptrs of a JSON file by the placeholder,
// in place; other files, and JSON without secrets, are shown as they are.
func redactIn(data []byte, ptrs []string, isJSON bool) string {
	if len(data) == 0 || len(ptrs) == 0 || !isJSON {
		return string(data)
	}
	out, ok := jsonmerge.RedactStrings(data, ptrs, `"`+render.Placeholder+`"`, jsonmerge.JSONC)
	if !ok {
		// Unreadable JSON cannot be redacted; show nothing of it rather
		// than a secret.
		return "(not valid JSON: not shown)\n"
	}
	return string(out)
}

// Pointer is the JSON pointer of the entry a change is about in its
// shared file, "" for a whole file.
func (c Change) Pointer() string {
	if c.stateKey == "" {
		return ""
	}
	path, _, _ := parseUnitKey(c.stateKey)
	return pointer(path)
}

// Origin is how agyconf came to own the unit, as the state recorded it
// before the change ("" for what it did not own).
func (c Change) Origin() Origin { return c.origin }

// Name is the path, and the entry for a change inside a shared file:
// ".gemini/config/mcp_config.json mcpServers.github".
func (c Change) Name() string {
	if c.Unit == "" {
		return c.Path
	}
	return c.Path + " " + c.Unit
}

// Conflicts returns the conflicts, of whole files and of entries: a diff
// shows each as what is on disk against what the config wants.
func Conflicts(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Action == Conflict {
			out = append(out, c)
		}
	}
	return out
}

// Files returns the changes that write or remove a whole file, and the
// carriers of shared files' entries: what a diff shows.
func Files(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Unit == "" && (c.Writes() || c.Action == Conflict || c.Action == Keep || c.Action == Prune) {
			out = append(out, c)
		}
	}
	return out
}
