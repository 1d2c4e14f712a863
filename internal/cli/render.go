package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "write Antigravity's files from a config",
		UsageText: "agyconf render --config PATH [--root DIR] [--check | --dry-run] [--diagnostics-format text|json]",
		Description: `Validates the config at PATH, renders every file it describes and writes
them under DIR: $HOME by default in global scope, the current directory in
workspace scope. Output is deterministic: the same config gives the same
bytes on any machine.

Writes are atomic and stay under DIR. agyconf records what it wrote (global
scope: DIR/.local/state/agyconf/INSTANCE.json; workspace scope:
DIR/.agyconf/INSTANCE.json) and refuses, with exit code 3, to overwrite a file it did not write or that
was edited since; it removes files it wrote that the config no longer
describes, unless they were edited. Secrets named by secret_file() are read
now, and only into files of mode 0600.

--force overwrites what was edited since agyconf wrote it; --adopt takes
over what agyconf did not write, links into a Home Manager generation
included. Either keeps the version it replaces under the state folder's
backups/.

--check changes nothing and exits 1 when a render would change something,
listing each path as missing, changed, stale or conflicting: the CI gate.
--dry-run prints what a render would do and changes nothing. Neither creates
anything, not even the lock file.

EXAMPLES:
   agyconf render --config ~/.config/agyconf
   agyconf render --config examples/workspace --root /tmp/demo-project
   agyconf render --config agyconf.hcl --check`,
		Flags: append(applyFlags(),
			&cli.BoolFlag{Name: "check", Usage: "change nothing; exit 1 if a render would change something"},
			formatFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "print what a render would do; change nothing"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite files and entries edited since agyconf wrote them (the edited version is backed up)"},
			&cli.BoolFlag{Name: "adopt", Usage: "take over files and entries agyconf did not write, Home Manager links included (the original is backed up)"},
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
		&cli.StringFlag{Name: "instance", Usage: "name this config's state `NAME` (default: from the config's path); one per config rendering into a root"},
		diagFormatFlag(),
		colorFlag(),
	}
}

// session is a config decided against the live files, under the lock.
type session struct {
	config  string // absolute
	inputs  []model.Input
	root    string
	fs      *confine.Root
	store   *apply.Store
	opts    apply.Options
	state   *apply.State
	changes []apply.Change
	release func()
	format  diagfmt.Format
	// workspace: the store is committed with the tree, and keeps a
	// .gitignore for what is not.
	workspace bool
	// secretFiles are every file the config's secret_file() calls name:
	// what a diff must not show, in whatever entry it appears.
	secretFiles []string
}

// secretValues reads, as well as it can, the value of every secret the
// config names, inline or exec, for diff to redact wherever it appears —
// a user's own entry may hold the same token.
func (s *session) secretValues() []string { return apply.SecretValues(s.secretFiles, s.opts.Secrets) }

// close releases the lock and the root.
func (s *session) close() {
	s.release()
	s.fs.Close()
}

// lockWait bounds how long a render waits for another one into the same
// root before it gives up.
const lockWait = 60 * time.Second

// gitignore keeps what a workspace's store holds for one machine out of
// the commit: the lock, the cache and backups (which may hold what the
// user had before agyconf, credentials included). The states are
// committed with the rendered tree.
const gitignore = "# The lock of a render in progress, the cache of the last one and backups stay on this machine.\nlock\ncache/\nbackups/\n"

