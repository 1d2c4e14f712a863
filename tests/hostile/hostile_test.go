// Package hostile_test runs agyconf on hostile input: names and paths that
// try to leave their folder or disguise themselves, links that lead out of
// the render root, and files big or deep enough to hang or exhaust a
// careless reader. Every case must be refused with a located message — the
// config's file:line:column, or the offending path — and leave every byte,
// mode and link of the render root, the config folder and the folder
// outside exactly as they were.
package hostile_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/cli"
	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/lint"
)

// scene is one case's folders: the render root (a home or a project), the
// config folder, and a folder outside both that nothing may touch.
type scene struct {
	root, cfg, outside string
}

func (s scene) write(t *testing.T, path, data string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func (s scene) link(t *testing.T, path, target string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

type hostileCase struct {
	name  string
	files map[string]string // the config folder; keys relative to it
	setup func(t *testing.T, s scene)
	args  []string // besides render --config CFG --root ROOT
	code  int      // exit code
	want  string   // in the message
	// For a refusal in the config: the file it points at and the text its
	// range covers there. For a refusal on disk: the path it names.
	file, token string
	path        string
}

const global = "agyconf {\n  scope = \"global\"\n}\n"
const workspace = "agyconf {\n  scope = \"workspace\"\n}\n"

func hcl(body string) map[string]string { return map[string]string{"agyconf.hcl": body} }
func jsonCfg(body string) map[string]string {
	return map[string]string{"agyconf.json": body}
}

// skillSource is a config whose one skill copies the folder skills/s.
func skillSource() map[string]string {
	return map[string]string{
		"agyconf.hcl":       global + "skill \"s\" {\n  source = \"skills/s\"\n}\n",
		"skills/s/SKILL.md": "---\nname: s\ndescription: A skill\n---\nDo it.\n",
	}
}

func hugeMatcher() string { return strings.Repeat("a{1000}", 11) }

// hostileState is a state whose backup names a json_escape (an integer
// from 1 to 16) that no bound can judge.
const hostileState = `{"version": 4, "instance": "hostile", "files": {}, "backups": [{"id": "cccccccccccccccccccccccccccccccc", "path": "x", "reason": "found", "secrets": [{"pointer": "", "parts": [{"json_escape": 1e99999999}]}]}]}` + "\n"

var hookConfig = hcl(global + "hook \"audit\" {\n  pre_tool_use {\n    matcher = \"run_command\"\n    command = \"/bin/true\"\n  }\n}\n")
var mcpConfig = hcl(global + "mcp_server \"github\" {\n  command = \"github-mcp-server\"\n}\n")

func cases() []hostileCase {
	var cs []hostileCase
	// Names with separators and climbs, in every kind of name.
	for _, n := range []struct{ kind, name, body string }{
		{"mcp_server", "../x", `command = "x"`},
		{"mcp_server", "/etc", `command = "x"`},
		{"mcp_server", `a\\b`, `command = "x"`},
		{"hook", "../../x", "stop {\n    command = \"/bin/true\"\n  }"},
		{"hook", `..\\x`, "stop {\n    command = \"/bin/true\"\n  }"},
		{"skill", "../x", "description = \"d\"\n  body = \"b\""},
		{"skill", "a/b", "description = \"d\"\n  body = \"b\""},
		{"agent", "../x", "description = \"d\"\n  body = \"b\""},
		{"agent", "/tmp/x", "description = \"d\"\n  body = \"b\""},
		{"workflow", "../x", "description = \"d\"\n  body = \"b\""},
		{"plugin", "../x", "description = \"d\""},
		{"plugin", `a\\b`, "description = \"d\""},
	} {
		cs = append(cs, hostileCase{
			name:  fmt.Sprintf("%s %s", n.kind, n.name),
			files: hcl(fmt.Sprintf("%s%s \"%s\" {\n  %s\n}\n", global, n.kind, n.name, n.body)),
			code:  2, want: "slash", file: "agyconf.hcl", token: `"` + n.name + `"`,
		})
	}
	for _, n := range []string{"../x", `a\\b`} {
		cs = append(cs, hostileCase{
			name:  "rule " + n,
			files: hcl(fmt.Sprintf("%srule \"%s\" {\n  body = \"b\"\n}\n", workspace, n)),
			code:  2, want: "slash", file: "agyconf.hcl", token: `"` + n + `"`,
		})
	}
	// Plugin components: each name is a path below the plugin's folder.
	for _, n := range []struct{ kind, name, body string }{
		{"mcp_server", "../x", `command = "x"`},
		{"hook", "/x", "stop {\n      command = \"/bin/true\"\n    }"},
		{"skill", "../../x", "description = \"d\"\n    body = \"b\""},
		{"rule", `..\\x`, `body = "b"`},
		{"agent", "../x", "description = \"d\"\n    body = \"b\""},
	} {
		cs = append(cs, hostileCase{
			name:  fmt.Sprintf("plugin component %s %s", n.kind, n.name),
			files: hcl(fmt.Sprintf("%splugin \"p\" {\n  %s \"%s\" {\n    %s\n  }\n}\n", global, n.kind, n.name, n.body)),
			code:  2, want: "slash", file: "agyconf.hcl", token: `"` + n.name + `"`,
		})
	}
	// Characters that hide, end or disguise a name: the JSON form can
	// spell every one of them.
	for _, n := range []struct{ kind, name, body, want string }{
		{"mcp_server", `a\u0000b`, `{"command": "x"}`, "control character U+0000"},
		{"skill", `a\nb`, `{"description": "d", "body": "b"}`, "control character U+000A"},
		{"agent", `a\u001b[31mb`, `{"description": "d", "body": "b"}`, "control character U+001B"},
		{"hook", `a\u0085b`, `{"stop": {"command": "/bin/true"}}`, "control character U+0085"},
		{"agent", `..\u2215..\u2215etc`, `{"description": "d", "body": "b"}`, "DIVISION SLASH"},
		{"plugin", `a\uff0fb`, `{"description": "d"}`, "FULLWIDTH SOLIDUS"},
		{"workflow", `x\u202egnp.exe`, `{"description": "d", "body": "b"}`, "invisible formatting character"},
		{"mcp_server", `git\u200dhub`, `{"command": "x"}`, "invisible formatting character"},
		{"skill", `a\u2025b`, `{"description": "d", "body": "b"}`, "TWO DOT LEADER"},
	} {
		cs = append(cs, hostileCase{
			name:  fmt.Sprintf("json %s %s", n.kind, n.name),
			files: jsonCfg(fmt.Sprintf(`{"agyconf": {"scope": "global"}, %q: {"%s": %s}}`, n.kind, n.name, n.body)),
			code:  2, want: n.want, file: "agyconf.json", token: `"` + n.name + `"`,
		})
	}
	cs = append(cs,
		hostileCase{name: "leading dot", files: hcl(global + "mcp_server \".hidden\" {\n  command = \"x\"\n}\n"),
			code: 2, want: "starts with a dot", file: "agyconf.hcl", token: `".hidden"`},
		hostileCase{name: "dot dot alone", files: hcl(global + "workflow \"..\" {\n  body = \"b\"\n}\n"),
			code: 2, want: "climb out of their folder", file: "agyconf.hcl", token: `".."`},
		hostileCase{name: "overlong name", files: hcl(global + "mcp_server \"" + strings.Repeat("a", 200) + "\" {\n  command = \"x\"\n}\n"),
			code: 2, want: "the limit is 128", file: "agyconf.hcl", token: strings.Repeat("a", 200)},
		hostileCase{name: "overlong skill name", files: hcl(global + "skill \"" + strings.Repeat("a", 65) + "\" {\n  description = \"d\"\n  body = \"b\"\n}\n"),
			code: 2, want: "at most 64", file: "agyconf.hcl", token: strings.Repeat("a", 65)},
		hostileCase{name: "windows device name", files: hcl(workspace + "rule \"con\" {\n  body = \"b\"\n}\n"),
			code: 2, want: "device name", file: "agyconf.hcl", token: `"con"`},
		hostileCase{name: "trailing dot", files: hcl(global + "agent \"name.\" {\n  description = \"d\"\n  body = \"b\"\n}\n"),
			code: 2, want: "ends with a dot", file: "agyconf.hcl", token: `"name."`},
	)
	// Paths the config names: layout overrides, config_root, skill sources.
	for _, p := range []string{"../x.json", "/etc/x.json", "a/../../b.json", "a/./b.json"} {
		cs = append(cs, hostileCase{
			name:  "layout " + p,
			files: hcl(fmt.Sprintf("agyconf {\n  layout {\n    mcp_config = %q\n  }\n}\n", p) + "mcp_server \"m\" {\n  command = \"x\"\n}\n"),
			code:  2, want: "clean paths below the render root", file: "agyconf.hcl", token: fmt.Sprintf("%q", p),
		})
	}
	cs = append(cs,
		hostileCase{name: "config_root escaping",
			files: hcl(global + "acp {\n  auth_type   = \"gemini-api-key\"\n  config_root = \"../../etc\"\n}\n"),
			code:  2, want: "config_root is a clean path below the render root", file: "agyconf.hcl", token: `"../../etc"`},
		hostileCase{name: "skill source outside the config folder",
			files: hcl(global + "skill \"s\" {\n  source = \"../outside\"\n}\n"),
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.outside, "SKILL.md"), "---\ndescription: d\n---\n", 0o644)
			},
			code: 2, want: "Invalid source", file: "agyconf.hcl", token: `"../outside"`},
		hostileCase{name: "skill source link to /etc/passwd", files: skillSource(),
			setup: func(t *testing.T, s scene) { s.link(t, filepath.Join(s.cfg, "skills/s/passwd"), "/etc/passwd") },
			code:  2, want: "is a symbolic link", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source link to a folder outside", files: skillSource(),
			setup: func(t *testing.T, s scene) { s.link(t, filepath.Join(s.cfg, "skills/s/refs"), s.outside) },
			code:  2, want: "is a symbolic link", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source file name with a control character", files: skillSource(),
			setup: func(t *testing.T, s scene) { s.write(t, filepath.Join(s.cfg, "skills/s/a\x01b.md"), "x", 0o644) },
			code:  2, want: "control character U+0001", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source file name with a newline", files: skillSource(),
			setup: func(t *testing.T, s scene) { s.write(t, filepath.Join(s.cfg, "skills/s/a\nb.md"), "x", 0o644) },
			code:  2, want: "control character U+000A", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source file name with a backslash", files: skillSource(),
			setup: func(t *testing.T, s scene) { s.write(t, filepath.Join(s.cfg, `skills/s/a\..\..\x.md`), "x", 0o644) },
			code:  2, want: "contains a slash", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source file name with division slashes", files: skillSource(),
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.cfg, "skills/s/x\u2215..\u2215etc"), "x", 0o644)
			},
			code: 2, want: "DIVISION SLASH", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source folder name with a bidi override", files: skillSource(),
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.cfg, "skills/s/x\u202eab/f.md"), "x", 0o644)
			},
			code: 2, want: "invisible formatting character", file: "agyconf.hcl", token: `"skills/s"`},
		hostileCase{name: "skill source FIFO", files: skillSource(),
			setup: func(t *testing.T, s scene) {
				if err := syscall.Mkfifo(filepath.Join(s.cfg, "skills/s/pipe"), 0o644); err != nil {
					t.Skip(err)
				}
			},
			code: 2, want: "not a regular file", file: "agyconf.hcl", token: `"skills/s"`},
		// Matchers.
		hostileCase{name: "matcher of huge compiled size",
			files: hcl(global + "hook \"h\" {\n  pre_tool_use {\n    matcher = \"" + hugeMatcher() + "\"\n    command = \"/bin/true\"\n  }\n}\n"),
			code:  2, want: "the limit is 10000", file: "agyconf.hcl", token: hugeMatcher()},
		hostileCase{name: "matcher of nested repeats",
			files: hcl(global + "hook \"h\" {\n  pre_tool_use {\n    matcher = \"(a{1000}){1000}\"\n    command = \"/bin/true\"\n  }\n}\n"),
			code:  2, want: "invalid repeat count", file: "agyconf.hcl", token: "(a{1000}){1000}"},
		// Input size.
		hostileCase{name: "config over 8 MiB",
			files: hcl(global + "# " + strings.Repeat("x", 8<<20) + "\n"),
			code:  2, want: "the limit is 8388608 bytes", file: "agyconf.hcl", token: ""},
	)

	// Numbers no bound can judge: big.Rat, which jsonschema/v6 compares
	// numbers with, reads no decimal exponent past ±1,000,000, and the
	// library dereferences nil on one where a bound applies. The config's
	// decoder refuses every number past a float64's range where it is
	// written, in both syntaxes; live files are TestHostileNumbersLive's.
	for _, n := range []struct{ name, body, token string }{
		{"hook timeout", "hook \"h\" {\n  stop {\n    command = \"/bin/true\"\n    timeout = 1e99999999\n  }\n}\n", "1e99999999"},
		{"matcher group timeout", "hook \"h\" {\n  pre_tool_use {\n    matcher = \"run_command\"\n    command = \"/bin/true\"\n    timeout = -1e99999999\n  }\n}\n", "-1e99999999"},
		{"server timeout_seconds", "mcp_server \"m\" {\n  command = \"/bin/true\"\n  timeout_seconds = 1e-99999999\n}\n", "1e-99999999"},
		{"mempalace save_interval", "harness \"mempalace\" {\n  save_interval = 10e-1000001\n}\n", "10e-1000001"},
		{"settings value", "settings {\n  x = 1e99999999\n}\n", "1e99999999"},
		{"exponent past int64", "mcp_server \"m\" {\n  command = \"/bin/true\"\n  timeout_seconds = 1e9999999999999999999\n}\n", "1e9999999999999999999"},
	} {
		want := "Number out of range"
		if strings.Contains(n.token, "9999999999999") {
			want = "Invalid number literal"
		}
		cs = append(cs, hostileCase{name: "number " + n.name, files: hcl(global + n.body),
			code: 2, want: want, file: "agyconf.hcl", token: n.token})
	}
	for _, n := range []struct{ name, body, token, want string }{
		{"hook timeout", `"hook": {"h": {"stop": {"command": "/bin/true", "timeout": 1e99999999}}}`, "1e99999999", "Number out of range"},
		{"server timeout_seconds", `"mcp_server": {"m": {"command": "/bin/true", "timeout_seconds": -1e-99999999}}`, "-1e-99999999", "Number out of range"},
		{"mempalace save_interval", `"harness": {"mempalace": {"save_interval": 1e1000001}}`, "1e1000001", "Number out of range"},
		{"server env", `"mcp_server": {"m": {"command": "/bin/true", "env": {"A": 1e99999999}}}`, "1e99999999", "Number out of range"},
		{"exponent past int64", `"mcp_server": {"m": {"command": "/bin/true", "timeout_seconds": 1e-9999999999999999999}}`, "1e-9999999999999999999", "Invalid JSON number"},
	} {
		cs = append(cs, hostileCase{name: "json number " + n.name,
			files: jsonCfg(`{"agyconf": {"scope": "global"}, ` + n.body + `}`),
			code:  2, want: n.want, file: "agyconf.json", token: n.token})
	}
	cs = append(cs, hostileCase{name: "state number past big.Rat", files: mcpConfig, args: []string{"--instance", "hostile"},
		setup: func(t *testing.T, s scene) {
			s.write(t, filepath.Join(s.root, ".local/state/agyconf/hostile.json"), hostileState, 0o644)
		},
		code: 2, want: "which no schema bound can judge", path: fmt.Sprintf(".local/state/agyconf/hostile.json:1:%d", strings.Index(hostileState, "1e99999999")+1)})
	for _, v := range []string{"1e99999999", "-1e99999999", "2.5", `"5"`} {
		cs = append(cs, hostileCase{name: "state version " + v, files: mcpConfig, args: []string{"--instance", "hostile"},
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.root, ".local/state/agyconf/hostile.json"), `{"version": `+v+`, "instance": "hostile", "files": {}}`+"\n", 0o644)
			},
			// Named as written, never read as version 0.
			code: 2, want: "has version " + v + ", which no agyconf wrote (a version is a whole number)", path: ".local/state/agyconf/hostile.json:1:13"})
	}

	// On disk: folders that lead out of the root.
	cs = append(cs,
		hostileCase{name: ".gemini linked outside the root", files: mcpConfig,
			setup: func(t *testing.T, s scene) { s.link(t, filepath.Join(s.root, ".gemini"), s.outside) },
			code:  3, want: "outside the render root", path: ".gemini/config/mcp_config.json"},
		hostileCase{name: ".gemini/config linked into a Home Manager generation", files: mcpConfig,
			setup: func(t *testing.T, s scene) {
				gen := filepath.Join(s.outside, "abc-home-manager-files/.gemini/config")
				s.write(t, filepath.Join(gen, "mcp_config.json"), "{}\n", 0o444)
				s.link(t, filepath.Join(s.root, ".gemini/config"), gen)
			},
			code: 3, want: `home.file.".gemini/config"`, path: ".gemini/config/mcp_config.json"},
		hostileCase{name: ".gemini dangling link", files: mcpConfig,
			setup: func(t *testing.T, s scene) {
				s.link(t, filepath.Join(s.root, ".gemini"), filepath.Join(s.outside, "gone"))
			},
			code: 3, want: "outside the render root", path: ".gemini/config/mcp_config.json"},
		hostileCase{name: ".gemini dangling link inside", files: mcpConfig,
			setup: func(t *testing.T, s scene) {
				s.link(t, filepath.Join(s.root, ".gemini"), filepath.Join(s.root, "gone"))
			},
			code: 3, want: "does not exist", path: ".gemini/config/mcp_config.json"},
		hostileCase{name: "skills folder linked outside", files: hcl(global + "skill \"s\" {\n  description = \"d\"\n  body = \"b\"\n}\n"),
			setup: func(t *testing.T, s scene) { s.link(t, filepath.Join(s.root, ".gemini/config/skills"), s.outside) },
			code:  3, want: "outside the render root", path: ".gemini/config/skills/s/SKILL.md"},
		hostileCase{name: "workspace .agents linked outside", files: hcl(workspace + "rule \"r\" {\n  body = \"b\"\n}\n"),
			setup: func(t *testing.T, s scene) { s.link(t, filepath.Join(s.root, ".agents"), s.outside) },
			code:  3, want: "outside the render root", path: ".agents/rules/r.md"},
		hostileCase{name: "layout folder linked outside",
			files: hcl("agyconf {\n  layout {\n    agents = \"dots/agents\"\n  }\n}\nagent \"a\" {\n  description = \"d\"\n  body = \"b\"\n}\n"),
			setup: func(t *testing.T, s scene) { s.link(t, filepath.Join(s.root, "dots"), s.outside) },
			code:  3, want: "outside the render root", path: "dots/agents/a/agent.md"},
		hostileCase{name: "tampered state naming a file outside", files: mcpConfig, args: []string{"--instance", "hostile"},
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.root, ".local/state/agyconf/hostile.json"),
					`{"version": 1, "files": {"../outside/secret.txt": {"sha256": "`+strings.Repeat("0", 64)+`"}}}`, 0o644)
			},
			code: 3, want: "not a path below the render root", path: "../outside/secret.txt"},
		hostileCase{name: "rules differing only in case", files: hcl(workspace + "rule \"Foo\" {\n  body = \"a\"\n}\nrule \"foo\" {\n  body = \"b\"\n}\n"),
			code: 2, want: "differ only in case", path: ".agents/rules/Foo.md"},
	)
	// On disk: live files too big, too deep, or not files.
	cs = append(cs,
		hostileCase{name: "hooks.json of 20 MiB", files: hookConfig,
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.root, ".gemini/config/hooks.json"), `{"x": "`+strings.Repeat("a", 20<<20)+`"}`, 0o644)
			},
			code: 2, want: "at most 16777216 bytes", path: ".gemini/config/hooks.json"},
		hostileCase{name: "mcp_config.json nested 100k deep", files: mcpConfig,
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.root, ".gemini/config/mcp_config.json"), `{"x": `+strings.Repeat("[", 100000), 0o644)
			},
			code: 2, want: "nesting deeper than 10000", path: ".gemini/config/mcp_config.json"},
		hostileCase{name: "hooks.json with a 1M-element array cut short", files: hookConfig,
			setup: func(t *testing.T, s scene) {
				s.write(t, filepath.Join(s.root, ".gemini/config/hooks.json"), `{"x": [`+strings.Repeat("0,", 1000000), 0o644)
			},
			code: 2, want: "1:2000008", path: ".gemini/config/hooks.json"},
		hostileCase{name: "mcp_config.json is a FIFO", files: mcpConfig,
			setup: func(t *testing.T, s scene) {
				if err := os.MkdirAll(filepath.Join(s.root, ".gemini/config"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(filepath.Join(s.root, ".gemini/config/mcp_config.json"), 0o644); err != nil {
					t.Skip(err)
				}
			},
			code: 2, want: "not a regular file", path: ".gemini/config/mcp_config.json"},
		hostileCase{name: "hooks.json linked to /dev/zero", files: hookConfig,
			setup: func(t *testing.T, s scene) {
				s.link(t, filepath.Join(s.root, ".gemini/config/hooks.json"), "/dev/zero")
			},
			code: 2, want: "not a regular file", path: ".gemini/config/hooks.json"},
	)
	return cs
}

