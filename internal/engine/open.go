package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// Options say how to open a loaded config against its render root.
type Options struct {
	// Root is the render root; "" is the scope's default ($HOME in global
	// scope, the current folder in workspace scope).
	Root string
	// Instance names the config's state; "" is the config's own
	// (agyconf { instance }), else DefaultInstance.
	Instance string
	// TakeOver names another instance whose files and entries this one
	// takes over as they are, with their history: its state is merged
	// into this one's before deciding, and removed after the render
	// (moving from a CLI config to the Home Manager module).
	TakeOver string
	// Write says the command will write (render, clean): it takes the lock
	// exclusively, creating it. Without it (--check, --dry-run, diff,
	// status) it takes the lock shared and only if it exists: a read-only
	// command creates nothing.
	Write bool
	// Nothing decides as if the config described nothing: every pristine
	// entry agyconf owns is pruned (clean).
	Nothing bool
	// Force and Adopt as render's flags.
	Force, Adopt bool
	// AfterHMLink decides as the render after Home Manager's
	// linkGeneration will (apply.Options.AfterHMLink): render --dry-run
	// --after-hm-link, the module's preflight.
	AfterHMLink string
	// Secrets are the values Config.Secrets read, so each is read once.
	Secrets map[string]string
	// Pending are the inline secrets Config.PendingSecrets could not read
	// yet, by path: what needs one is left as it is (apply.Options.Pending).
	Pending map[string]string
	// Notify is told whom a writer waits for, when it waits.
	Notify func(holder string)
	// LockWait bounds that wait; 0 is DefaultLockWait.
	LockWait time.Duration
}

// DefaultLockWait bounds how long a render waits for another one into the
// same root before it gives up.
const DefaultLockWait = 60 * time.Second

// Session is a config decided against the live files of its root, under
// the root's lock. Close it.
type Session struct {
	Config *Config
	Root   string
	FS     *confine.Root
	Store  *apply.Store
	// Opts are what apply decided and executes with.
	Opts    apply.Options
	State   *apply.State
	Changes []apply.Change
	// Workspace: the store is committed with the tree and keeps a
	// .gitignore for what is not.
	Workspace bool
	// Notes are said once, before the changes (a config that moved, a
	// state that was migrated).
	Notes []string
	// retire are the states whose units this instance took over: removed
	// once the render is in place.
	retire  []string
	release func()
	// movedTo says where a file an older state records lives now, for the
	// state migration's on-disk step (apply.State.Move); write says the
	// command may move it.
	movedTo func(string) (string, bool)
	write   bool
}

// Open opens the config's render root, checks agyconf's store in it (no
// link at or above anything of its own), takes the lock, loads the states
// and decides every path. Everything that depends on the config alone was
// refused by Load, before any of this.
func Open(c *Config, o Options) (*Session, error) {
	if !c.OK() {
		return nil, fmt.Errorf("engine: Open of a config with errors")
	}
	root, err := RenderRoot(o.Root, c.Model.Agyconf.Scope)
	if err != nil {
		return nil, err
	}
	flag := o.Instance
	if flag == "" {
		flag = c.Model.Agyconf.Instance // the config names its own state
	}
	instance, err := InstanceName(flag)
	if err != nil {
		return nil, err
	}
	plan := c.Plan
	if o.Nothing {
		plan = &render.Plan{}
	}
	return open(plan, root, c.Model.Agyconf, instance, flag == "", o, c)
}

