package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// Options say how to open a loaded config against its render root.
type Options struct {
	// Root is the render root; "" is the scope's default ($HOME in global
	// scope, the current folder in workspace scope).
	Root string
	// Instance names the config's state; "" is the config's own
	// (agyconf { instance }) or one derived from its path.
	Instance string
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
	// Secrets are the values Config.Secrets read, so each is read once.
	Secrets map[string]string
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
	release   func()
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
	instance, err := InstanceName(flag, c.Path, root)
	if err != nil {
		return nil, err
	}
	plan := c.Plan
	if o.Nothing {
		plan = &render.Plan{}
	}
	return open(plan, root, c.Model.Agyconf, instance, o, c)
}

// open is Open for a plan, wherever it came from.
func open(plan *render.Plan, root string, a model.Agyconf, instance string, o Options, c *Config) (*Session, error) {
	fsys, err := confine.Open(root, confine.Options{})
	if err != nil {
		return nil, fmt.Errorf("render root: %w", err)
	}
	store := apply.NewStore(fsys, layout.StateDir(a.Scope))
	s := &Session{Config: c, Root: root, FS: fsys, Store: store, Workspace: a.Scope == model.ScopeWorkspace, release: func() {}, Opts: apply.Options{
		FS:          fsys,
		Store:       store,
		Instance:    instance,
		Secrets:     SecretsFrom(o.Secrets),
		KeepDirs:    layout.New(a).Folders(),
		Force:       o.Force,
		Adopt:       o.Adopt,
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
	if s.State, err = store.LoadState(instance); err == nil {
		s.Changes, err = apply.Decide(plan, s.State, s.Opts)
	}
	if err != nil {
		return fail(err)
	}
	return s, nil
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
	return apply.Execute(s.Changes, s.State, s.Opts)
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
// render or check needs to answer without decoding. identity names the
// agyconf build. Only a render may: clean leaves the tree as an empty
// config would.
func (s *Session) WriteCache(identity string) error {
	if !apply.InSync(s.Changes) || s.Config == nil || len(s.Config.Model.Inputs) == 0 {
		return nil
	}
	return s.Store.WriteCache(s.Opts.Instance, identity, s.Config.Abs, s.Config.Model.Inputs, s.Changes)
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
	if err != nil {
		return "", fmt.Errorf("render root: %w", err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("render root %s is not a folder", abs)
	}
	return abs, nil
}

// InstanceName names a config instance: flag, or the config's path —
// relative to the root when inside it, so that a committed workspace and
// its clones agree — made safe as a file name. Two configs rendering into
// one root thus keep separate states and never prune each other's entries.
// A config whose path changes every time (a Nix store path) needs
// --instance.
func InstanceName(flag, configPath, root string) (string, error) {
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

// CacheHit tries the short way of a render or check: the cache of the last
// render that ended in sync says nothing has changed since. It decodes
// nothing, so it tries the store of either scope; the inputs it checks
// include the config itself, scope and all. It returns the root of a hit.
func CacheHit(configPath, rootFlag, instanceFlag, identity string, inputsUnchanged func([]model.Input) bool) (string, bool) {
	for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
		root, err := RenderRoot(rootFlag, scope)
		if err != nil {
			continue
		}
		instance, err := InstanceName(instanceFlag, configPath, root)
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
			return store.Check(instance) == nil && store.CacheHit(instance, identity, absPath(configPath), inputsUnchanged)
		}(); hit {
			return root, true
		}
	}
	return "", false
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
	fsys, err := confine.Open(root, confine.Options{})
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
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Conflict on this machine",
			Detail: fmt.Sprintf("%s under %s %s; agyconf render would refuse it (exit 3) until that is resolved.", ch.Name(), s.Root, ch.Reason),
			Extra:  MachineCheck{}}
		if doc := docs[ch.Path]; doc != nil {
			if rng := doc.OriginOf(ch.Pointer()); rng.Filename != "" {
				d.Subject = &rng
			}
		}
		diags = append(diags, d)
	}
	return diags
}
