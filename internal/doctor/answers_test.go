package doctor

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
)

func recorded(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "answers", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRecordedAnswers reads every recorded answer (testdata/answers,
// SOURCES.md says where each comes from) as doctor does, and checks what
// it makes of it. Every file there must be named here.
func TestRecordedAnswers(t *testing.T) {
	read := map[string]func(t *testing.T, data []byte){
		"version-1.1.26.txt": func(t *testing.T, data []byte) {
			if v, err := ParseVersion(data); err != nil || v != agy.V(1, 1, 26) {
				t.Errorf("ParseVersion = %v, %v", v, err)
			}
		},
		"hooks-1.1.22-entire.json": func(t *testing.T, data []byte) {
			hooks, err := ParseHooks(data)
			want := []HookEntry{{Name: "entire", Enabled: true, Source: "/home/user/repo/.agents/hooks.json", Events: []string{"PreToolUse"}, HasActions: true}}
			if err != nil || !reflect.DeepEqual(hooks, want) {
				t.Errorf("ParseHooks = %+v, %v", hooks, err)
			}
		},
		"hooks-1.1.27-probe.json": func(t *testing.T, data []byte) {
			hooks, err := ParseHooks(data)
			want := []HookEntry{{Name: "hooks", Enabled: true, Source: "/scratch/probe-f13/.agents/hooks.json"}}
			if err != nil || !reflect.DeepEqual(hooks, want) {
				t.Errorf("ParseHooks = %+v, %v", hooks, err)
			}
		},
		"hooks-1.1.27-empty.json": func(t *testing.T, data []byte) {
			if hooks, err := ParseHooks(data); err != nil || len(hooks) != 0 {
				t.Errorf("ParseHooks = %+v, %v", hooks, err)
			}
		},
		"mcp-list-1.3.0-koinon.txt": func(t *testing.T, data []byte) {
			got, err := ParseMCPList(data)
			want := []ListedServer{
				{Name: "koinon", Type: "stdio", Status: "enabled", Target: "/opt/synthetic/koinon mcp"},
				{Name: "other", Type: "stdio", Status: "enabled", Target: "/opt/synthetic/koinon status"},
			}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ParseMCPList = %+v, %v", got, err)
			}
		},
		"mcp-list-disabled-koinon-test.txt": func(t *testing.T, data []byte) {
			got, err := ParseMCPList(data)
			want := []ListedServer{{Name: "koinon", Type: "stdio", Status: "disabled", Target: "/opt/koinon/bin/koinon mcp"}}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ParseMCPList = %+v, %v", got, err)
			}
		},
		"mcp-list-empty-1.1.26.txt": func(t *testing.T, data []byte) {
			if got, err := ParseMCPList(data); err != nil || got == nil || len(got) != 0 {
				t.Errorf("ParseMCPList = %#v, %v", got, err)
			}
		},
		"skills-3p.json": func(t *testing.T, data []byte) {
			got, err := ParseSkills(data)
			if err != nil || !reflect.DeepEqual(got, []SkillEntry{{Name: "x", Path: "/p/x", Builtin: true}}) {
				t.Errorf("ParseSkills = %+v, %v", got, err)
			}
		},
		"permissions-linux-2026-08-18.json": func(t *testing.T, data []byte) {
			got, err := ParsePermissions(data)
			if err != nil || !reflect.DeepEqual(got, []PermissionScope{{Scope: "project"}, {Scope: "shared"}, {Scope: "global"}}) {
				t.Errorf("ParsePermissions = %+v, %v", got, err)
			}
		},
		"permissions-1.1.27-probe.json": func(t *testing.T, data []byte) {
			got, err := ParsePermissions(data)
			want := []PermissionScope{{Scope: "project"}, {Scope: "shared"}, {Scope: "global", Allow: []string{"command(sw_vers)", "command(echo)", "command(ls)"}}}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("ParsePermissions = %+v, %v", got, err)
			}
		},
		"permissions-1.1.26-redacted.json": func(t *testing.T, data []byte) {
			var ue *UnreadableError
			if _, err := ParsePermissions(data); !errors.As(err, &ue) || !strings.Contains(err.Error(), "no list of scopes") {
				t.Errorf("ParsePermissions of a redacted answer: %v, want unreadable", err)
			}
		},
		"model-turn-1.1.26.json": func(t *testing.T, data []byte) {
			for _, parse := range []func([]byte) error{
				func(b []byte) error { _, err := ParseHooks(b); return err },
				func(b []byte) error { _, err := ParseSkills(b); return err },
				func(b []byte) error { _, err := ParsePermissions(b); return err },
			} {
				var mt *ModelTurnError
				if err := parse(data); !errors.As(err, &mt) || mt.Turns != "1" {
					t.Errorf("a model's answer read as %v, want a model turn", err)
				}
			}
		},
		"model-1.1.26.json": func(t *testing.T, data []byte) {
			var ue *UnreadableError
			if _, err := ParseHooks(data); !errors.As(err, &ue) || !strings.Contains(err.Error(), `names "model", not "hooks"`) {
				t.Errorf("ParseHooks of /model's answer: %v", err)
			}
		},
		"interrupted-1.1.26.json": func(t *testing.T, data []byte) {
			var mt *ModelTurnError
			if _, err := ParseHooks(data); !errors.As(err, &mt) {
				t.Errorf("ParseHooks of an interrupted turn: %v, want a model turn", err)
			}
		},
		"cli-log-1.1.27-claude-remember.txt": func(t *testing.T, data []byte) {
			want := []LoadBlock{{
				Loaded: "loaded 0 named hooks from 1 hooks.json file(s)", Hooks: 0, Files: 1,
				FileFailures: []FileFailure{{Path: "~/.gemini/config/hooks.json", Message: "json: cannot unmarshal array into Go struct field .SessionStart of type jsonhook.JSONHookSpec"}},
			}}
			if got := ParseLog(data); !reflect.DeepEqual(got, want) {
				t.Errorf("ParseLog = %+v", got)
			}
		},
		"cli-log-1.1.24-superpowers.txt": func(t *testing.T, data []byte) {
			want := []LoadBlock{{PluginFailures: []PluginFailure{{Plugin: "superpowers", Message: `invalid hook "hooks": command hook must specify 'command'`}}}}
			if got := ParseLog(data); !reflect.DeepEqual(got, want) {
				t.Errorf("ParseLog = %+v", got)
			}
		},
		"cli-log-1.1.27-probe.txt": func(t *testing.T, data []byte) {
			want := []LoadBlock{{Loaded: "loaded 1 named hooks from 1 hooks.json file(s)", Hooks: 1, Files: 1}}
			if got := ParseLog(data); !reflect.DeepEqual(got, want) {
				t.Errorf("ParseLog = %+v", got)
			}
		},
	}
	entries, err := os.ReadDir(filepath.Join("testdata", "answers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "SOURCES.md" {
			continue
		}
		check, ok := read[e.Name()]
		if !ok {
			t.Errorf("testdata/answers/%s: no test reads it", e.Name())
			continue
		}
		delete(read, e.Name())
		t.Run(e.Name(), func(t *testing.T) { check(t, recorded(t, e.Name())) })
		sources, _ := os.ReadFile(filepath.Join("testdata", "answers", "SOURCES.md"))
		if !strings.Contains(string(sources), "`"+e.Name()+"`") {
			t.Errorf("testdata/answers/%s has no row in SOURCES.md", e.Name())
		}
	}
	for name := range read {
		t.Errorf("testdata/answers/%s is missing", name)
	}
}

