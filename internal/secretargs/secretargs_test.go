package secretargs

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/jsonesc"
)

// grammars are both programs' grammars, with a tail each accepts.
var grammars = []struct {
	name string
	g    Grammar
	tail []string
	// names and texts the grammar accepts, with its traps.
	names, texts []string
}{
	{"exec-env", ExecEnv(), []string{"/usr/bin/srv", "--env", "X=1", "--"},
		[]string{"A", "_x", "TOKEN_2"}, []string{"", "Bearer ", "a=b", "--", "${X}", "%r/x", "tab\there", "line\nbreak"}},
	{"bridge", Bridge(), []string{"https://mcp.example.com/mcp?x=1"},
		[]string{"Authorization", "X-Api-Key", "x-lower", "A"}, []string{"", "Bearer ", "a=b", "--", "${X}", "{\"k\":\"", "tab\there"}},
}

var paths = []string{"/run/secrets/tok", "/p with space/a=b:c", "%r/agenix/tok", "${XDG_RUNTIME_DIR}/t", "/a/1:2"}

// TestFormatParse: whatever parts and tail render writes, the program
// (and import) reads back as they were, over random command lines of
// every flag.
func TestFormatParse(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 30))
	for _, gr := range grammars {
		for range 2000 {
			var parts []Part
			for range r.IntN(6) {
				p := Part{Name: gr.names[r.IntN(len(gr.names))]}
				switch r.IntN(3) {
				case 0:
					p.Text = gr.texts[r.IntN(len(gr.texts))]
					if gr.g.badText(p.Name, p.Text) != "" {
						continue
					}
				case 1:
					p.Path, p.File = paths[r.IntN(len(paths))], true
				default:
					p.Path, p.File, p.JSONEscape = paths[r.IntN(len(paths))], true, 1+r.IntN(jsonesc.MaxTimes)
				}
				parts = append(parts, p)
			}
			args := gr.g.Format(parts, gr.tail...)
			got, tail, err := gr.g.Parse(args)
			if err != nil {
				t.Fatalf("%s: %q: %v", gr.name, args, err)
			}
			if len(got) != len(parts) || (len(parts) > 0 && !reflect.DeepEqual(got, parts)) {
				t.Fatalf("%s: %q: parts %+v, want %+v", gr.name, args, got, parts)
			}
			if !reflect.DeepEqual(tail, gr.tail) {
				t.Fatalf("%s: %q: tail %q, want %q", gr.name, args, tail, gr.tail)
			}
		}
	}
}

// TestParseRefuses: what each program refuses, with a message that never
// shows a value.
func TestParseRefuses(t *testing.T) {
	const canary = "CANARY-s3cr3t"
	for _, c := range []struct {
		g    Grammar
		args []string
		want string
	}{
		{ExecEnv(), nil, "missing -- and the command"},
		{ExecEnv(), []string{"--"}, "no command after --"},
		{ExecEnv(), []string{"--", ""}, "empty command after --"},
		{ExecEnv(), []string{"--env", canary, "--", "x"}, "--env needs VAR=TEXT"},
		{ExecEnv(), []string{"--env-file-json", "A=" + canary, "--", "x"}, "want N:PATH with N from 1 to"},
		{ExecEnv(), []string{"--env-file-json", "A=0:/x", "--", "x"}, "want N:PATH"},
		{ExecEnv(), []string{"--env-file", "A=rel/x", "--", "x"}, "is not absolute"},
		{ExecEnv(), []string{"--env", "A=\x00" + canary, "--", "x"}, "the text contains a NUL byte"},
		{ExecEnv(), []string{"--header", "A=1", "--", "x"}, `unknown flag "--header"`},
		{Bridge(), nil, "missing -- and the URL"},
		{Bridge(), []string{"--"}, "want exactly one URL after --, got 0"},
		{Bridge(), []string{"--", "https://a", "b"}, "got 2"},
		{Bridge(), []string{"--", "ftp://a"}, "absolute http or https URL"},
		{Bridge(), []string{"--header", canary, "--", "https://a"}, "--header needs NAME=…"},
		{Bridge(), []string{"--header", "A:B=1", "--", "https://a"}, `invalid header name "A:B"`},
		{Bridge(), []string{"--header", "A=x\n" + canary, "--", "https://a"}, "a control character"},
		{Bridge(), []string{"--env", "A=1", "--", "https://a"}, `unknown flag "--env"`},
		{Bridge(), []string{"https://a"}, "argument 1 is not a flag: put -- before the URL"},
	} {
		_, _, err := c.g.Parse(c.args)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, c.want) {
			t.Errorf("%q: %v, want a usage error with %q", c.args, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: the message shows a value: %v", c.args, err)
		}
	}
	if _, _, err := Bridge().Parse([]string{"--help"}); err == nil || err.Error() != "" {
		t.Errorf("--help: %v, want an empty usage error", err)
	}
}

// FuzzParse: any command line parses without a panic; errors are one line;
// what parses is written back by Format as a command line that parses to
// the same parts and tail.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "--", "--\x00/bin/true", "--env\x00A=1\x00--env-file\x00A=/s\x00--\x00srv\x00--x",
		"--env-file-json\x00J=2:%r/t\x00--\x00srv", "--header\x00Authorization=Bearer \x00--header-file\x00Authorization=/s\x00--\x00https://x/mcp",
		"--header-file-json\x00J=3:/a:b\x00--\x00http://h:1/p", "--bogus=1", "--header\x00=x\x00--\x00https://x",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, joined string, bridge bool) {
		g := ExecEnv()
		if bridge {
			g = Bridge()
		}
		args := strings.Split(joined, "\x00")
		parts, tail, err := g.Parse(args)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %v", args, err)
			}
			return
		}
		again, tail2, err := g.Parse(g.Format(parts, tail...))
		if err != nil {
			t.Fatalf("%q: Format wrote %q, which does not parse: %v", args, g.Format(parts, tail...), err)
		}
		if len(parts)+len(again) > 0 && !reflect.DeepEqual(parts, again) || !reflect.DeepEqual(tail, tail2) {
			t.Fatalf("%q: parts %+v tail %q, then %+v %q", args, parts, tail, again, tail2)
		}
	})
}
