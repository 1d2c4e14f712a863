package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "write Antigravity's files from a config",
		UsageText: "agyconf render --config PATH [--root DIR] [--diagnostics-format text|json]",
		Description: `Validates the config at PATH, renders every file it describes and writes
them under DIR: $HOME by default in global scope, the current directory in
workspace scope. Output is deterministic: the same config gives the same
bytes on any machine.

Writes are atomic. agyconf records what it wrote (global scope:
DIR/.local/state/agyconf/state.json; workspace scope: DIR/.agyconf/state.json)
and refuses, with exit code 3, to overwrite a file it did not write or that
was edited since; it removes files it wrote that the config no longer
describes, unless they were edited. Secrets named by secret_file() are read
now, and only into files of mode 0600.

EXAMPLES:
   agyconf render --config ~/.config/agyconf
   agyconf render --config examples/workspace --root /tmp/demo-project`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "config file or folder (`PATH`), required"},
			&cli.StringFlag{Name: "root", Usage: "render into `DIR` instead of the scope's default"},
			diagFormatFlag,
			colorFlag,
		},
		Action: runRender,
	}
}

func runRender(c *cli.Context) error {
	path, format, err := configFlags(c)
	if err != nil {
		return err
	}
	p := config.NewParser()
	cfg, diags := p.LoadConfig(path)
	var plan *render.Plan
	if !diags.HasErrors() {
		var rdiags hcl.Diagnostics
		plan, rdiags = render.Render(cfg, layout.New(cfg.Agyconf))
		diags = append(diags, rdiags...)
	}
	if format == diagfmt.JSON || len(diags) > 0 {
		if err := writeDiags(c, format, p, diags); err != nil {
			return exit(ExitBadInput, err)
		}
	}
	if diags.HasErrors() {
		return exit(ExitBadInput, nil)
	}
	if err := plan.Check(); err != nil {
		return exit(ExitBadInput, err)
	}

	root, err := renderRoot(c.String("root"), cfg.Agyconf.Scope)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	opts := apply.Options{
		Root:      root,
		StatePath: statePath(root, cfg.Agyconf.Scope),
		Secrets:   readSecret,
		KeepDirs:  layout.New(cfg.Agyconf).Folders(),
	}
	st, err := apply.LoadState(opts.StatePath)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	changes, err := apply.Decide(plan, st, opts)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	if err := apply.Execute(changes, st, opts); err != nil {
		var ce *apply.ConflictError
		if errors.As(err, &ce) {
			return exit(ExitConflict, err)
		}
		return exit(ExitBadInput, err)
	}
	// Standard output is the JSON report's alone in JSON mode.
	out := c.App.Writer
	if format == diagfmt.JSON {
		out = c.App.ErrWriter
	}
	report(out, c.App.ErrWriter, root, changes)
	return nil
}

// renderRoot is where output goes: --root, else $HOME in global scope and
// the current directory in workspace scope. It must be an existing folder.
func renderRoot(flag string, scope model.Scope) (string, error) {
	root := flag
	if root == "" {
		var err error
		if scope == model.ScopeWorkspace {
			root, err = os.Getwd()
		} else {
			root, err = os.UserHomeDir()
		}
		if err != nil {
			return "", fmt.Errorf("cannot find the render root: %w; pass --root", err)
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("render root: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("render root %s is not a folder", abs)
	}
	return abs, nil
}

// statePath is where agyconf records what it wrote under root. A workspace
// keeps it in the tree, to be committed with the rendered files.
func statePath(root string, scope model.Scope) string {
	if scope == model.ScopeWorkspace {
		return filepath.Join(root, ".agyconf", "state.json")
	}
	return filepath.Join(root, ".local", "state", "agyconf", "state.json")
}

// readSecret reads a secret file, without the one line ending such files
// usually end with (a token with a newline breaks a header).
func readSecret(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	s := strings.TrimSuffix(string(data), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// report prints one line per change, then a summary.
func report(out, errOut io.Writer, root string, changes []apply.Change) {
	counts := map[apply.Action]int{}
	for _, ch := range changes {
		counts[ch.Action]++
		switch ch.Action {
		case apply.Unchanged:
		case apply.Keep:
			fmt.Fprintf(errOut, "agyconf: kept %s: %s\n", ch.Path, ch.Reason)
		default:
			fmt.Fprintf(out, "%-9s %s\n", ch.Action, ch.Path)
		}
	}
	var parts []string
	for _, a := range []apply.Action{apply.Create, apply.Recreate, apply.Update, apply.Adopt, apply.Prune, apply.Keep, apply.Unchanged} {
		if n := counts[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	if len(parts) == 0 {
		parts = []string{"nothing to do"}
	}
	fmt.Fprintf(out, "rendered into %s: %s\n", root, strings.Join(parts, ", "))
}