// open is Open for a plan, wherever it came from. unnamed says the
// instance is the default one nobody named.
func open(plan *render.Plan, root string, a model.Agyconf, instance string, unnamed bool, o Options, c *Config) (*Session, error) {
	// A command that only reads keeps the folders it reads open; one that
	// writes reads every name from the root (confine.Options.KeepFolders).
	fsys, err := confine.Open(root, confine.Options{KeepFolders: !o.Write})
	if err != nil {
		return nil, fmt.Errorf("render root: %w", err)
	}
	store := apply.NewStore(fsys, layout.StateDir(a.Scope))
	l := layout.New(a)
	s := &Session{Config: c, Root: root, FS: fsys, Store: store, Workspace: a.Scope == model.ScopeWorkspace, release: func() {}, movedTo: movedTo(l, plan), write: o.Write, Opts: apply.Options{
		FS:          fsys,
		Store:       store,
		Instance:    instance,
		Secrets:     SecretsFrom(o.Secrets),
		Pending:     o.Pending,
		Layout:      &l,
		Force:       o.Force,
		Adopt:       o.Adopt,
		AfterHMLink: o.AfterHMLink,
		ExecBitOnly: a.Scope == model.ScopeWorkspace,
		// A workspace arrives with git clone: its links are not the user's.
		ReadOutsideLinks: a.Scope == model.ScopeGlobal,
	}}
	fail := func(err error) (*Session, error) {
		s.Close()
		return nil, err
	}
	if err := store.Check(instance); err != nil {
		return fail(err)
	}
	wait := o.LockWait
	if wait == 0 {
		wait = DefaultLockWait
	}
	notify := o.Notify
	if notify == nil {
		notify = func(string) {}
	}
	if s.release, err = store.Lock(o.Write, wait, notify); err != nil {
		return fail(err)
	}
	if s.Opts.Others, err = store.LoadOthers(instance); err != nil {
		return fail(err)
	}
	if s.State, err = store.LoadState(instance); err != nil {
		return fail(err)
	}
	cfgPath := ""
	if c != nil {
		cfgPath = recordedPath(c.Abs, root)
	}
	if err := s.migrate(s.State); err != nil {
		return fail(err)
	}
	if err := s.claim(instance, unnamed, cfgPath, o.TakeOver); err != nil {
		return fail(err)
	}
	if o.TakeOver != "" {
		if err := s.takeOver(o.TakeOver); err != nil {
			return fail(err)
		}
	}
	s.State.Instance = instance
	if cfgPath != "" {
		s.State.Config = cfgPath
	}
	if s.Changes, err = apply.Decide(plan, s.State, s.Opts); err != nil {
		return fail(err)
	}
	return s, nil
}

// claim settles whose state this is: a state of an older agyconf under a
// name derived from the config's path becomes the default instance's; a
// config that moved keeps its state, said once; two configs that both
// exist and both claim the unnamed instance are refused, unless the state
// owns nothing (after clean), when the config rendering now takes it. An
// explicit take-over settles which older state is this config's.
func (s *Session) claim(instance string, unnamed bool, cfgPath, takeOver string) error {
	st := s.State
	if unnamed && !s.Store.HasState(instance) && takeOver == "" {
		// States of version 1 were named after the config's path.
		var legacy []string
		for name, other := range s.Opts.Others {
			if other.MigratedFrom() == 1 {
				legacy = append(legacy, name)
			}
		}
		sort.Strings(legacy)
		switch {
		case len(legacy) == 1:
			return s.adopt(legacy[0], fmt.Sprintf("the state %s, which an older agyconf named after the config's path, is now the state of the instance %q", s.Store.StatePath(legacy[0]), instance))
		case len(legacy) > 1:
			return fmt.Errorf("%s holds states of an older agyconf, named after their configs' paths: %s; this config renders as the instance %q: take over the one that is this config's with agyconf render --take-over NAME (once), or name this config's instance with agyconf { instance = \"NAME\" }", s.Store.Dir(), strings.Join(legacy, ", "), instance)
		}
	}
	if st.Config == "" || cfgPath == "" || st.Config == cfgPath {
		return nil
	}
	if !unnamed {
		// A named instance is one owner wherever its config is read from
		// (each Home Manager generation is another store path): nothing
		// to say.
		return nil
	}
	if len(st.Files) == 0 && len(st.Waiting) == 0 {
		// The instance owns nothing (its config was cleaned, or rendered
		// nothing): it prunes nobody, so the config rendering now takes
		// the name, and its backups' records with it.
		return nil
	}
	if claimsUnnamed(st.Config, s.Root) {
		return fmt.Errorf("%s and %s both render into %s as the unnamed instance %q, so each would prune the other's files: give one of them its own instance with agyconf { instance = \"NAME\" } (or --instance NAME)", st.Config, cfgPath, s.Root, instance)
	}
	s.Notes = append(s.Notes, fmt.Sprintf("the config of the instance %q moved from %s to %s; its state follows it", instance, st.Config, cfgPath))
	return nil
}

// recordedPath is a config's path as the state records it: relative to
// the root when it is inside it, so that a committed workspace state is
// the same in every clone; absolute otherwise.
func recordedPath(abs, root string) string {
	if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// claimsUnnamed reports whether a config still exists at path (absolute,
// or relative to root) and renders as the unnamed instance.
func claimsUnnamed(path, root string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(root, filepath.FromSlash(path))
	}
	if _, err := os.Stat(path); err != nil {
		return false
	}
	c := Load(path)
	return c.Model != nil && c.Model.Agyconf.Instance == ""
}

