package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/render"
)

// MaxLiveFileSize bounds every live file apply reads, and every file it
// writes (what it writes, it must read back next time). agyconf never
// rewrites a file it did not read, and reading one is parsing it into a
// tree: about 70 bytes of memory per byte in the worst case (an array of
// one-digit numbers), so a file at the limit costs about 1 GB, and more is
// refused before it is read. The files agyconf shares with agy are
// kilobytes; a million-element array, written back indented, is 9 MB.
const MaxLiveFileSize = 16 << 20

// nixStore is where Nix keeps its store, as a prefix.
const nixStore = confine.NixStore + "/"

// Writes stay under the render root. The root is opened once (confine.Root)
// and every call below it goes through os.Root, which refuses, in the
// kernel-assisted resolver, any link that leads out: there is no window
// between a check and a use. On top of that, and first, Decide resolves the
// folders of every target and turns a link that leads out, or nowhere, into
// a conflict with a message that says what to do (the Nix store's links
// name the Home Manager option that made them), so that render --check,
// diff and status show it. Links that stay inside the root (a dotfile
// manager linking ~/.gemini into ~/dotfiles), absolute ones included, keep
// working. The target itself may be a link: that is readLive's business (a
// rename replaces the link, never writes through it).

// container answers whether paths under one root stay there.
type container struct {
	fs    FS
	store string // the Nix store's folder, with a trailing slash; tests fake one
	cache map[string]string
}

// newContainer checks paths under fsys; store is the Nix store's folder,
// "" for the real one.
func newContainer(fsys FS, store string) *container {
	if store == "" {
		store = nixStore
	}
	return &container{fs: fsys, store: store, cache: map[string]string{}}
}

// problem returns "" when rel (forward slashes, relative to the root) may
// be written or removed, or the reason it may not, worded to follow the
// path in a message.
func (c *container) problem(rel string) string {
	if !fs.ValidPath(rel) || rel == "." {
		return "is not a path below the render root; agyconf writes only under its root"
	}
	if msg := config.PathProblem(rel); msg != "" {
		return "is not a safe path: " + msg
	}
	dir := path.Dir(rel)
	if r, ok := c.cache[dir]; ok {
		return r
	}
	_, err := c.fs.Resolve(dir)
	r := c.linkReason(err)
	c.cache[dir] = r
	return r
}

// linkReason words the refusal of a folder link for a message.
func (c *container) linkReason(err error) string {
	var le *confine.LinkError
	if err == nil || !errors.As(err, &le) {
		return "" // resolved, or a plain error the write will meet and report
	}
	name := le.Link
	switch le.Reason {
	case confine.LinkDangling:
		return fmt.Sprintf("would be written through %s, a link to %s, which does not exist; create what it points to, or replace the link by a folder", name, le.Target)
	case confine.LinkLoop:
		return fmt.Sprintf("would be written through %s, which is a loop of symbolic links; replace it by a folder", name)
	case confine.LinkOutside:
		if c.storeLink(le.Target) || c.storeLink(le.Leads) {
			return storeReason(name, le.Target)
		}
		return fmt.Sprintf("would be written through %s, a link to %s, which is outside the render root %s; agyconf writes only under its root: move that folder under the root (or point the link inside it), or render into it directly with --root", name, le.Leads, c.fs.Dir())
	}
	return fmt.Sprintf("would be written through %s: %v", name, le)
}

// storeLink reports whether a link target is in the Nix store or in a Home
// Manager generation's files (the same test as hmLink's).
func (c *container) storeLink(target string) bool {
	return strings.HasPrefix(target, c.store) || strings.Contains(target, "home-manager-files")
}

// storeReason explains a folder linked into the Nix store: Home Manager
// made it, from an option that writes the whole folder, and the store is
// read-only.
func storeReason(name, target string) string {
	return fmt.Sprintf("would be written through %s, a link into the Nix store (%s), most likely made by a Home Manager option that links the whole folder: home.file.%q (or xdg.configFile), or programs.antigravity-cli. The store is read-only and --adopt cannot change that: drop the option (agyconf renders the files it held) and run home-manager switch, then render again", name, target, name)
}

// refuse returns the conflict for a path that escapes, and whether it does.
func (c *container) refuse(rel string) (Change, bool) {
	if r := c.problem(rel); r != "" {
		return Change{Path: rel, Action: Conflict, Reason: r}, true
	}
	return Change{}, false
}

// EscapeError is a write the batch refused at the last moment: a folder on
// the way to the target became a link out of the root after the decision.
type EscapeError struct {
	Path   string
	Reason string
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("%s %s (it changed during the render; what was not yet written is left as it was)", e.Path, e.Reason)
}

// checkWriteSizes refuses to write a file agyconf could not read back.
func checkWriteSizes(changes []Change) error {
	for _, c := range changes {
		if len(c.data) > MaxLiveFileSize {
			return fmt.Errorf("%s would be %d bytes; agyconf writes and reads files of at most %d bytes (16 MiB); nothing was written", c.Path, len(c.data), MaxLiveFileSize)
		}
	}
	return nil
}

// sizeError words a live file over the limit.
func sizeError(name string, err *confine.TooLargeError) error {
	what := fmt.Sprintf("is %d bytes", err.Size)
	if err.Size < 0 {
		what = "grew past the limit while being read"
	}
	return fmt.Errorf("%s %s; agyconf reads live files of at most %d bytes (16 MiB) and never rewrites one it did not read: move it aside or shrink it", name, what, MaxLiveFileSize)
}

// caseCollision refuses two documents whose paths differ only in case.
// Render reports it, located, before anything is locked or written; this
// is the same check for every other caller of Decide.
func caseCollision(plan *render.Plan) error {
	if a, b := plan.CaseCollision(); a != nil {
		return fmt.Errorf("%s and %s differ only in case: on a case-insensitive filesystem (macOS, Windows) they are one file; rename one of the entries they come from", a.Path, b.Path)
	}
	return nil
}

// problemNow checks rel afresh, without the answers Decide cached.
func (c *container) problemNow(rel string) string {
	delete(c.cache, path.Dir(rel))
	return c.problem(rel)
}
