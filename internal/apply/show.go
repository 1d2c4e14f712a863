package apply

import (
	"bytes"
	"encoding/json"
	"strings"

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

// Shown returns the content before and after the change as a person may
// see it: every string that holds a secret, live or planned, replaced whole
// by the placeholder, so a diff shows that a secret changes but never what
// it is.
func (c Change) Shown() (before, after string) {
	before = redactLive(c.Path, c.live, c.pointers())
	switch {
	case c.remove:
		after = ""
	case c.Action == Conflict || c.Action == Keep:
		after = before // agyconf leaves it as it is
	case c.Action == Merge:
		after = redactLive(c.Path, c.data, c.pointers())
	case c.doc != nil && c.doc.JSON != nil:
		b, err := render.EncodeJSON(c.doc.Redacted())
		if err != nil {
			after = err.Error()
		} else {
			after = string(b)
		}
	default:
		after = string(c.data)
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

// redactLive replaces the strings at ptrs of a live JSON file by the
// placeholder; other files, and JSON without secrets, are shown as they are.
func redactLive(p string, data []byte, ptrs []string) string {
	if len(data) == 0 || len(ptrs) == 0 || !strings.HasSuffix(p, ".json") {
		return string(data)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		// Unreadable JSON cannot be redacted; show nothing of it rather
		// than a secret.
		return "(not valid JSON: not shown)\n"
	}
	for _, ptr := range ptrs {
		setPointer(v, ptr, render.Placeholder)
	}
	b, err := render.EncodeJSON(v)
	if err != nil {
		return "(cannot be shown: " + err.Error() + ")\n"
	}
	return string(b)
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

// Name is the path, and the entry for a change inside a shared file:
// ".gemini/config/mcp_config.json mcpServers.github".
func (c Change) Name() string {
	if c.Unit == "" {
		return c.Path
	}
	return c.Path + " " + c.Unit
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