// TestParseVersionForms: a version is read only where one token holds
// it.
func TestParseVersionForms(t *testing.T) {
	for in, want := range map[string]agy.Version{
		"1.3.3\n":                     agy.V(1, 3, 3),
		"v1.1.12":                     agy.V(1, 1, 12),
		"agy 1.2.10 (abc123)\n":       agy.V(1, 2, 10),
		"\n  1.3.1-beta.2\n":          agy.V(1, 3, 1),
		"agy version 1.3.3+build.7\n": agy.V(1, 3, 3),
	} {
		if got, err := ParseVersion([]byte(in)); err != nil || got != want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "\n\n", "dev", "1.2", "1.2.3 1.2.4", "01.2.3", "agy\n1.2.3", "\xff1.2.3"} {
		if v, err := ParseVersion([]byte(in)); err == nil {
			t.Errorf("ParseVersion(%q) = %v, want an error", in, v)
		}
	}
}

// TestCommandEnvelope: what makes an answer to a slash command readable,
// a model turn, a failure, or unreadable.
func TestCommandEnvelope(t *testing.T) {
	cases := []struct {
		in   string
		want string // "ok", "turn", "status", "unreadable"
	}{
		{`{"command":{"name":"hooks","data":{"hooks":[]}}}`, "ok"},
		{`{"num_turns":0,"conversation_id":"","usage":{"input_tokens":0},"command":{"name":"hooks","data":{"hooks":[]}}}` + "\n\n", "ok"},
		{`{"num_turns":2,"command":{"name":"hooks","data":{"hooks":[]}}}`, "turn"},
		{`{"conversation_id":"abc","command":{"name":"hooks","data":{"hooks":[]}}}`, "turn"},
		{`{"usage":{"output_tokens":5},"command":{"name":"hooks","data":{"hooks":[]}}}`, "turn"},
		{`{"status":"SUCCESS","response":"Here are your hooks"}`, "turn"},
		{`{"status":"ERROR","error":"boom","command":{"name":"hooks","data":{"hooks":[]}}}`, "status"},
		{`{"status":"SUCCESS"}`, "unreadable"},
		{`{"command":{"name":"hooks"}}`, "unreadable"},
		{`{"command":{"name":"hooks","data":null}}`, "unreadable"},
		{`{"command":{"data":{"hooks":[]}}}`, "unreadable"},
		{`{"command":{"name":"hooks","data":{"hooks":{}}}}`, "unreadable"},
		{`{"command":{"name":"hooks","data":{"hooks":[{"name":"a","enabled":"yes","source":"/x"}]}}}`, "unreadable"},
		{`{"command":{"name":"hooks","data":{"hooks":[{"name":"a","enabled":true}]}}}`, "unreadable"},
		{`{"command":{"name":"hooks","data":{"hooks":[{"name":"a","enabled":true,"source":"/x","actions":[{}]}]}}}`, "unreadable"},
		{`{"command":{"name":"hooks","data":{"hooks":[]}}}{}`, "unreadable"},
		{"hooks\tenabled\n", "unreadable"},
		{"", "unreadable"},
		{`[]`, "unreadable"},
	}
	for _, c := range cases {
		_, err := ParseHooks([]byte(c.in))
		var mt *ModelTurnError
		var se *StatusError
		var ue *UnreadableError
		got := "ok"
		switch {
		case errors.As(err, &mt):
			got = "turn"
		case errors.As(err, &se):
			got = "status"
		case errors.As(err, &ue):
			got = "unreadable"
		case err != nil:
			got = "other: " + err.Error()
		}
		if got != c.want {
			t.Errorf("ParseHooks(%s) = %s (%v), want %s", c.in, got, err, c.want)
		}
	}
}