func TestHostile(t *testing.T) {
	all := cases()
	if len(all) < 40 {
		t.Fatalf("the corpus has %d cases; it promises at least 40", len(all))
	}
	names := map[string]bool{}
	for _, tc := range all {
		if names[tc.name] {
			t.Fatalf("two cases named %q", tc.name)
		}
		names[tc.name] = true
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}

func runCase(t *testing.T, tc hostileCase) {
	base := t.TempDir()
	s := scene{root: filepath.Join(base, "root"), cfg: filepath.Join(base, "cfg"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{s.root, s.cfg, s.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.write(t, filepath.Join(s.outside, "secret.txt"), "not yours\n", 0o600)
	for name, data := range tc.files {
		s.write(t, filepath.Join(s.cfg, name), data, 0o644)
	}
	// The lock a render takes is the one file it leaves even when it
	// refuses: laid out beforehand, as a previous render leaves it.
	pid := fmt.Sprintf("%d\n", os.Getpid())
	s.write(t, filepath.Join(s.root, ".local/state/agyconf/lock"), pid, 0o644)
	s.write(t, filepath.Join(s.root, ".agyconf/lock"), pid, 0o644)
	s.write(t, filepath.Join(s.root, ".agyconf/.gitignore"), "lock\ncache/\n", 0o644)
	if tc.setup != nil {
		tc.setup(t, s)
	}
	before := snapshot(t, base)

	var out, errOut bytes.Buffer
	args := append([]string{"agyconf", "render", "--config", s.cfg, "--root", s.root, "--diagnostics-format", "json"}, tc.args...)
	code := cli.Main(args, &out, &errOut)
	all := out.String() + errOut.String()
	if code != tc.code {
		t.Errorf("exit code %d, want %d\n%s", code, tc.code, clip(all))
	}
	if !strings.Contains(all, tc.want) {
		t.Errorf("the output lacks %q:\n%s", tc.want, clip(all))
	}
	switch {
	case tc.file != "":
		checkLocated(t, s, tc, out.Bytes())
	case tc.path != "":
		if !strings.Contains(all, tc.path) {
			t.Errorf("the output does not name %s:\n%s", tc.path, clip(all))
		}
	default:
		t.Fatal("a case names a file or a path")
	}
	if diff := cmp.Diff(before, snapshot(t, base)); diff != "" {
		t.Errorf("the filesystem changed (-before +after):\n%s", diff)
	}
}

// checkLocated finds the diagnostic carrying the message and checks that it
// points into the config file at the offending text.
func checkLocated(t *testing.T, s scene, tc hostileCase, out []byte) {
	t.Helper()
	var rep diagfmt.Report
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, clip(string(out)))
	}
	src, err := os.ReadFile(filepath.Join(s.cfg, tc.file))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range rep.Diagnostics {
		if !strings.Contains(d.Summary+" "+d.Detail, tc.want) {
			continue
		}
		r := d.Range
		if r == nil || filepath.Base(r.Filename) != tc.file || r.Start.Line < 1 || r.Start.Column < 1 {
			t.Fatalf("the diagnostic is not located in %s: %+v", tc.file, d)
		}
		if tc.token != "" && (r.End.Byte > len(src) || !strings.Contains(string(src[r.Start.Byte:r.End.Byte]), tc.token)) {
			t.Fatalf("%s:%d:%d covers %q, not %.60q", tc.file, r.Start.Line, r.Start.Column, src[r.Start.Byte:min(r.End.Byte, len(src))], tc.token)
		}
		return
	}
	t.Fatalf("no diagnostic says %q: %+v", tc.want, rep.Diagnostics)
}

// entry is one thing on disk, as a snapshot records it.
type entry struct {
	Mode   string
	Link   string
	SHA256 string
}

// snapshot records every path under dir: mode, content hash, link target.
func snapshot(t *testing.T, dir string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		e := entry{Mode: fi.Mode().String()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Link, err = os.Readlink(p)
		case fi.Mode().IsRegular():
			var b []byte
			b, err = os.ReadFile(p)
			sum := sha256.Sum256(b)
			e.SHA256 = hex.EncodeToString(sum[:])
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func clip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// A live file with a million-element array under a key agyconf does not
// own is read and kept: --check reports the drift and changes nothing.
// How fast is a benchmark's question (docs/benchmarks.md), not a test's:
// these machines are shared; the test's own timeout catches a hang.
func TestHugeLiveArray(t *testing.T) {
	base := t.TempDir()
	root, cfg := filepath.Join(base, "root"), filepath.Join(base, "cfg")
	s := scene{root: root, cfg: cfg}
	s.write(t, filepath.Join(cfg, "agyconf.hcl"), mcpConfig["agyconf.hcl"], 0o644)
	s.write(t, filepath.Join(root, ".gemini/config/mcp_config.json"), `{"x": [`+strings.Repeat("0,", 999999)+"0]}", 0o644)
	s.write(t, filepath.Join(root, ".local/state/agyconf/lock"), fmt.Sprintf("%d\n", os.Getpid()), 0o644)
	before := snapshot(t, base)
	var out bytes.Buffer
	code := cli.Main([]string{"agyconf", "render", "--check", "--config", cfg, "--root", root}, &out, &out)
	if code != 1 || !strings.Contains(out.String(), "mcpServers.github") {
		t.Fatalf("exit %d:\n%s", code, clip(out.String()))
	}
	if diff := cmp.Diff(before, snapshot(t, base)); diff != "" {
		t.Fatalf("--check changed the filesystem:\n%s", diff)
	}
	// The render itself merges the entry and keeps the array as it was.
	if code := cli.Main([]string{"agyconf", "render", "--config", cfg, "--root", root}, &out, &out); code != 0 {
		t.Fatalf("render exit %d:\n%s", code, clip(out.String()))
	}
	b, err := os.ReadFile(filepath.Join(root, ".gemini/config/mcp_config.json"))
	// The array is kept byte for byte, as written on one line.
	if err != nil || !bytes.Contains(b, []byte(`{"x": [`+strings.Repeat("0,", 999999)+"0]")) || !bytes.Contains(b, []byte("github-mcp-server")) {
		t.Fatalf("merged file: %v %.200s", err, b)
	}
}

// validate reads other people's files under the same kind of bound.
func TestLimitsAgree(t *testing.T) {
	if lint.MaxFileSize != apply.MaxLiveFileSize {
		t.Fatalf("validate reads %d bytes, render %d", lint.MaxFileSize, apply.MaxLiveFileSize)
	}
	base := t.TempDir()
	p := filepath.Join(base, "hooks.json")
	if err := os.WriteFile(p, []byte(`{"x": "`+strings.Repeat("a", 17<<20)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	code := cli.Main([]string{"agyconf", "validate", p}, &out, &out)
	if code == 0 || !strings.Contains(out.String(), "at most 16777216 bytes") {
		t.Fatalf("exit %d:\n%s", code, clip(out.String()))
	}
}

// Numbers no bound can judge, in files agyconf reads but did not write.
// validate PATH refuses each at its file:line:column whatever governs it
// (a bounded timeout, a member no schema names), before jsonschema/v6 sees
// the document: the library dereferences nil on one under a bound. render
// merges into live shared files by their bytes, never asking the library
// about them: it keeps the foreign entries as they are, and validate PATH
// then points at them. hook test refuses them in a payload and in a
// handler's answer.
func TestHostileNumbersLive(t *testing.T) {
	const judge = "which no schema bound can judge"
	base := t.TempDir()
	root, cfg := filepath.Join(base, "root"), filepath.Join(base, "cfg")
	s := scene{root: root, cfg: cfg}
	files := map[string]string{
		".gemini/config/hooks.json": "{\n  \"audit\": {\n    \"Stop\": [{\"command\": \"/bin/true\", \"timeout\": 1e99999999}],\n" +
			"    \"PreInvocation\": [{\"command\": \"/bin/true\", \"timeout\": -1e-99999999}]\n  }\n}\n",
		".gemini/config/mcp_config.json":        "{\"mcpServers\": {\"s\": {\"command\": \"/bin/true\", \"timeoutSeconds\": 10e-1000001}}}\n",
		".gemini/config/config.json":            "{\"userSettings\": {\"x\": [1, 1e1000001]}}\n",
		".gemini/antigravity-cli/settings.json": "{\"model\": {\"n\": 1e99999999}}\n",
	}
	// Where each number starts, as file:line:column.
	var want []string
	for name, text := range files {
		s.write(t, filepath.Join(root, name), text, 0o644)
		for _, lit := range []string{"-1e-99999999", "10e-1000001", "1e1000001", " 1e99999999"} {
			if i := strings.Index(text, lit); i >= 0 {
				i += len(lit) - len(strings.TrimSpace(lit))
				line := strings.Count(text[:i], "\n") + 1
				want = append(want, fmt.Sprintf("%s:%d:%d", name, line, i-strings.LastIndex(text[:i], "\n")))
			}
		}
	}
	sort.Strings(want)
	validate := func() []string {
		t.Helper()
		var out bytes.Buffer
		code := cli.Main([]string{"agyconf", "validate", "--format", "json", filepath.Join(root, ".gemini")}, &out, &out)
		var rep struct {
			Findings []struct {
				File, Message string
				Line, Column  int
			}
		}
		if err := json.Unmarshal(out.Bytes(), &rep); code != 1 || err != nil {
			t.Fatalf("validate: exit %d, %v:\n%s", code, err, clip(out.String()))
		}
		var got []string
		for _, f := range rep.Findings {
			if strings.Contains(f.Message, judge) {
				rel, err := filepath.Rel(root, f.File)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprintf("%s:%d:%d", filepath.ToSlash(rel), f.Line, f.Column))
			}
		}
		sort.Strings(got)
		return got
	}
	if got := validate(); !slices.Equal(got, want) {
		t.Fatalf("validate PATH refused numbers at %q, want %q", got, want)
	}

	// render merges its own entries beside the foreign ones.
	s.write(t, filepath.Join(cfg, "agyconf.hcl"), global+"hook \"h\" {\n  stop {\n    command = \"/bin/true\"\n  }\n}\nmcp_server \"m\" {\n  command = \"/bin/true\"\n}\n", 0o644)
	var out bytes.Buffer
	if code := cli.Main([]string{"agyconf", "render", "--config", cfg, "--root", root}, &out, &out); code != 0 {
		t.Fatalf("render: exit %d:\n%s", code, clip(out.String()))
	}
	for _, name := range []string{".gemini/config/hooks.json", ".gemini/config/mcp_config.json"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, lit := range []string{`"timeout": 1e99999999}`, `"timeout": -1e-99999999}`, `"timeoutSeconds": 10e-1000001}`} {
			if strings.Contains(files[name], lit) && !bytes.Contains(b, []byte(lit)) {
				t.Errorf("render lost %s from %s:\n%s", lit, name, b)
			}
		}
	}
	if got := validate(); len(got) != len(want) {
		t.Errorf("after render, validate PATH refused numbers at %q, want %d", got, len(want))
	}

	// hook test: a payload, and a handler's answer.
	payload := filepath.Join(base, "payload.json")
	s.write(t, payload, `{"stepIdx": 1e99999999}`, 0o644)
	hooks := filepath.Join(base, "hooks.json")
	s.write(t, hooks, `{"h": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "printf '{\"decision\": \"allow\", \"n\": 1e99999999}'", "timeout": 5}]}]}}`, 0o644)
	out.Reset()
	code := cli.Main([]string{"agyconf", "hook", "test", "PreToolUse", "--hooks", hooks, "--payload", payload, "--allow-exec"}, &out, &out)
	for _, w := range []string{"1:13: /stepIdx: the number 1e99999999", "1:28: /n: the number 1e99999999"} {
		if code != 1 || !strings.Contains(out.String(), w) {
			t.Errorf("hook test: exit %d, want 1 and %q:\n%s", code, w, clip(out.String()))
		}
	}
}
