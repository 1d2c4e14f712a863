// Package cli is agyconf's command line. Main runs one invocation against
// the writers it is given and returns the exit code, so tests run the whole
// CLI in-process and nothing below main ever calls os.Exit.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/lazyre"
)

// Exit codes, one table for every command (docs/cli.md, "Exit codes").
const (
	ExitOK       = 0 // done, in sync, no findings
	ExitFindings = 1 // drift (--check, --exit-code), findings (validate), not loaded (doctor)
	ExitBadInput = 2 // bad input or usage, or cannot run, or agy cannot be asked (doctor)
	ExitConflict = 3 // a conflict was refused (render)
)

const exitCodeHelp = `EXIT CODES (the same for every command):
   0  done, in sync, or no findings
   1  drift (render --check, diff --exit-code, fmt --check), findings
      (validate), or something the config renders not loaded (doctor)
   2  bad input or usage, agyconf cannot run, or agy cannot be asked (doctor)
   3  a conflict was refused (render)`

// version is set at link time (-ldflags "-X …/internal/cli.version=v1.2.3");
// builds without it report the module version Go recorded.
var version = ""

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// exitError carries an exit code out of a command action.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

// exit returns an error that makes Main return code; a nil err means the
// command already said everything it had to say.
func exit(code int, err error) error { return &exitError{code: code, err: err} }

// Main runs agyconf with args (args[0] is the program name). Calls must
// not overlap within one process: urfave/cli v2 applies its package-level
// help flag on every run. Concurrent renders are separate processes, which
// the root's lock serializes (testdata/script/render_concurrent.txtar).
func Main(args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	err := app.Run(args)
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "agyconf: %s\n", ee.err)
		}
		return ee.code
	}
	// Everything else urfave/cli reports is a usage problem: an unknown
	// flag or command, a missing flag value.
	fmt.Fprintf(stderr, "agyconf: %s\n", err)
	return ExitBadInput
}

func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "agyconf",
		Usage:     "declarative, validated configuration for Google Antigravity",
		UsageText: "agyconf [--version] [-q|--quiet] command [command options]",
		Description: `agyconf reads HCL files (or the JSON that its Nix module emits) describing
MCP servers, hooks, skills, rules, subagents, workflows, plugins and
permissions, validates them, and writes Antigravity's files.

EXAMPLES:
   agyconf init --out ~/.config/agyconf/agyconf.hcl
   agyconf render --config ~/.config/agyconf
   agyconf diff --config ~/.config/agyconf
   agyconf validate --config examples/global
   agyconf schema > agyconf.schema.json

` + exitCodeHelp,
		Version:        buildVersion(),
		Writer:         stdout,
		ErrWriter:      stderr,
		HideVersion:    true,
		Suggest:        true,
		ExitErrHandler: func(*cli.Context, error) {}, // Main maps errors to codes
		OnUsageError:   usageError,
		Commands: []*cli.Command{
			initCommand(),
			renderCommand(),
			diffCommand(),
			statusCommand(),
			cleanCommand(),
			backupsCommand(),
			validateCommand(),
			explainCommand(),
			fmtCommand(),
			hookCommand(),
			schemaCommand(),
			versionCommand(),
			importCommand(),
			doctorCommand(),
			completionCommand(),
			manCommand(),
		},
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "version", Usage: "print agyconf's version (as agyconf version does)"},
			quietFlag(),
		},
		Before: func(c *cli.Context) error {
			if c.Bool("version") {
				fmt.Fprintf(c.App.Writer, "agyconf %s\n", buildVersion())
				return exit(ExitOK, nil)
			}
			return nil
		},
		Action: unknownCommand,
	}
	setUsageError(app.Commands)
	return app
}

// setUsageError makes every command, subcommands included, report a usage
// error as one line that points at its help.
func setUsageError(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = usageError
		setUsageError(cmd.Subcommands)
	}
}

// unknownCommand runs when the first argument names no command: bare
// `agyconf` shows help, anything else is a usage error.
func unknownCommand(c *cli.Context) error {
	if c.NArg() == 0 {
		return cli.ShowAppHelp(c)
	}
	name := c.Args().First()
	msg := fmt.Sprintf("unknown command %q", name)
	// The flags' rule, not cli.SuggestCommand: that one always names the
	// nearest command, however far ("zz" got `Did you mean ""?`).
	var names []string
	for _, cmd := range c.App.VisibleCommands() {
		for _, n := range cmd.Names() {
			if len(n) > 1 {
				names = append(names, n)
			}
		}
	}
	if s := config.Suggest(name, names); s != "" && len(name) > 1 {
		msg += fmt.Sprintf(". Did you mean %q?", s)
	}
	return exit(ExitBadInput, fmt.Errorf("%s (see agyconf --help)", msg))
}