// decide loads, renders and checks the config, opens the render root,
// takes its lock and decides every path. Everything that depends only on
// the config and the layout is refused before the root is even opened;
// write says whether the command will write (render, clean) or only look
// (--check, --dry-run, diff, status), in which case nothing is created —
// not even the lock. With nothing set, it decides as if the config
// described nothing: every pristine entry agyconf owns is pruned (clean).
// The caller closes the session.
func decide(c *cli.Context, nothing, write bool) (*session, error) {
	path, format, err := configFlags(c)
	if err != nil {
		return nil, err
	}
	p := config.NewParser()
	cfg, diags := p.LoadConfig(path)
	if !diags.HasErrors() {
		diags = append(diags, harness.Expand(cfg)...)
	}
	var plan *render.Plan
	if !diags.HasErrors() {
		var rdiags hcl.Diagnostics
		plan, rdiags = render.Render(cfg, layout.New(cfg.Agyconf))
		diags = append(diags, rdiags...)
	}
	secrets := map[string]string{} // inline secrets, read once
	if !diags.HasErrors() && !nothing {
		diags = append(diags, checkSecrets(cfg, plan, secrets)...)
	}
	if format == diagfmt.JSON || len(diags) > 0 {
		if err := writeDiags(c, format, p, diags); err != nil {
			return nil, exit(ExitBadInput, err)
		}
	}
	if diags.HasErrors() {
		return nil, exit(ExitBadInput, nil)
	}
	if err := plan.Check(); err != nil {
		return nil, exit(ExitBadInput, err)
	}
	if nothing {
		plan = &render.Plan{}
	}
	root, err := renderRoot(c.String("root"), cfg.Agyconf.Scope)
	if err != nil {
		return nil, exit(ExitBadInput, err)
	}
	flag := c.String("instance")
	if flag == "" {
		flag = cfg.Agyconf.Instance // the config names its own state
	}
	instance, err := instanceName(flag, path, root)
	if err != nil {
		return nil, exit(ExitBadInput, err)
	}
	fsys, err := confine.Open(root, confine.Options{})
	if err != nil {
		return nil, exit(ExitBadInput, fmt.Errorf("render root: %w", err))
	}
	store := apply.NewStore(fsys, layout.StateDir(cfg.Agyconf.Scope))
	var secretFiles []string
	for _, ref := range cfg.SecretRefs {
		secretFiles = append(secretFiles, ref.Path)
	}
	s := &session{secretFiles: secretFiles, config: absPath(path), inputs: cfg.Inputs, root: root, fs: fsys, store: store, format: format, release: func() {}, workspace: cfg.Agyconf.Scope == model.ScopeWorkspace, opts: apply.Options{
		FS:          fsys,
		Store:       store,
		Instance:    instance,
		Secrets:     secretsFrom(secrets),
		KeepDirs:    layout.New(cfg.Agyconf).Folders(),
		Force:       c.Bool("force"),
		ExecBitOnly: cfg.Agyconf.Scope == model.ScopeWorkspace,
		Adopt:       c.Bool("adopt"),
		// A workspace arrives with git clone: its links are not the user's.
		ReadOutsideLinks: cfg.Agyconf.Scope == model.ScopeGlobal,
	}}
	fail := func(err error) (*session, error) {
		s.close()
		return nil, exit(ExitBadInput, err)
	}
	if err := store.Check(instance); err != nil {
		return fail(err)
	}
	if s.release, err = store.Lock(write, lockWait, func(holder string) {
		fmt.Fprintf(c.App.ErrWriter, "agyconf: waiting for %s, which is rendering into %s\n", holder, root)
	}); err != nil {
		return fail(err)
	}
	if s.opts.Others, err = store.LoadOthers(instance); err != nil {
		return fail(err)
	}
	if s.state, err = store.LoadState(instance); err == nil {
		s.changes, err = apply.Decide(plan, s.state, s.opts)
	}
	if err != nil {
		return fail(err)
	}
	return s, nil
}

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
	if root, ok := cacheHit(c); ok {
		out := c.App.Writer
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
			return writeReport(s.out(c), s.root, apply.Drift(s.changes), true)
		}
		return check(s.out(c), s.root, s.changes)
	case c.Bool("dry-run"):
		report(s.out(c), c.App.ErrWriter, s.root, s.changes, "would render into")
		return nil
	}
	if err := s.execute(c, "rendered into"); err != nil {
		return err
	}
	// Only a render may record the cache: it alone leaves the tree as the
	// config describes it (clean leaves it as an empty config would).
	if apply.InSync(s.changes) && len(s.inputs) > 0 {
		// Best effort: without a cache the next run only takes longer.
		_ = s.store.WriteCache(s.opts.Instance, identity(), s.config, s.inputs, s.changes)
	}
	return nil
}