// takeOver merges another instance's state into this one's: every file
// and entry it owns becomes this instance's, with its history, and its
// state goes once the render is in place.
func (s *Session) takeOver(name string) error {
	if _, ok := s.Opts.Others[name]; !ok {
		var names []string
		for n := range s.Opts.Others {
			names = append(names, n)
		}
		sort.Strings(names)
		if len(names) == 0 {
			names = []string{"none"}
		}
		return fmt.Errorf("--take-over %s: no such instance renders into %s (instances there: %s)", name, s.Root, strings.Join(names, ", "))
	}
	return s.adopt(name, fmt.Sprintf("the instance %q takes over everything the instance %q owns", s.Opts.Instance, name))
}

// adopt merges the state of instance name into this session's, migrated
// first as this session's own is.
func (s *Session) adopt(name, note string) error {
	other := s.Opts.Others[name]
	delete(s.Opts.Others, name)
	if err := s.migrate(other); err != nil {
		return err
	}
	for k, f := range other.Files {
		if _, mine := s.State.Files[k]; !mine {
			s.State.Files[k] = f
		}
	}
	s.State.Backups = append(s.State.Backups, other.Backups...)
	s.State.TakeOver(other)
	s.retire = append(s.retire, name)
	s.Notes = append(s.Notes, note)
	return nil
}

// migrate takes the on-disk step of a state read as an older version
// (apply.State.Move), under the lock, before anything is decided: a
// writer moves the files, a read-only command only records where they
// would be. What moved, and what stays and why, is said once.
func (s *Session) migrate(st *apply.State) error {
	if !st.NeedsMove() {
		return nil
	}
	notes, err := st.Move(s.FS, s.Opts.Others, s.movedTo, s.write)
	s.Notes = append(s.Notes, notes...)
	return err
}

// movedTo is where a subagent file an older state records lives now: the
// folder form of the layout (layout.FormerAgent), and only for a subagent
// the plan still writes there and does not write at the former place, so
// that nothing else an older state records can ever be taken for one.
func movedTo(l layout.Layout, plan *render.Plan) func(string) (string, bool) {
	agents, all := map[string]bool{}, map[string]bool{}
	for _, d := range plan.Documents {
		all[d.Path] = true
		if d.Schema == render.SchemaOf(agy.Agents) {
			agents[d.Path] = true
		}
	}
	return func(p string) (string, bool) {
		to, ok := l.FormerAgent(p)
		return to, ok && agents[to] && !all[p]
	}
}

// Close releases the lock and the root.
func (s *Session) Close() {
	s.release()
	s.FS.Close()
}

// gitignore keeps what a workspace's store holds for one machine out of
// the commit: the lock, the cache and backups (which may hold what the
// user had before agyconf, credentials included). The states are
// committed with the rendered tree.
const gitignore = "# The lock of a render in progress, the cache of the last one and backups stay on this machine.\nlock\ncache/\nbackups/\n"

// Execute carries out the decided changes; a conflict is an
// *apply.ConflictError and nothing is written.
func (s *Session) Execute() error {
	if s.Workspace && apply.Writes(s.Changes) && !apply.Refused(s.Changes) {
		if err := s.Store.EnsureFile(".gitignore", []byte(gitignore)); err != nil {
			return err
		}
	}
	if err := apply.Execute(s.Changes, s.State, s.Opts); err != nil {
		return err
	}
	for _, name := range s.retire {
		// Everything it owned is this instance's now.
		if err := s.Store.RemoveState(name); err != nil {
			return fmt.Errorf("the render is in place, but %s could not be removed: %w; remove it by hand", s.Store.StatePath(name), err)
		}
	}
	return nil
}

// SecretValues reads, as well as it can, the value of every secret the
// config names, inline or exec, for a diff to redact wherever it appears:
// a user's own entry may hold the same token.
func (s *Session) SecretValues() []string {
	if s.Config == nil || s.Config.Model == nil {
		return nil
	}
	var paths []string
	for _, ref := range s.Config.Model.SecretRefs {
		paths = append(paths, ref.Path)
	}
	return apply.SecretValues(paths, s.Opts.Secrets)
}

// WriteCache records, after a render that ended in sync, what the next
// render or check needs to answer without decoding, and the warnings
// about the config the render printed, for it to print them again.
// identity names the agyconf build. Only a render may: clean leaves the
// tree as an empty config would.
func (s *Session) WriteCache(identity string, warnings hcl.Diagnostics) error {
	if !apply.InSync(s.Changes) || s.Config == nil || len(s.Config.Model.Inputs) == 0 {
		return nil
	}
	w, err := encodeWarnings(warnings, s.Config.Parser.Files(), s.Config.Path)
	if err != nil {
		return err
	}
	return s.Store.WriteCache(s.Opts.Instance, identity, s.Config.Abs, s.Config.Model.Inputs, s.Changes, s.State, w)
}