func usageError(c *cli.Context, err error, _ bool) error {
	name := "agyconf"
	flags := c.App.Flags
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != name {
		flags = c.Command.Flags
		// The command's path, "hook test": its name and its parents'.
		var path []string
		for _, x := range c.Lineage() {
			if x.Command != nil && x.Command.Name != "" && x.Command.Name != name && (len(path) == 0 || path[len(path)-1] != x.Command.Name) {
				path = append(path, x.Command.Name)
			}
		}
		slices.Reverse(path)
		name += " " + strings.Join(path, " ")
	}
	return exit(ExitBadInput, fmt.Errorf("%s (see %s --help)", flagProblem(err, flags), name))
}

// flagProblem words a flag error of Go's flag package, which urfave/cli
// passes on, as agyconf's flags are written: with two dashes (the package
// prints one whatever was typed), and an unknown flag with the flag it
// most likely meant (the rule the config's "Did you mean" follows).
func flagProblem(err error, flags []cli.Flag) string {
	msg := err.Error()
	if m := unknownFlagRe().FindStringSubmatch(msg); m != nil {
		out := "unknown flag " + dashed(m[1])
		// Long names only: any one letter is "close" to any other.
		var names []string
		for _, f := range append(flags, cli.HelpFlag) {
			for _, n := range f.Names() {
				if len(n) > 1 {
					names = append(names, n)
				}
			}
		}
		if s := config.Suggest(m[1], names); s != "" && len(m[1]) > 1 {
			out += ". Did you mean " + dashed(s) + "?"
		}
		return out
	}
	return flagNameRe().ReplaceAllStringFunc(msg, func(x string) string {
		sub := flagNameRe().FindStringSubmatch(x)
		return sub[1] + dashed(sub[2])
	})
}

// dashed is a flag name as typed: two dashes, one for a letter.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// The flag package's messages (flag.FlagSet.failf), each naming the flag
// with one dash.
var (
	unknownFlagRe = lazyre.New(`^flag provided but not defined: -(.+)$`)
	flagNameRe    = lazyre.New(`(flag needs an argument: |for flag |for )-([A-Za-z0-9][A-Za-z0-9_-]*)`)
)

// noArgs refuses positional arguments a command does not take.
func noArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return exit(ExitBadInput, fmt.Errorf("%s takes no arguments, got %q (see agyconf %s --help)", c.Command.Name, strings.Join(c.Args().Slice(), " "), c.Command.Name))
	}
	return nil
}

// checkColor refuses a --color value useColor does not know, which would
// otherwise silently mean "auto".
func checkColor(flag string) error {
	switch flag {
	case "auto", "always", "never":
		return nil
	}
	return fmt.Errorf("unknown --color %q: use \"auto\", \"always\" or \"never\"", flag)
}

// useColor says whether diagnostics to w may carry ANSI colours: only on a
// terminal, and never when NO_COLOR is set to a non-empty value
// (no-color.org: an empty NO_COLOR does not count).
func useColor(w io.Writer, flag string) bool {
	switch flag {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

func colorFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "color",
		Value: "auto",
		Usage: "colour diagnostics: auto (on a terminal, unless NO_COLOR is set), always, never",
		// Checked when given, before the command reads anything: a
		// render the cache answers never reaches the command's checks.
		Action: func(_ *cli.Context, v string) error {
			if err := checkColor(v); err != nil {
				return exit(ExitBadInput, err)
			}
			return nil
		},
	}
}

// explainFlag prints warnings in full: each with its source snippet and
// detail, and each rule's explanation once (agyconf explain RULE).
func explainFlag() *cli.BoolFlag {
	return &cli.BoolFlag{Name: "explain", Usage: "print each warning in full (its source and detail) and each rule's explanation, instead of one line each"}
}

func diagFormatFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "diagnostics-format",
		Value: "text",
		Usage: "how problems are printed: text (to stderr: an error in full, a warning on one line, unless --explain) or json (to stdout)",
		// As colorFlag: checked before the cache can answer.
		Action: func(_ *cli.Context, v string) error {
			if _, err := diagfmt.ParseFormat(v); err != nil {
				return exit(ExitBadInput, err)
			}
			return nil
		},
	}
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print agyconf's version",
		UsageText: "agyconf version",
		Description: `Prints the version agyconf was built as.

EXAMPLES:
   agyconf version
   agyconf version | cut -d' ' -f2`,
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "agyconf %s\n", buildVersion())
			return nil
		},
	}
}

// quietFlag is -q/--quiet, global and on the commands that report
// progress: it silences what a command prints when all went well (the
// changes a render made, "in sync", "valid", notes), never an error, a
// warning, a conflict, drift or a finding. For diff it prints nothing and
// exits 1 when there are differences, as git diff --quiet does.
func quietFlag() cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print nothing when all goes well; errors, warnings, conflicts, drift and findings still print"}
}

// quiet reports whether -q was given, before the command or after it.
func quiet(c *cli.Context) bool {
	for _, x := range c.Lineage() {
		if x.IsSet("quiet") && x.Bool("quiet") {
			return true
		}
	}
	return false
}

// info is where a command's progress report goes: its writer, or nowhere
// under -q.
func info(c *cli.Context, w io.Writer) io.Writer {
	if quiet(c) {
		return io.Discard
	}
	return w
}