// TestParseMCPListForms: aligned rows are cut at the header's columns
// (names may then hold spaces), escape sequences and CRs are ignored, and
// anything else is unreadable.
func TestParseMCPListForms(t *testing.T) {
	table := "\x1b[1mNAME        TYPE   STATUS    COMMAND/URL\x1b[0m\r\n" +
		"my server   stdio  disabled  /bin/srv --flag\r\n" +
		"remote      http   enabled   https://example.com/mcp\r\n" +
		"bare        stdio  enabled\r\n"
	got, err := ParseMCPList([]byte(table))
	want := []ListedServer{
		{Name: "my server", Type: "stdio", Status: "disabled", Target: "/bin/srv --flag"},
		{Name: "remote", Type: "http", Status: "enabled", Target: "https://example.com/mcp"},
		{Name: "bare", Type: "stdio", Status: "enabled"},
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseMCPList = %+v, %v", got, err)
	}
	// A row wider than its columns is read by its whitespace when that is
	// unambiguous.
	got, err = ParseMCPList([]byte("NAME    TYPE   STATUS   COMMAND/URL\nverylongname stdio disabled /bin/x --y\n"))
	if want := []ListedServer{{Name: "verylongname", Type: "stdio", Status: "disabled", Target: "/bin/x --y"}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("a misaligned row: %+v, %v", got, err)
	}
	for _, bad := range []string{
		"",
		"NAME TYPE STATUS\nx stdio enabled\n",
		"NAME    TYPE   STATUS   COMMAND/URL\nx  stdio  running  /bin/x\n",
		"NAME    TYPE   STATUS   COMMAND/URL\n2 server(s)\n",
		"Loading servers...\nNAME    TYPE   STATUS   COMMAND/URL\n",
		"no servers here\n",
	} {
		if got, err := ParseMCPList([]byte(bad)); err == nil {
			t.Errorf("ParseMCPList(%q) = %+v, want unreadable", bad, got)
		}
	}
}

