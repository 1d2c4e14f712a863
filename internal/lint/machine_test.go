package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/render"
)

// TestAbsoluteCommands: on this machine, an absolute (or ~/) hook or MCP
// command that does not exist, is a folder or is not executable is a
// warning; one that runs is not. Render's own check (Document without
// Machine) looks nothing up.
func TestAbsoluteCommands(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	bin := filepath.Join(home, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"run": 0o755, "plain": 0o644} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	hooks := `{"h": {"Stop": [` +
		`{"command": "` + bin + `/run --x"}, {"command": "` + bin + `/plain"}, {"command": "` + bin + `"},` +
		`{"command": "/ABSOLUTE/PATH/TO/hook.sh"}, {"command": "~/bin/run"}, {"command": "~/bin/gone"}]}}`
	mcp := `{"mcpServers": {"ok": {"command": "` + bin + `/run"}, "bad": {"command": "` + bin + `/plain"}}}`
	dir := filepath.Join(t.TempDir(), ".agents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"hooks.json": hooks, "mcp_config.json": mcp} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fs, err := lint.Paths([]string{dir}, lint.Options{LookPath: func(n string) (string, error) { return "/usr/bin/" + n, nil }})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range fs {
		if strings.HasSuffix(f.Rule, "/command-not-found") {
			got[f.Pointer] = f.Message
		}
	}
	for ptr, want := range map[string]string{
		"/h/Stop/1/command":       "is not executable (mode 0644)",
		"/h/Stop/2/command":       "is a folder",
		"/h/Stop/3/command":       "does not exist",
		"/h/Stop/5/command":       "agy expands ~ to " + home,
		"/mcpServers/bad/command": "is not executable",
	} {
		if !strings.Contains(got[ptr], want) {
			t.Errorf("%s: %q, want %q", ptr, got[ptr], want)
		}
	}
	if len(got) != 5 {
		t.Errorf("want 5 findings, got %v", got)
	}
	// Render checks its documents from their bytes alone.
	doc, err := lint.Document(".agents/hooks.json", render.SchemaOf("hooks"), []byte(hooks), lint.DocumentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range doc {
		if f.Rule == "hooks/command-not-found" {
			t.Errorf("render's check looked the machine up: %+v", f)
		}
	}
}
