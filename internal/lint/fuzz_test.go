package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/render"
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

// FuzzMayName: when mayName lets newerKeys skip parsing a document's
// frontmatter, parsing it finds none of the keys newerKeys looks for.
func FuzzMayName(f *testing.F) {
	for _, s := range []string{
		"---\nname: x\ndescription: y\n---\nbody\n",
		"---\nicon: x\n---\n", "---\n\"\\x69con\": x\n---\n", "---\n'icon': x\n---\n",
		"---\n? |-\n  icon\n: x\n---\n", "---\na: &k icon\n*k : x\n---\n", "---\n\"ic\n  on\": x\n---\n",
		"---\nmetadata:\n  hidden: true\n---\n", "---\n{icon: x}\n---\n",
		// Every segment spelled with escapes only.
		"---\n\"\\x6detadata\":\n  \"\\x69con\": x\n---\n", "---\n\"\\x6dodel\": x\n---\n",
	} {
		f.Add([]byte(s))
	}
	// UTF-16 with a byte order mark, which the YAML reader decodes.
	utf16be := func(s string) []byte {
		out := []byte{0xfe, 0xff}
		for _, r := range s {
			out = append(out, 0, byte(r))
		}
		return out
	}
	f.Add(append(append([]byte("---\n"), utf16be("name: x\ndescription: d\ndisable-slash-command: true\n")...), []byte("\x00\n---\nbody\n")...))
	f.Add(append(append([]byte("---\n"), utf16be("model: m\n")...), []byte("\x00\n---\n")...))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range []kind{kindSkill, kindAgent} {
			if mayName(data, gatedKeys(k)) {
				continue
			}
			at := frontmatterKeys(data)
			var paths [][]string
			if k == kindSkill {
				for _, f := range agy.SkillFields() {
					paths = append(paths, f.Path)
				}
			} else {
				for _, f := range agy.AgentFields() {
					if f.Feature != "" {
						paths = append(paths, []string{f.Key})
					}
				}
			}
			for _, p := range paths {
				if _, _, ok := at(p...); ok {
					t.Fatalf("mayName says %q names none of the keys, but it holds %v", data, p)
				}
			}
		}
	})
}

// FuzzCheckValue: a JSON document checked as the value it holds gives the
// findings its text gives, positions aside, in any order: render checks
// what it writes as values and reads the text only when there are
// findings. The text is what render writes (members sorted, two-space
// indent), so nothing only text can hold is in it.
func FuzzCheckValue(f *testing.F) {
	for _, s := range []string{
		`{"h": {"Stop": [{"type": "command", "command": "x", "timeout": 5}]}, "g": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "p"}]}]}}`,
		`{"enabled": true}`, `{"mcpServers": {"a": {"command": 1}, "b": {"command": "./rel", "bogus": 2, "env": {"API_TOKEN": "sk-0123456789abcdef0123"}}}}`,
		`{"mcpServers": {"a": {"serverUrl": "https://x", "headers": {"Authorization": "Bearer x"}}, "b": {}}}`,
		`{"name": "p", "permissions": [], "x": 1}`, `{"name": "P Q", "version": "1"}`,
		`{"permissions": {"allow": ["command(time)", "command(regex:(?!x)", "unsandboxed", "mcp(a)", "mcp(p_a)"]}, "verbosity": "medium"}`,
		`{"userSettings": {"globalPermissionGrants": {"allow": ["mcp(x)"]}}, "u": 1}`, `[]`, `"x"`, `{"mcpServers": []}`,
	} {
		for _, schema := range []string{"hooks", "mcp_config", "plugin", "cli-settings", "acp-settings", "user-config"} {
			f.Add(schema, []byte(s))
		}
	}
	look := func(s string) (string, error) { return s, nil }
	f.Fuzz(func(t *testing.T, schemaName string, data []byte) {
		k, ok := kindOfSchema(schemaName)
		if !ok || !jsonKind(k) {
			t.Skip()
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&v) != nil || dec.More() {
			t.Skip()
		}
		text, err := render.EncodeJSON(v)
		if err != nil {
			t.Skip()
		}
		// The value as the text decodes: what render's Decoded gives.
		var value any
		dec = json.NewDecoder(bytes.NewReader(text))
		dec.UseNumber()
		if err := dec.Decode(&value); err != nil {
			t.Fatal(err)
		}
		for _, machine := range []bool{false, true} {
			o := DocumentOptions{Machine: machine, LookPath: look, Stat: func(string) (fs.FileInfo, error) { return nil, fs.ErrNotExist }}
			fromText, terr := NewDocumentChecker().Check("doc.json", schemaName, text, o)
			fromValue, verr := NewDocumentChecker().CheckValue("doc.json", schemaName, value, o)
			if (terr == nil) != (verr == nil) {
				t.Fatalf("text: %v; value: %v", terr, verr)
			}
			if got, want := unplaced(fromValue), unplaced(fromText); !slices.Equal(got, want) {
				t.Fatalf("%s %s machine=%v: the value's findings\n%s\nthe text's\n%s", schemaName, text, machine, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	})
}

// unplaced lists findings without their positions, sorted.
func unplaced(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		f.Line, f.Column = 0, 0
		out[i] = fmt.Sprintf("%+v", f)
	}
	slices.Sort(out)
	return out
}
