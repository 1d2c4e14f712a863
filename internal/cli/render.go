package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/trust"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "write Antigravity's files from a config",
		UsageText: "agyconf render --config PATH [--root DIR] [--check | --dry-run] [--diagnostics-format text|json]",
		Description: `Validates the config at PATH, renders every file it describes and writes
them under DIR: $HOME by default in global scope, the current directory in
workspace scope, where it warns when agy's record of trusted folders
(trustedWorkspaces in ~/.gemini/antigravity-cli/settings.json) lists
neither DIR nor a folder above it: agy loads none of an untrusted
workspace's files. The same config gives the same bytes on any machine.

Writes are atomic and stay under DIR. agyconf records what it wrote (its
state: DIR/.local/state/agyconf/ in global scope, DIR/.agyconf/ in a
workspace) and refuses, with exit code 3, to overwrite a file it did not
write or that was edited since; it removes what it wrote that the config no
longer describes, unless edited. --force overwrites edits, --adopt takes
over what agyconf did not write; either backs up what it replaces.

--check changes nothing and exits 1 when the tree is out of date: a render
would change it, or it holds an edit a render keeps or refuses to overwrite
(the CI gate); --dry-run prints what a render would do. Neither creates
anything. The Home Manager module's flags (--after-hm-link,
--defer-secrets, --option-paths, --take-over) are left out of --help:
agyconf man and docs/nix.md describe them.

EXAMPLES:
   agyconf render --config ~/.config/agyconf
   agyconf render --config examples/workspace --root /tmp/demo-project
   agyconf render --config agyconf.hcl --check`,
		Flags: append(applyFlags(),
			&cli.BoolFlag{Name: "check", Usage: "change nothing; exit 1 if the tree is out of date"},
			formatFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "print what a render would do; change nothing"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite files and entries edited since agyconf wrote them (the edited version is backed up)"},
			&cli.BoolFlag{Name: "adopt", Usage: "take over files and entries agyconf did not write, Home Manager links included (the original is backed up)"},
			quietFlag(),
			// The Home Manager module's flags: hidden from help,
			// documented in docs/nix.md.
			&cli.BoolFlag{Name: "defer-secrets", Hidden: true, Usage: "an inline secret that cannot be read yet does not fail the render: what needs it keeps what it holds, or is left out, until a render can read it (the Home Manager module's activation)"},
			&cli.StringFlag{Name: "after-hm-link", Hidden: true, Usage: "with --dry-run: decide as the render after Home Manager links the generation whose home-files folder is `DIR` (the Home Manager module's check before anything changes): links of the generation it replaces are not conflicts"},
		),
		Action: runRender,
	}
}

// applyFlags are the flags of every command that compares a config with
// the live files.
func applyFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "config file or folder (`PATH`); default: $XDG_CONFIG_HOME/agyconf (~/.config/agyconf), where the Home Manager module links it"},
		&cli.StringFlag{Name: "root", Usage: "render into `DIR` instead of the scope's default"},
		&cli.StringFlag{Name: "instance", Usage: "render as the config instance `NAME` (default: the config's own agyconf { instance }, else \"default\"); one per config rendering into a root"},
		// Hidden: moving a config to the Home Manager module (docs/nix.md);
		// the conflict it resolves names it.
		&cli.StringFlag{Name: "take-over", Hidden: true, Usage: "take over everything the instance `NAME` owns under the root, as it is (moving a config to the Home Manager module); its state goes"},
		diagFormatFlag(),
		explainFlag(),
		optionPathsFlag(),
		colorFlag(),
	}
}

// session is a config decided against the live files, under the lock,
// and how the command prints.
type session struct {
	*engine.Session
	format diagfmt.Format
	// warnings are the diagnostics the command printed (it had no
	// errors), for the cache: a render it answers prints them again.
	warnings hcl.Diagnostics
}

// decide loads the config through the engine (every check that depends
// on the config alone, before the root is even opened), checks its
// secrets, prints the diagnostics, and opens the render root: lock,
// state, every path decided. write says the command will write (render,
// clean); a read-only one creates nothing, not even the lock. With
// nothing set, it decides as if the config described nothing (clean).
// The caller closes the session.
func decide(c *cli.Context, nothing, write bool) (*session, error) {
	return decideWith(c, nothing, write, false, false)
}

