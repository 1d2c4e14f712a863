package apply

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agyconf/agyconf/internal/config"
)

// MaxLiveFileSize bounds every live file apply reads, and every file it
// writes (what it writes, it must read back next time). agyconf never
// rewrites a file it did not read, and reading one is parsing it into a
// tree: about 70 bytes of memory per byte in the worst case (an array of
// one-digit numbers), so a file at the limit costs about 1 GB, and more is
// refused before it is read. The files agyconf shares with agy are
// kilobytes; a million-element array, written back indented, is 9 MB.
const MaxLiveFileSize = 16 << 20

// nixStore is where Nix keeps its store.
const nixStore = "/nix/store/"

// Writes stay under the render root. Every target's relative path is
// checked segment by segment before anything touches it, and the folders
// above it are resolved: a folder that is a symbolic link is followed, and
// a write or removal whose folder resolves outside the root (itself
// resolved) is refused. Decide reports the refusal as a conflict, so that
// render --check, diff and status show it; the batch checks again right
// before each write, rename and removal, so a link swapped in after the
// decision is caught too. Links that stay inside the root (a dotfile
// manager linking ~/.gemini into ~/dotfiles) keep working. The target
// itself may be a link: that is readLive's and hmLink's business (a rename
// replaces the link, never writes through it).

// container answers whether paths under one root stay there.
type container struct {
	root     string // absolute, clean
	realRoot string // root with its symbolic links resolved
	store    string // the Nix store's folder, with a trailing slash; tests fake one
	cache    map[string]string
}

// newContainer checks paths under root; store is the Nix store's folder,
// "" for the real one.
func newContainer(root, store string) *container {
	if store == "" {
		store = nixStore
	}
	root = filepath.Clean(root)
	return &container{root: root, realRoot: resolveExisting(root), store: store, cache: map[string]string{}}
}

// resolveExisting resolves the symbolic links of the part of p that exists
// and appends the rest: what p will be once its missing folders are made.
func resolveExisting(p string) string {
	var rest []string
	for d := p; ; d = filepath.Dir(d) {
		if real, err := filepath.EvalSymlinks(d); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real
		}
		if d == filepath.Dir(d) {
			return p
		}
		rest = append(rest, filepath.Base(d))
	}
}

// problem returns "" when rel (forward slashes, relative to the root) may
// be written or removed, or the reason it may not, worded to follow the
// path in a message. cached reuses the answers for folders already seen
// (Decide); the batch's checks run afresh.
func (c *container) problem(rel string, cached bool) string {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "is not a path below the render root; agyconf writes only under its root"
	}
	if msg := config.PathProblem(rel); msg != "" {
		return "is not a safe path: " + msg
	}
	dir := filepath.Dir(filepath.Join(c.root, filepath.FromSlash(rel)))
	if cached {
		if r, ok := c.cache[dir]; ok {
			return r
		}
	}
	r := c.dirProblem(dir)
	if cached {
		c.cache[dir] = r
	}
	return r
}

// dirProblem walks dir's segments below the root and checks every one that
// is a symbolic link.
func (c *container) dirProblem(dir string) string {
	rel, err := filepath.Rel(c.root, dir)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "is not a path below the render root; agyconf writes only under its root"
	}
	if rel == "." {
		return ""
	}
	cur := c.root
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "" // missing (agyconf makes it, a real folder) or not a folder (the write fails)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		if r := c.linkProblem(cur); r != "" {
			return r
		}
	}
	return ""
}

// linkProblem checks one symbolic link among a target's folders.
func (c *container) linkProblem(link string) string {
	name := c.relName(link)
	target, err := os.Readlink(link)
	if err != nil {
		return fmt.Sprintf("would be written through %s, a link agyconf cannot read: %v", name, err)
	}
	real, err := filepath.EvalSymlinks(link)
	if err != nil {
		return fmt.Sprintf("would be written through %s, a link to %s, which does not resolve (%v); create what it points to, or replace the link by a folder", name, target, errors.Unwrap(err))
	}
	if inside(c.realRoot, real) {
		return ""
	}
	if c.storeLink(target) || c.storeLink(real) {
		return storeReason(name, target)
	}
	return fmt.Sprintf("would be written through %s, a link to %s, which is outside the render root %s; agyconf writes only under its root: move that folder under the root (or point the link inside it), or render into it directly with --root", name, real, c.root)
}

// relName is a path under the root as messages name it.
func (c *container) relName(p string) string {
	if rel, err := filepath.Rel(c.root, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}

// inside reports whether p is root or below it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
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
	if r := c.problem(rel, true); r != "" {
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

// recheck checks an absolute target again, right before the batch touches
// it.
func (c *container) recheck(target string) error {
	rel, err := filepath.Rel(c.root, target)
	if err != nil {
		return &EscapeError{Path: target, Reason: "is not below the render root"}
	}
	if r := c.problem(filepath.ToSlash(rel), false); r != "" {
		return &EscapeError{Path: target, Reason: r}
	}
	return nil
}

// readBounded reads a live file of at most MaxLiveFileSize bytes: a bigger
// one is refused before it is read, one that grows while read too.
func readBounded(path string, size int64) ([]byte, error) {
	if size > MaxLiveFileSize {
		return nil, sizeError(path, size)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxLiveFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxLiveFileSize {
		return nil, sizeError(path, int64(len(data)))
	}
	return data, nil
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

func sizeError(path string, size int64) error {
	what := fmt.Sprintf("is %d bytes", size)
	if size == MaxLiveFileSize+1 {
		what = "grew past the limit while being read"
	}
	return fmt.Errorf("%s %s; agyconf reads live files of at most %d bytes (16 MiB) and never rewrites one it did not read: move it aside or shrink it", path, what, MaxLiveFileSize)
}

// caseCollision finds two targets whose paths differ only in case: on a
// case-insensitive filesystem (macOS, Windows, where a workspace may be
// checked out) they are one file, and each render would overwrite the
// other's.
func caseCollision(paths []string) error {
	seen := map[string]string{}
	for _, p := range paths {
		k := strings.ToLower(p)
		if first, ok := seen[k]; ok && first != p {
			return fmt.Errorf("%s and %s differ only in case: on a case-insensitive filesystem (macOS, Windows) they are one file; rename one of the entries they come from", first, p)
		}
		seen[k] = p
	}
	return nil
}