// execute carries out the session's changes and reports them; a refused
// conflict is exit 3.
func (s *session) execute(c *cli.Context, verb string) error {
	if s.workspace && apply.Writes(s.changes) && !apply.Refused(s.changes) {
		if err := s.store.EnsureFile(".gitignore", []byte(gitignore)); err != nil {
			return exit(ExitBadInput, err)
		}
	}
	if err := apply.Execute(s.changes, s.state, s.opts); err != nil {
		var ce *apply.ConflictError
		if errors.As(err, &ce) {
			return exit(ExitConflict, err)
		}
		return exit(ExitBadInput, err)
	}
	report(s.out(c), c.App.ErrWriter, s.root, s.changes, verb)
	return nil
}

// cacheHit tries the short way of a render or check: the cache of the
// last render that ended in sync says nothing has changed since. It
// decodes nothing, so it tries the state of either scope; the inputs it
// checks include the config itself, scope and all.
func cacheHit(c *cli.Context) (string, bool) {
	path, err := configPath(c)
	if err != nil || c.Bool("dry-run") || c.Bool("force") || c.Bool("adopt") || c.String("diagnostics-format") == "json" {
		return "", false
	}
	for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
		root, err := renderRoot(c.String("root"), scope)
		if err != nil {
			continue
		}
		instance, err := instanceName(c.String("instance"), path, root)
		if err != nil {
			return "", false
		}
		if hit := func() bool {
			fsys, err := confine.Open(root, confine.Options{})
			if err != nil {
				return false
			}
			defer fsys.Close()
			store := apply.NewStore(fsys, layout.StateDir(scope))
			return store.Check(instance) == nil && store.CacheHit(instance, identity(), absPath(path), config.InputsUnchanged)
		}(); hit {
			return root, true
		}
	}
	return "", false
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
	apply.Prune:    "stale",
	apply.Keep:     "stale",
	apply.Conflict: "conflict",
}

// check reports drift: exit 1 if a render would change anything.
func check(out io.Writer, root string, changes []apply.Change) error {
	drift := apply.Drift(changes)
	for _, ch := range drift {
		line := fmt.Sprintf("%-8s %s", driftWords[ch.Action], ch.Name())
		if ch.Reason != "" {
			line += ": " + ch.Reason
		}
		fmt.Fprintln(out, line)
	}
	if len(drift) > 0 {
		fmt.Fprintf(out, "%s: %d path(s) out of date; agyconf render would change them\n", root, len(drift))
		return exit(ExitFindings, nil)
	}
	fmt.Fprintf(out, "%s: in sync\n", root)
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

// instanceName names a config instance: --instance, or the config's path —
// relative to the root when inside it, so that a committed workspace and
// its clones agree — made safe as a file name. Two configs rendering into
// one root thus keep separate states and never prune each other's entries.
// A config whose path changes every time (a Nix store path) needs
// --instance.
func instanceName(flag, configPath, root string) (string, error) {
	if flag != "" {
		if !instanceRe.MatchString(flag) {
			return "", fmt.Errorf("--instance %q: use letters, digits, \".\", \"_\" and \"-\", starting with a letter or digit", flag)
		}
		return flag, nil
	}
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return "", err
	}
	name := abs
	if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
		name = rel
	}
	name = strings.Trim(unsafeRun.ReplaceAllString(filepath.ToSlash(name), "_"), "_.")
	if name == "" || len(name) > 80 {
		sum := sha256.Sum256([]byte(abs))
		name = strings.Trim(name[max(0, len(name)-60):], "_.") + "-" + hex.EncodeToString(sum[:4])
	}
	return name, nil
}