// decideWith is decide; args says the command takes positional arguments
// of its own; resolve decides as render --force --adopt does (diff: the
// one plan of what a render that resolves every conflict it can writes).
func decideWith(c *cli.Context, nothing, write, args, resolve bool) (*session, error) {
	var path string
	var format diagfmt.Format
	var err error
	if args {
		path, format, err = configFlagsArgs(c)
	} else {
		path, format, err = configFlags(c)
	}
	if err != nil {
		return nil, err
	}
	if root := c.String("root"); root != "" {
		// A root that is not there is said first, and alone: nothing
		// about the config matters until it is.
		if _, err := engine.RenderRoot(root, model.ScopeGlobal); err != nil {
			return nil, exit(ExitBadInput, err)
		}
	}
	cfg := engine.Load(path)
	diags := cfg.Diags
	var secrets, pending map[string]string
	if cfg.OK() && !nothing {
		var sd hcl.Diagnostics
		if c.Bool("defer-secrets") {
			secrets, pending, sd = cfg.PendingSecrets()
		} else {
			secrets, sd = cfg.Secrets(true)
		}
		diags = append(diags, sd...)
	}
	files := cfg.Parser.Files()
	printDiags := func(diags hcl.Diagnostics) error {
		if format == diagfmt.JSON || len(diags) > 0 {
			if err := writeDiags(c, format, files, diags); err != nil {
				return exit(ExitBadInput, err)
			}
		}
		return nil
	}
	if diags.HasErrors() {
		if err := printDiags(diags); err != nil {
			return nil, err
		}
		return nil, exit(ExitBadInput, nil)
	}
	es, err := engine.Open(cfg, engine.Options{
		Root: c.String("root"), Instance: c.String("instance"), TakeOver: c.String("take-over"),
		Write: write, Nothing: nothing,
		Force: c.Bool("force") || resolve, Adopt: c.Bool("adopt") || resolve, AfterHMLink: c.String("after-hm-link"),
		Secrets: secrets, Pending: pending,
		Notify: func(holder string) {
			fmt.Fprintf(c.App.ErrWriter, "agyconf: waiting for %s, which is rendering into the same root\n", holder)
		},
	})
	if err != nil {
		if perr := printDiags(diags); perr != nil {
			return nil, perr
		}
		return nil, exit(ExitBadInput, err)
	}
	// What the run writes into a shared file that agy rejects outside
	// agyconf's entries: about this write, so not recorded in the cache
	// with the config's own warnings (a run that writes nothing there
	// says nothing either).
	printed := diags
	if !nothing {
		live, liveFiles := es.LiveWarnings()
		if len(live) > 0 {
			printed = append(append(hcl.Diagnostics{}, diags...), live...)
			files = maps.Clone(files)
			maps.Copy(files, liveFiles)
		}
		if es.Workspace {
			printed = append(printed, trustWarning(es.Root)...)
		}
	}
	if err := printDiags(printed); err != nil {
		es.Close()
		return nil, err
	}
	for _, n := range es.Notes {
		fmt.Fprintf(info(c, c.App.ErrWriter), "agyconf: %s\n", n)
	}
	return &session{Session: es, format: format, warnings: diags}, nil
}

// trustWarning is the warning for a workspace root agy has not trusted:
// what agy does there depends on this machine, so a warning, never a
// refusal, and never cached (the record changes without the config).
func trustWarning(root string) hcl.Diagnostics {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	if d := trust.Diagnostic(home, root); d != nil {
		return hcl.Diagnostics{d}
	}
	return nil
}

// close releases the session.
func (s *session) close() { s.Close() }

// out is where a command's report goes: standard output, unless that
// belongs to the JSON diagnostics report.
func (s *session) out(c *cli.Context) io.Writer {
	if s.format == diagfmt.JSON {
		return c.App.ErrWriter
	}
	return c.App.Writer
}

