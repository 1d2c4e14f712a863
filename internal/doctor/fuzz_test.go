package doctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"
)

// seedRecorded adds every recorded answer to a fuzz target's corpus.
func seedRecorded(f *testing.F, add func(data []byte)) {
	entries, err := os.ReadDir(filepath.Join("testdata", "answers"))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join("testdata", "answers", e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		add(data)
	}
}

// FuzzParseVersion: any bytes are read or refused without a panic, and a
// version read prints as text that reads back the same.
func FuzzParseVersion(f *testing.F) {
	seedRecorded(f, func(b []byte) { f.Add(b) })
	f.Add([]byte("agy 1.2.3 (x)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseVersion(data)
		if err != nil {
			return
		}
		again, err := ParseVersion([]byte(v.String()))
		if err != nil || again != v {
			t.Fatalf("ParseVersion(%q) = %v, which reads back as %v, %v", data, v, again, err)
		}
	})
}

// FuzzParseAnswers: any bytes given to the readers of print-mode answers
// are read or refused without a panic; what ParseHooks reads, written back
// in the recorded shape, reads back the same.
func FuzzParseAnswers(f *testing.F) {
	seedRecorded(f, func(b []byte) { f.Add(b) })
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseSkills(data)
		_, _ = ParsePermissions(data)
		hooks, err := ParseHooks(data)
		if err != nil {
			return
		}
		list := []map[string]any{}
		for _, h := range hooks {
			m := map[string]any{"name": h.Name, "enabled": h.Enabled, "source": h.Source}
			if h.HasActions {
				actions := []map[string]any{}
				for _, ev := range h.Events {
					actions = append(actions, map[string]any{"event": ev})
				}
				m["actions"] = actions
			}
			list = append(list, m)
		}
		out, err := json.Marshal(map[string]any{"num_turns": 0, "command": map[string]any{"name": "hooks", "data": map[string]any{"hooks": list}}})
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseHooks(out)
		if err != nil || !reflect.DeepEqual(again, hooks) {
			t.Fatalf("ParseHooks(%q) = %+v; written back and read: %+v, %v", data, hooks, again, err)
		}
	})
}

// FuzzParseMCPList: any bytes are read or refused without a panic; a
// table laid out as agy prints one (text/tabwriter, two spaces between
// columns) reads back as the rows it was made of.
func FuzzParseMCPList(f *testing.F) {
	seedRecorded(f, func(b []byte) { f.Add(b, "", "", false, "") })
	f.Add([]byte(nil), "github", "stdio", true, "npx -y server")
	f.Add([]byte(nil), "my server", "http", false, "https://x/mcp")
	f.Add([]byte(nil), "ünïcode", "stdio", true, "")
	f.Fuzz(func(t *testing.T, data []byte, name, typ string, enabled bool, target string) {
		_, _ = ParseMCPList(data)
		if !cell(name) || typ == "" || strings.ContainsFunc(typ, unicode.IsSpace) || !cell(typ) || (target != "" && !cell(target)) {
			return
		}
		status := "disabled"
		if enabled {
			status = "enabled"
		}
		rows := []ListedServer{{Name: name, Type: typ, Status: status, Target: target}, {Name: "other", Type: "stdio", Status: "enabled", Target: "/bin/other"}}
		var b bytes.Buffer
		w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "NAME\tTYPE\tSTATUS\tCOMMAND/URL")
		for _, r := range rows {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", r.Name, r.Type, r.Status, r.Target)
		}
		w.Flush()
		got, err := ParseMCPList(b.Bytes())
		if err != nil || !reflect.DeepEqual(got, rows) {
			t.Fatalf("table\n%s\nread as %+v, %v", b.String(), got, err)
		}
	})
}

// cell says whether s can be a cell of the table as agy prints it: text
// on one line, no tab, no surrounding space.
func cell(s string) bool {
	return s != "" && utf8.ValidString(s) && strings.TrimSpace(s) == s &&
		!strings.ContainsFunc(s, func(r rune) bool {
			return unicode.IsControl(r) || r == utf8.RuneError || !unicode.IsPrint(r) && r != ' '
		})
}

// FuzzParseLog: any log is read without a panic, every failure it reads
// names its file or plugin, and a count line says the numbers it holds.
func FuzzParseLog(f *testing.F) {
	seedRecorded(f, func(b []byte) { f.Add(b) })
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range ParseLog(data) {
			if b.Loaded != "" && !strings.Contains(b.Loaded, fmt.Sprintf("loaded %d named hook", b.Hooks)) {
				t.Fatalf("count %q read as %d hooks", b.Loaded, b.Hooks)
			}
			for _, ff := range b.FileFailures {
				if ff.Path == "" {
					t.Fatalf("a file failure without its file in %q", data)
				}
			}
			for _, pf := range b.PluginFailures {
				if pf.Plugin == "" {
					t.Fatalf("a plugin failure without its plugin in %q", data)
				}
			}
		}
	})
}