var (
	instanceRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$`)
	unsafeRun  = regexp.MustCompile(`[^A-Za-z0-9._-]+`)
)

// checkSecrets reports, where the config calls secret_file(), a secret
// that cannot be delivered: an inline secret (written into a file) that
// cannot be read is an error, found before anything is written; an exec
// secret (read by agyhook exec-env when agy starts the server) only
// warns, because sops-nix and agenix often decrypt after activation.
// Neither message ever holds a value.
//
// The values read are kept in values, so the render reads each file once.
func checkSecrets(cfg *model.Config, plan *render.Plan, values map[string]string) hcl.Diagnostics {
	inline := map[string]bool{}
	for _, d := range plan.Documents {
		for _, p := range d.SecretFiles() {
			inline[p] = true
		}
	}
	var diags hcl.Diagnostics
	seen := map[string]bool{} // each file is checked, and reported, at its first call
	for _, ref := range cfg.SecretRefs {
		if seen[ref.Path] {
			continue
		}
		seen[ref.Path] = true
		rng := ref.Range
		if inline[ref.Path] {
			v, err := readSecret(ref.Path)
			if err == nil {
				values[ref.Path] = v
			} else {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Secret unreadable",
					Detail:  fmt.Sprintf("%v. This secret is written into the rendered file (secret_mode \"inline\"), so it must be readable now; nothing was written.", err),
					Subject: &rng})
			}
			continue
		}
		if _, err := os.Stat(ref.Path); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Secret file missing",
				Detail:  fmt.Sprintf("%s does not exist yet. It is read by agyhook exec-env when agy starts the server (secret_mode \"exec\"), so rendering goes on; the server fails to start until the file exists (sops-nix and agenix often decrypt after activation).", ref.Path),
				Subject: &rng})
		}
	}
	return diags
}

// secretsFrom reads secrets from those already read, else from their files.
func secretsFrom(values map[string]string) render.SecretReader {
	return func(path string) (string, error) {
		if v, ok := values[path]; ok {
			return v, nil
		}
		return readSecret(path)
	}
}

// readSecret reads a secret file, without the one line ending such files
// usually end with (a token with a newline breaks a header).
func readSecret(path string) (string, error) {
	// A secret is a token or a key: a FIFO or a device would block or
	// never end, and a huge file is not one. Both are refused at once.
	data, err := confine.ReadFile(path, maxSecretSize)
	var tl *confine.TooLargeError
	if errors.As(err, &tl) {
		return "", fmt.Errorf("%s is larger than %d KiB, too large for a secret", path, maxSecretSize>>10)
	}
	if err != nil {
		return "", err
	}
	s := strings.TrimSuffix(string(data), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// maxSecretSize bounds a secret file, the same bound agyhook exec-env
// applies.
const maxSecretSize = 1 << 20

// report prints one line per change, then a summary.
func report(out, errOut io.Writer, root string, changes []apply.Change, verb string) {
	counts := map[apply.Action]int{}
	for _, ch := range changes {
		if ch.Action != apply.Merge {
			counts[ch.Action]++
		}
		switch ch.Action {
		case apply.Unchanged, apply.Merge:
		case apply.Keep:
			fmt.Fprintf(errOut, "agyconf: kept %s: %s\n", ch.Name(), ch.Reason)
		default:
			fmt.Fprintf(out, "%-9s %s\n", ch.Action, ch.Name())
		}
	}
	var parts []string
	for _, a := range []apply.Action{apply.Create, apply.Recreate, apply.Update, apply.Adopt, apply.Prune, apply.Keep, apply.Conflict, apply.Unchanged} {
		if n := counts[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	if len(parts) == 0 {
		parts = []string{"nothing to do"}
	}
	fmt.Fprintf(out, "%s %s: %s\n", verb, root, strings.Join(parts, ", "))
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