// TestParseLogForms: the glog layout, blocks ending at each count, a
// failure whose message is on its own line, and lines about other things.
func TestParseLogForms(t *testing.T) {
	log := "I1201 09:00:00.000001   4242 main.go:10] starting\n" +
		"W1201 09:00:00.100000   4242 hooks_manager.go:33] failed to parse hooks.json at /h/.gemini/config/hooks.json: invalid character '}'\n" +
		"I1201 09:00:00.200000   4242 hooks_manager.go:53] loaded 2 named hooks from 3 hooks.json file(s)\n" +
		"W1201 09:05:00.000000   4343 hooks.go:73] Failed to parse hooks for plugin p1:\n" +
		"  invalid hook \"x\": command hook must specify 'command'\n" +
		"W1201 09:05:00.000001   4343 hooks.go:73] Failed to parse hooks for plugin p2:\n" +
		"I1201 09:05:00.000002   4343 hooks_manager.go:53] loaded 1 named hook from 1 hooks.json file(s)\n" +
		"W1201 09:06:00.000000   4444 hooks_manager.go:33] failed to parse hooks.json at C:\\Users\\me\\.gemini\\config\\hooks.json: bad\n"
	want := []LoadBlock{
		{Loaded: "loaded 2 named hooks from 3 hooks.json file(s)", Hooks: 2, Files: 3,
			FileFailures: []FileFailure{{Path: "/h/.gemini/config/hooks.json", Message: "invalid character '}'"}}},
		{Loaded: "loaded 1 named hook from 1 hooks.json file(s)", Hooks: 1, Files: 1,
			PluginFailures: []PluginFailure{{Plugin: "p1", Message: `invalid hook "x": command hook must specify 'command'`}, {Plugin: "p2"}}},
		{FileFailures: []FileFailure{{Path: `C:\Users\me\.gemini\config\hooks.json`, Message: "bad"}}},
	}
	if got := ParseLog([]byte(log)); !reflect.DeepEqual(got, want) {
		t.Errorf("ParseLog =\n%+v\nwant\n%+v", got, want)
	}
	if got := ParseLog(nil); len(got) != 0 {
		t.Errorf("ParseLog(nil) = %+v", got)
	}
}