// RenderRoot is where output goes: flag, else $HOME in global scope and
// the current folder in workspace scope. It must be an existing folder.
func RenderRoot(flag string, scope model.Scope) (string, error) {
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
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("render root %s does not exist", abs)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("render root %s: %w", abs, err)
	case !st.IsDir():
		return "", fmt.Errorf("render root %s is not a folder", abs)
	}
	return abs, nil
}

// DefaultInstance is the instance of a config that names none: a config
// renders as the default instance of its root, wherever the config is, so
// moving it just works.
const DefaultInstance = "default"

// InstanceName is the instance a config renders as: the name given (the
// flag, or the config's own agyconf { instance }), else DefaultInstance.
func InstanceName(name string) (string, error) {
	if name == "" {
		return DefaultInstance, nil
	}
	if !instanceRe().MatchString(name) {
		return "", fmt.Errorf("instance %q: use letters, digits, \".\", \"_\" and \"-\", starting with a letter or digit, at most 80", name)
	}
	return name, nil
}

var instanceRe = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$`)

// Hit is what a render the cache answers needs: the root, and the
// warnings the render that wrote the cache printed, with the files their
// snippets show.
type Hit struct {
	Root string
	// Workspace: the cache is a workspace render's.
	Workspace bool
	Warnings  hcl.Diagnostics
	Files     map[string]*hcl.File
}

// CacheHit tries the short way of a render or check: the cache of the last
// render that ended in sync says nothing has changed since. It decodes
// nothing, so it tries the store of either scope; the inputs it checks
// include the config itself, scope and all. A check (the CI gate, which
// may run on a pull request's tree) never trusts a workspace's cache,
// which a repository could carry.
func CacheHit(configPath, rootFlag, instanceFlag string, check bool, identity string, inputsUnchanged func([]model.Input) bool) (Hit, bool) {
	for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
		if check && scope == model.ScopeWorkspace {
			continue
		}
		root, err := RenderRoot(rootFlag, scope)
		if err != nil {
			continue
		}
		if hit, ok := func() (Hit, bool) {
			// Stamps only: nothing is written through this root.
			fsys, err := confine.Open(root, confine.Options{KeepFolders: true})
			if err != nil {
				return Hit{}, false
			}
			defer fsys.Close()
			store := apply.NewStore(fsys, layout.StateDir(scope))
			if store.Check("") != nil {
				return Hit{}, false
			}
			raw, ok := store.CacheHit(identity, absPath(configPath), instanceFlag, inputsUnchanged)
			if !ok {
				return Hit{}, false
			}
			warnings, files, ok := decodeWarnings(raw, configPath)
			return Hit{Root: root, Workspace: scope == model.ScopeWorkspace, Warnings: warnings, Files: files}, ok
		}(); ok {
			return hit, true
		}
	}
	return Hit{}, false
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// DecideFresh decides a plan against root as a render with no state and
// the given options would: what import's migration diff shows. It
// writes nothing and creates nothing.
func DecideFresh(plan *render.Plan, root string, a model.Agyconf, o Options) ([]apply.Change, error) {
	fsys, err := confine.Open(root, confine.Options{KeepFolders: true})
	if err != nil {
		return nil, fmt.Errorf("render root: %w", err)
	}
	defer fsys.Close()
	opts := apply.Options{FS: fsys, Store: apply.NewStore(fsys, layout.StateDir(a.Scope)), Adopt: o.Adopt, Force: o.Force, Secrets: render.Redact, ReadOutsideLinks: a.Scope == model.ScopeGlobal}
	return apply.Decide(plan, apply.NewState(), opts)
}

// ConflictDiags are the conflicts a render would refuse, as warnings about
// this machine for validate --config, which judges the config: each at the
// block that wants the path, with the reason and the way out.
func (s *Session) ConflictDiags() hcl.Diagnostics {
	var diags hcl.Diagnostics
	docs := map[string]*render.Document{}
	if s.Config != nil && s.Config.Plan != nil {
		for _, d := range s.Config.Plan.Documents {
			docs[d.Path] = d
		}
	}
	for _, ch := range s.Changes {
		if ch.Action != apply.Conflict {
			continue
		}
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("%s under %s %s", ch.Name(), s.Root, ch.Reason),
			Detail: "agyconf render would refuse it (exit 3) until that is resolved.",
			Extra:  machineCheck("root/conflict")}
		if doc := docs[ch.Path]; doc != nil {
			if rng := doc.OriginOf(ch.Pointer()); rng.Filename != "" {
				d.Subject = &rng
			}
		}
		diags = append(diags, d)
	}
	return diags
}
