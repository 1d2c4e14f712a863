package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLintFile: any content of any file Antigravity reads gives findings
// that point inside the file, never a panic.
func FuzzLintFile(f *testing.F) {
	for _, s := range []string{
		`{"h": {"Stop": [{"type": "command", "command": "x", "timeout": 5}]}}`,
		`{"enabled": true}`, `{"mcpServers": {"a": {"command": 1}}}`, "\xef\xbb\xbf{}", `{"a": 1, "a": 2}`,
		"---\nname: x\ndescription: y\n---\nbody\n", `{"name": "p", "permissions": []}`,
		`{"permissions": {"allow": ["command(time)", "command(regex:(?!x)", "unsandboxed", "command(^a$)"]}, "verbosity": "medium"}`,
	} {
		for _, name := range []string{"hooks.json", "mcp_config.json", "plugin.json", "settings.json", "SKILL.md", ".antigravityignore"} {
			f.Add(name, []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		switch name {
		case "hooks.json", "mcp_config.json", "plugin.json", "settings.json", "SKILL.md", ".antigravityignore":
		default:
			t.Skip()
		}
		dir := t.TempDir()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		findings, err := Paths([]string{p}, Options{LookPath: func(s string) (string, error) { return s, nil }})
		if err != nil {
			return
		}
		lines := 1
		for _, b := range data {
			if b == '\n' {
				lines++
			}
		}
		for _, fd := range findings {
			if fd.Line < 0 || fd.Line > lines || (fd.Line > 0 && fd.Column < 1) || fd.Rule == "" {
				t.Fatalf("finding outside the file (%d lines) or without a rule: %+v", lines, fd)
			}
		}
	})
}
