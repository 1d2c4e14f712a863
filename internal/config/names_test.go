package config

import (
	"strings"
	"testing"
)

func TestNameProblems(t *testing.T) {
	for _, tc := range []struct {
		check func(string) string
		name  string
		want  string // "" = accepted
	}{
		{entryNameProblem, "github", ""},
		{entryNameProblem, "my.server_2", ""},
		{entryNameProblem, "../x", "slash"},
		{entryNameProblem, "a/b", "slash"},
		{entryNameProblem, `a\b`, "slash"},
		{entryNameProblem, "a..b", `".."`},
		{entryNameProblem, ".hidden", "starts with a dot"},
		{entryNameProblem, "a\x00b", "control character U+0000"},
		{entryNameProblem, "a\nb", "control character U+000A"},
		{entryNameProblem, "a\u0085b", "control character U+0085"},
		{entryNameProblem, "a\u2215b", "DIVISION SLASH"},
		{entryNameProblem, "a\uff0fb", "FULLWIDTH SOLIDUS"},
		{entryNameProblem, "a\u2025b", "TWO DOT LEADER"},
		{entryNameProblem, "a\u202eb", "invisible formatting character"},
		{entryNameProblem, "a\u200db", "invisible formatting character"},
		{entryNameProblem, "\ufeffa", "invisible formatting character"},
		{entryNameProblem, "a\xffb", "not valid UTF-8"},
		{entryNameProblem, "name.", "ends with a dot"},
		{entryNameProblem, "con", "device name"},
		{entryNameProblem, "NUL.md", "device name"},
		{entryNameProblem, "com1", "device name"},
		{entryNameProblem, "console", ""},
		{entryNameProblem, strings.Repeat("a", 129), "the limit is 128"},
		{entryNameProblem, "caf\u00e9", "only letters, digits"},
		{pluginNameProblem, "a.b", "Plugin names"},
		{pluginNameProblem, "aux", "device name"},
		{skillNameProblem, "Release", "lowercase"},
		{skillNameProblem, "lpt9", "device name"},
		{skillNameProblem, strings.Repeat("a", 65), "at most 64"},
	} {
		got := tc.check(tc.name)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestPathProblem(t *testing.T) {
	for p, want := range map[string]string{
		".gemini/config/mcp_config.json": "",
		"skills/x/scripts/run.sh":        "",
		"a//b":                           "empty segment",
		"a/../b":                         `".."`,
		"./a":                            `"."`,
		"/etc":                           "absolute",
		`a\b`:                            "slash",
		"a/\u2215":                       "DIVISION SLASH",
		"a/b\x7f":                        "control character",
		"a/" + strings.Repeat("x", 256):  "allow 255",
	} {
		got := PathProblem(p)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%q: got %q, want %q", p, got, want)
		}
	}
}

func TestMatcherProblem(t *testing.T) {
	for m, want := range map[string]string{
		"run_command":                          "",
		"mcp_github_.*|run_command|write_file": "",
		"(":                                    "does not compile",
		"(a{1000}){1000}":                      "invalid repeat count",
		strings.Repeat("a{1000}", 11):          "the limit is 10000",
		strings.Repeat("(a|b)", 4000):          "the limit is 10000",
	} {
		got := matcherProblem(m)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("%.30q: got %q, want %q", m, got, want)
		}
	}
}
