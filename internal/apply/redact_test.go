package apply

import (
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// TestBackupRedaction: a backup keeps a file as it was except for
// agyconf's secrets — found where the state says agyconf put them, and by
// value, raw or JSON-escaped — while everything else stays, a credential
// where the plan puts a secret the state does not know included (it may
// be the user's own, to give back).
func TestBackupRedaction(t *testing.T) {
	doc := &render.Document{Path: "mcp_config.json", JSON: map[string]any{"mcpServers": map[string]any{
		"a": map[string]any{"env": map[string]any{"TOKEN": model.Str{{SecretFile: "/s/token"}}}},
	}}}
	live := `{
  "mcpServers": {
    "theirs": {"env": {"KEY": "their-own-key"}},
    "a": {"env": {"TOKEN": "rotated-away", "OLD": "old-value"}},
    "b": {"headers": {"H": "Bearer x<y>&\"z\""}}
  }
}
`
	c := Change{doc: doc, secrets: []string{"/mcpServers/a/env/OLD", "/mcpServers/gone/env/X"}}
	got := string(RedactValues(redactPointers([]byte(live), c), []string{`x<y>&"z"`, "ab"}))
	for _, leak := range []string{"old-value", `x<y>&\"z\"`} {
		if strings.Contains(got, leak) {
			t.Errorf("backup still holds %q:\n%s", leak, got)
		}
	}
	for _, kept := range []string{`"KEY": "their-own-key"`, `"TOKEN": "rotated-away"`, `"OLD": "<secret>"`, `"Bearer <secret>"`} {
		if !strings.Contains(got, kept) {
			t.Errorf("backup lost %q:\n%s", kept, got)
		}
	}
	if vals := secretValues(nil, nil); len(vals) != 0 {
		t.Errorf("secretValues without a reader: %v", vals)
	}
}
