package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// defined is one command of the app's definition with its path.
type defined struct {
	path string
	cmd  *cli.Command
}

// definedCommands walks the commands agyconf defines, subcommands
// included, as newApp builds them (before urfave/cli adds help).
func definedCommands() []defined {
	var out []defined
	var walk func(parent string, cmds []*cli.Command)
	walk = func(parent string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden {
				continue
			}
			path := strings.TrimSpace(parent + " " + c.Name)
			out = append(out, defined{path, c})
			walk(path, c.Subcommands)
		}
	}
	walk("", newApp(io.Discard, io.Discard).Commands)
	return out
}

func runMain(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := Main(append([]string{"agyconf"}, args...), &out, &errOut); code != 0 {
		t.Fatalf("agyconf %s: exit %d\n%s", strings.Join(args, " "), code, &errOut)
	}
	if errOut.Len() > 0 {
		t.Errorf("agyconf %s: stderr not empty:\n%s", strings.Join(args, " "), &errOut)
	}
	return out.String()
}

// TestCompletionCoversDefinition checks that the script for each shell
// names every command and every flag of the app's definition.
func TestCompletionCoversDefinition(t *testing.T) {
	cmds := definedCommands()
	if len(cmds) < 10 {
		t.Fatalf("found %d commands in the definition", len(cmds))
	}
	for _, shell := range shellValues() {
		t.Run(shell, func(t *testing.T) {
			script := runMain(t, "completion", shell)
			for _, d := range cmds {
				name := d.cmd.Name
				if !regexp.MustCompile(`(^|[\s'(])` + regexp.QuoteMeta(name) + `([\s':)]|$)`).MatchString(script) {
					t.Errorf("%s script does not name command %q", shell, d.path)
				}
				for _, f := range d.cmd.Flags {
					for _, n := range f.Names() {
						var want string
						switch {
						case shell == "fish" && len(n) == 1:
							want = "-s " + n
						case shell == "fish":
							want = "-l " + n
						case len(n) == 1:
							want = "-" + n
						default:
							want = "--" + n
						}
						offered := regexp.MustCompile(regexp.QuoteMeta(want) + `\b`).MatchString(script)
						switch {
						case hidden(f) && offered:
							// The Home Manager module's plumbing is
							// left out of completion as of help.
							t.Errorf("%s script offers the hidden flag %q", shell, want)
						case !hidden(f) && !offered:
							t.Errorf("%s script does not name flag %q of %q", shell, want, d.path)
						}
					}
				}
			}
			// The enumerated values of flags are offered.
			for _, want := range []string{"sarif", "workspace", "SessionStart", "always"} {
				if !strings.Contains(script, want) {
					t.Errorf("%s script does not offer %q", shell, want)
				}
			}
		})
	}
}

// TestCompletionValuesDocumented checks that every value a completion
// offers for a flag is one its usage names, so the two cannot drift.
func TestCompletionValuesDocumented(t *testing.T) {
	for _, d := range definedCommands() {
		for _, f := range d.cmd.Flags {
			df, ok := f.(cli.DocGenerationFlag)
			if !ok || !df.TakesValue() {
				continue
			}
			v := flagValues(d.path, f.Names()[0])
			for _, w := range v.words {
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`).MatchString(df.GetUsage()) {
					t.Errorf("agyconf %s --%s: completion offers %q, which its usage %q does not name", d.path, f.Names()[0], w, df.GetUsage())
				}
			}
		}
	}
}

// TestBashCompletion sources the bash script and runs its completion
// function as bash does on TAB.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("bash is needed in CI: %v", err)
		}
		t.Skip("no bash")
	}
	script := filepath.Join(t.TempDir(), "agyconf.bash")
	if err := os.WriteFile(script, []byte(runMain(t, "completion", "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	// The expected words come from the definition.
	var top, ren []string
	for _, d := range definedCommands() {
		if !strings.Contains(d.path, " ") {
			top = append(top, d.path)
			if strings.HasPrefix(d.path, "ren") {
				ren = append(ren, d.path)
			}
		}
	}
	top = append(top, "help")
	var events []string
	for _, e := range argValues("hook test").words {
		events = append(events, e)
	}
	for _, tc := range []struct {
		line string // the words typed; the last is completed
		want []string
	}{
		{"agyconf ren", ren},
		{"agyconf ''", top},
		{"agyconf render --for", []string{"--format", "--force"}},
		{"agyconf render --format ''", flagValues("render", "format").words},
		{"agyconf validate --format ''", flagValues("validate", "format").words},
		{"agyconf render --format = j", []string{"json"}},
		{"agyconf diff -c agyconf.hcl --color ''", flagValues("diff", "color").words},
		{"agyconf init --scope w", []string{"workspace"}},
		{"agyconf hook ''", []string{"test"}},
		{"agyconf hook test ''", events},
		{"agyconf hook test Stop --allow", []string{"--allow-exec"}},
		{"agyconf completion ''", shellValues()},
	} {
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_agyconf; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script)
		cmd.Args = append(cmd.Args, splitLine(tc.line)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.line, err, out)
		}
		got := strings.Fields(string(out))
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s<TAB>: got %q, want %q", tc.line, got, tc.want)
		}
	}
}

// splitLine splits a typed line at spaces; a word of two single quotes
// stands for an empty word.
func splitLine(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if w == "''" {
			w = ""
		}
		out = append(out, w)
	}
	return out
}