func runRender(c *cli.Context) error {
	if c.Bool("check") && c.Bool("dry-run") {
		return exit(ExitBadInput, fmt.Errorf("--check and --dry-run do not go together (see agyconf render --help)"))
	}
	if dir := c.String("after-hm-link"); dir != "" {
		// Only a check may pretend the links already changed: a render
		// writes into the files as they are.
		if !c.Bool("dry-run") {
			return exit(ExitBadInput, fmt.Errorf("--after-hm-link goes with --dry-run only: it decides as the render after Home Manager's linkGeneration will (docs/cli.md)"))
		}
		if !filepath.IsAbs(dir) {
			return exit(ExitBadInput, fmt.Errorf("--after-hm-link: %q is not an absolute path (the home-files folder of a Home Manager generation)", dir))
		}
	}
	if hit, ok := cacheHit(c); ok {
		// The config's warnings, as the render that wrote the cache
		// printed them: a run the cache answers says what one that
		// decodes would.
		warnings := hit.Warnings
		if hit.Workspace {
			warnings = append(warnings[:len(warnings):len(warnings)], trustWarning(hit.Root)...)
		}
		if len(warnings) > 0 {
			if err := writeDiags(c, diagfmt.Text, hit.Files, warnings); err != nil {
				return exit(ExitBadInput, err)
			}
		}
		root := hit.Root
		out := info(c, c.App.Writer)
		switch {
		case c.Bool("check") && c.String("format") == "json":
			return writeReport(out, root, nil, true)
		case c.Bool("check"):
			fmt.Fprintf(out, "%s: in sync\n", root)
		default:
			fmt.Fprintf(out, "rendered into %s: nothing to do (config, inputs and files unchanged since the last render)\n", root)
		}
		return nil
	}
	s, err := decide(c, false, !c.Bool("check") && !c.Bool("dry-run"))
	if err != nil {
		return err
	}
	defer s.close()
	switch {
	case c.Bool("check"):
		if c.String("format") == "json" {
			return writeReport(s.out(c), s.Root, apply.Drift(s.Changes), true)
		}
		return check(s.out(c), info(c, s.out(c)), s.Root, s.Changes)
	case c.Bool("dry-run"):
		report(s.out(c), c.App.ErrWriter, s.Root, s.Changes, "would render into")
		if apply.Refused(s.Changes) {
			// The exit code a render would give: refused, nothing written.
			var conflicts []apply.Change
			for _, ch := range s.Changes {
				if ch.Action == apply.Conflict {
					conflicts = append(conflicts, ch)
				}
			}
			return exit(ExitConflict, fmt.Errorf("a render would be refused: %w", &apply.ConflictError{Changes: conflicts}))
		}
		return nil
	}
	if err := s.execute(c, "rendered into"); err != nil {
		return err
	}
	// Best effort: without a cache the next run only takes longer.
	_ = s.WriteCache(identity(), s.warnings)
	return nil
}

// execute carries out the session's changes and reports them; a refused
// conflict is exit 3.
func (s *session) execute(c *cli.Context, verb string) error {
	if err := s.Execute(); err != nil {
		var ce *apply.ConflictError
		if errors.As(err, &ce) {
			return exit(ExitConflict, err)
		}
		return exit(ExitBadInput, err)
	}
	report(info(c, s.out(c)), c.App.ErrWriter, s.Root, s.Changes, verb)
	return nil
}

// cacheHit tries the short way of a render or check (engine.CacheHit).
func cacheHit(c *cli.Context) (engine.Hit, bool) {
	path, err := configPath(c)
	// Every flag that can change the outcome sends the run the long way:
	// the cache records a plain render.
	if err != nil || c.Bool("dry-run") || c.Bool("force") || c.Bool("adopt") || c.Bool("defer-secrets") || c.String("take-over") != "" || c.String("diagnostics-format") == "json" {
		return engine.Hit{}, false
	}
	return engine.CacheHit(path, c.String("root"), c.String("instance"), c.Bool("check"), identity(), config.InputsUnchanged)
}

