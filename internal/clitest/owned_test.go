package clitest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnedLintErrors: a bad entry agyconf's state owns is reported; the
// same mistake in an entry the user owns is not.
func TestOwnedLintErrors(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gemini/config/mcp_config.json", `{"mcpServers": {
  "mine": {"command": "/bin/srv", "args": [1]},
  "theirs": {"command": "/their/srv", "args": [2]}
}}`)
	write(".local/state/agyconf/t.json", `{"version": 1, "files": {".gemini/config/mcp_config.json#/mcpServers/mine": {"sha256": ""}}}`)
	bad, err := OwnedLintErrors(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || !strings.Contains(bad[0], "mcp/non-string") || !strings.Contains(bad[0], ":2:") {
		t.Fatalf("got %q, want the one owned entry", bad)
	}
}
