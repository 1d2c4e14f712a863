package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/doctor"
	"github.com/agyconf/agyconf/internal/engine"
)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:      "doctor",
		Usage:     "ask agy what it actually loaded, and say what it did not",
		UsageText: "agyconf doctor [--config PATH] [--root DIR] [--agy PATH] [--format text|json] [--timeout DURATION]",
		Description: `Renders nothing and writes nothing. Asks agy, with its read-only reports
only, what it loaded: agy --version, then as the config needs them
agy -p /hooks, agy mcp list, agy -p /skills and agy -p /permissions (the
print-mode ones with --output-format json), each bounded by --timeout, its
process group killed when it runs over. A slash command is sent only to a
build that answers it without a model turn (docs/doctor.md lists which), never
when the config names a skill or workflow like it, and nothing more is
asked once an answer came from a model. In global scope agy runs with HOME
set to the render root; in workspace scope with --add-dir and the absolute
root.

It compares the answers with what the config renders (the plan, not the
files): every named hook, MCP server (and its disabled), skill, permission
rule and subagent is loaded, not loaded or not checked, and for what is not
loaded it names the causes it can establish: agy's log (a hooks.json it
could not parse), validate's rules run on the live file, the workspace not
trusted, agy too old for what the file holds, a plugin disabled in
config.json. docs/doctor.md says how to read the answer.

EXAMPLES:
   agyconf doctor
   agyconf doctor --config examples/workspace --root ~/src/project
   agyconf doctor --format json | jq '.items[] | select(.status == "not loaded")'

EXIT CODES:
   0  everything checked is loaded (what is not checked is listed)
   1  something the config renders is not loaded: each is named
   2  agy cannot be asked (not found, too old for every report it needs, an
      answer doctor cannot read, a timeout, agy failing), or the config has
      errors: what and how to fix it is said`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "config file or folder (`PATH`); default: $XDG_CONFIG_HOME/agyconf (~/.config/agyconf), where the Home Manager module links it"},
			&cli.StringFlag{Name: "root", Usage: "the render root `DIR` whose files agy should have loaded: in global scope agy runs with HOME set to it"},
			&cli.StringFlag{Name: "agy", Usage: "the agy program to ask (`PATH`); default: agy on PATH"},
			formatFlag(),
			&cli.DurationFlag{Name: "timeout", Value: doctor.DefaultTimeout, Usage: "how long each run of agy may take (`DURATION`, such as 30s) before doctor kills it"},
			explainFlag(),
			optionPathsFlag(),
			colorFlag(),
			quietFlag(),
		},
		Action: runDoctor,
	}
}

func runDoctor(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	format := c.String("format") // text or json: formatFlag checks it
	if err := checkColor(c.String("color")); err != nil {
		return exit(ExitBadInput, err)
	}
	if c.Duration("timeout") <= 0 {
		return exit(ExitBadInput, fmt.Errorf("--timeout must be more than 0, got %s", c.Duration("timeout")))
	}
	path, err := configPath(c)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	cfg := engine.Load(path)
	// The config's warnings, as every command that reads it prints them.
	if err := writeDiags(c, diagfmt.Text, cfg.Parser.Files(), cfg.Diags); err != nil {
		return exit(ExitBadInput, err)
	}
	if !cfg.OK() {
		return exit(ExitBadInput, errors.New("doctor compares agy's answers with what the config renders: fix the config first"))
	}
	scope := cfg.Model.Agyconf.Scope
	root, err := engine.RenderRoot(c.String("root"), scope)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	agyPath, notFound := findAgy(c.String("agy"))
	home, _ := os.UserHomeDir()
	res := doctor.Diagnose(c.Context, doctor.Options{
		Plan: cfg.Plan, Scope: scope, Root: root,
		Agy: agyPath, NotFound: notFound,
		Env: os.Environ(), Home: home,
		Timeout: c.Duration("timeout"),
	})
	code := res.Code()
	out := c.App.Writer
	if code == doctor.ExitLoaded && quiet(c) {
		return nil
	}
	if format == "json" {
		if err := res.WriteJSON(out); err != nil {
			return exit(ExitBadInput, err)
		}
	} else {
		res.WriteText(out)
	}
	switch code {
	case doctor.ExitNotLoaded:
		return exit(ExitFindings, nil)
	case doctor.ExitCannotAsk:
		return exit(ExitBadInput, cannotAsk(res))
	}
	return nil
}

// cannotAsk is the one line exit 2 prints on standard error.
func cannotAsk(res *doctor.Result) error {
	if res.Problem != nil {
		return fmt.Errorf("agy cannot be asked: %s; %s", res.Problem.What, res.Problem.Fix)
	}
	var failed []string
	for _, rr := range res.Reports {
		if rr.Status == doctor.Failed {
			failed = append(failed, rr.Command)
		}
	}
	return fmt.Errorf("agy could not be asked everything: %s failed (the report above says why and how to fix it)", strings.Join(failed, ", "))
}

// findAgy finds the agy program: --agy (a path, or a name looked up on
// PATH), else agy on PATH.
func findAgy(flag string) (string, error) {
	name := flag
	if name == "" {
		name = "agy"
	}
	p, err := exec.LookPath(name)
	if err == nil {
		// agy runs in the root: a relative path must not change meaning.
		return filepath.Abs(p)
	}
	if flag == "" {
		return "", errors.New("agy is not on PATH")
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("--agy %s: not found", flag)
	}
	return "", fmt.Errorf("--agy %s: %v", flag, errors.Unwrap(err))
}