// identity names this agyconf build for the cache: a rebuilt binary may
// render differently, so its cache entries do not count.
func identity() string {
	exe, err := os.Executable()
	if err != nil {
		return buildVersion()
	}
	st, err := os.Stat(exe)
	if err != nil {
		return buildVersion()
	}
	return fmt.Sprintf("%s %s %d %d", buildVersion(), exe, st.Size(), st.ModTime().UnixNano())
}

// driftWords name what --check found, in the words of a CI log.
var driftWords = map[apply.Action]string{
	apply.Create:   "missing",
	apply.Recreate: "missing",
	apply.Update:   "changed",
	apply.Adopt:    "changed",
	apply.Found:    "changed",
	apply.Restore:  "stale",
	apply.Release:  "stale",
	apply.Prune:    "stale",
	apply.Keep:     "stale",
	apply.Conflict: "conflict",
}

// check reports drift: exit 1 if a render would change anything.
func check(out, ok io.Writer, root string, changes []apply.Change) error {
	drift := apply.Drift(changes)
	for _, ch := range drift {
		line := fmt.Sprintf("%-8s %s", driftWords[ch.Action], ch.Name())
		if ch.Reason != "" {
			line += ": " + ch.Reason
		}
		fmt.Fprintln(out, line)
	}
	if len(drift) > 0 {
		fmt.Fprintln(out, driftSummary(root, drift))
		return exit(ExitFindings, nil)
	}
	fmt.Fprintf(ok, "%s: in sync\n", root)
	return nil
}

// driftSummary is --check's last line: what a render would do about the
// drift. A render leaves an entry it keeps (edited, no longer in the
// config) as it is, and changes nothing while a conflict is left: for
// those only the user's edit resolves the drift, which each line names.
func driftSummary(root string, drift []apply.Change) string {
	conflicts, kept := 0, 0
	for _, ch := range drift {
		switch ch.Action {
		case apply.Conflict:
			conflicts++
		case apply.Keep:
			kept++
		}
	}
	n, changes := len(drift), len(drift)-conflicts-kept
	head := fmt.Sprintf("%s: %d path(s) out of date", root, n)
	switch {
	case changes == n:
		return head + "; agyconf render would change them"
	case changes == 0:
		return head + " that agyconf render leaves as they are; each line says what resolves it"
	case conflicts > 0:
		return fmt.Sprintf("%s; agyconf render changes none of them while a conflict is left (each line says what resolves it), then %d", head, changes)
	case kept == 1:
		return fmt.Sprintf("%s; agyconf render would change %d, and leaves 1 as it is (its line says what resolves it)", head, changes)
	}
	return fmt.Sprintf("%s; agyconf render would change %d, and leaves %d as they are (their lines say what resolves them)", head, changes, kept)
}

// report prints one line per change, then a summary, in one write: a
// render of thousands of entries should not cost a system call a line.
func report(w, errOut io.Writer, root string, changes []apply.Change, verb string) {
	out := bufio.NewWriter(w)
	defer out.Flush()
	counts := map[apply.Action]int{}
	for _, ch := range changes {
		if ch.Action != apply.Merge {
			counts[ch.Action]++
		}
		switch ch.Action {
		case apply.Unchanged, apply.Merge:
		case apply.Keep:
			fmt.Fprintf(errOut, "agyconf: kept %s: %s\n", ch.Name(), ch.Reason)
		case apply.Pending:
			fmt.Fprintf(errOut, "agyconf: pending %s: %s\n", ch.Name(), ch.Reason)
		default:
			fmt.Fprintf(out, "%-9s %s\n", ch.Action, ch.Name())
		}
	}
	var parts []string
	for _, a := range []apply.Action{apply.Create, apply.Recreate, apply.Update, apply.Adopt, apply.Found, apply.Prune, apply.Restore, apply.Release, apply.Keep, apply.Pending, apply.Conflict, apply.Unchanged} {
		if n := counts[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	if len(parts) == 0 {
		parts = []string{"nothing to do"}
	}
	fmt.Fprintf(out, "%s %s: %s\n", verb, root, strings.Join(parts, ", "))
}
