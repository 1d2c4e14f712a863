package engine

import (
	"testing"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// TestManaged: which parts of a merged shared file are agyconf's — the
// entries the document writes under its parent, the keys agy rewrites
// that it writes when absent, the items it owns in a list (by value, at
// whatever index the merge left them) — and which are someone else's.
func TestManaged(t *testing.T) {
	servers := &render.Document{
		JSON:  map[string]any{"mcpServers": map[string]any{"docs": map[string]any{"command": "docs-mcp"}}},
		Merge: &render.Merge{Parent: []string{"mcpServers"}},
	}
	settings := &render.Document{
		JSON: map[string]any{
			"toolPermission": "ask",
			"model":          "m",
			"permissions":    map[string]any{"allow": []any{"command(git status)", model.Str{{Text: "read_file(/x)"}}}},
		},
		Merge: &render.Merge{Items: [][]string{{"permissions", "allow"}}, Defaults: []string{"model"}},
	}
	merged := map[string]any{"permissions": map[string]any{"allow": []any{"command(", "read_file(/x)", "command(git status)"}}}
	for _, c := range []struct {
		doc  *render.Document
		ptr  string
		want bool
	}{
		{servers, "/mcpServers/docs/command", true},
		{servers, "/mcpServers/docs", true},
		{servers, "/mcpServers/theirs/command", false},
		{servers, "/mcpServers", false},
		{servers, "", false},
		{settings, "/toolPermission", true},
		{settings, "/model", true},
		{settings, "/theirs", false},
		{settings, "/permissions/allow/0", false},
		{settings, "/permissions/allow/1", true},
		{settings, "/permissions/allow/2", true},
		{settings, "/permissions/allow/9", false},
		{settings, "/permissions/deny/0", false},
		{settings, "/permissions", false},
	} {
		if got := managed(c.doc, c.ptr, func() any { return merged }); got != c.want {
			t.Errorf("managed(%q) = %v, want %v", c.ptr, got, c.want)
		}
	}
}

// TestPosAt: a line and a column in characters give the byte offset the
// snippet highlights, multi-byte characters included.
func TestPosAt(t *testing.T) {
	text := []byte("{\n  \"é\": \"10\"\n}\n")
	p := posAt(text, 2, 9)
	if p.Byte != 11 || text[p.Byte] != '1' || p.Line != 2 || p.Column != 9 {
		t.Errorf("posAt = %+v (%q)", p, text[p.Byte:])
	}
	if p := posAt(text, 9, 1); p.Byte != len(text) {
		t.Errorf("past the end: %+v", p)
	}
}
