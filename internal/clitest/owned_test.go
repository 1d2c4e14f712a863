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

// TestOwnedLintErrorsItems: agyconf owns items of a permission list, not
// the list: a broken item of the user's beside them is not agyconf's, a
// broken item the state records is.
func TestOwnedLintErrorsItems(t *testing.T) {
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
	write(".gemini/antigravity-cli/settings.json", `{"permissions": {"allow": ["command(", "command(git status)", "read_file("]}}`+"\n")
	write(".local/state/agyconf/t.json", `{"version": 4, "files": {
  ".gemini/antigravity-cli/settings.json#/permissions/allow[]command(git status)": {"sha256": "", "item": true},
  ".gemini/antigravity-cli/settings.json#/permissions/allow[]read_file(": {"sha256": "", "item": true}
}}`)
	bad, err := OwnedLintErrors(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 1 || !strings.Contains(bad[0], "read_file(") {
		t.Fatalf("got %q, want only the owned broken item read_file(", bad)
	}
}
