package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/model"
)

// tree is the live tree import reads, and the only way the importer
// touches it: every stat, listing and read goes through a confine.Root
// opened at Options.Root, so a symbolic link that leads out of the root
// is never followed unless Options.FollowLinksOut says so, and every read
// is bounded and never blocks on a FIFO or a device.
type tree struct {
	root *confine.Root
	// followOut is Options.FollowLinksOut: a link that leads out of the
	// root is then read by path, wherever it points.
	followOut bool
}

func openTree(dir string, followOut bool) (*tree, error) {
	// import only reads the tree: its folders stay open while it does.
	r, err := confine.Open(dir, confine.Options{KeepFolders: true})
	if err != nil {
		return nil, err
	}
	return &tree{root: r, followOut: followOut}, nil
}

func (t *tree) close() { t.root.Close() }

// byPath reports whether a call the root refused is to be made again by
// path, as import read a home before it had a Root: only when following
// links out was chosen, and only for a link that leads out or nowhere
// (by path, a file that is not there, as it always was). A loop is
// refused either way.
func (t *tree) byPath(err error) bool {
	var le *confine.LinkError
	return t.followOut && errors.As(err, &le) && (le.Reason == confine.LinkOutside || le.Reason == confine.LinkDangling)
}

// stat describes what rel leads to.
func (t *tree) stat(rel string) (fs.FileInfo, error) {
	fi, err := t.root.Stat(rel)
	if t.byPath(err) {
		return os.Stat(t.root.Full(rel))
	}
	return fi, err
}

// readFile reads the regular file rel leads to, of at most limit bytes,
// with what the open file's fstat said.
func (t *tree) readFile(rel string, limit int64) ([]byte, fs.FileInfo, error) {
	data, fi, err := t.root.ReadFile(rel, limit)
	if t.byPath(err) {
		return confine.ReadFileInfo(t.root.Full(rel), limit)
	}
	return data, fi, err
}

// readDir lists the folder rel leads to, sorted by name. What is there is
// looked at first: opening a FIFO to list it would block.
func (t *tree) readDir(rel string) ([]fs.DirEntry, error) {
	fi, err := t.stat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: t.root.Full(rel), Err: syscall.ENOTDIR}
	}
	es, err := t.root.ReadDir(rel)
	if t.byPath(err) {
		return os.ReadDir(t.root.Full(rel))
	}
	return es, err
}

// linkRefused reports a read the tree refused because of a link — one
// that leads out of the root (and is not followed), nowhere, or round in
// a loop — as not imported, once per link, and says whether err was one.
// Nothing is read through such a link, so nothing of what it points to
// can reach the output; the item names the link, which may be a folder
// above rel, and what it says.
func (im *importer) linkRefused(rel string, err error) bool {
	var le *confine.LinkError
	if !errors.As(err, &le) {
		return false
	}
	var reason string
	switch le.Reason {
	case confine.LinkOutside:
		where := "the root"
		if im.opts.Scope == model.ScopeWorkspace {
			where = "the project"
		}
		reason = fmt.Sprintf("is a link to %s, outside %s; agyconf does not read through it", le.Target, where)
	case confine.LinkDangling:
		reason = fmt.Sprintf("is a link to %s, which does not exist; agyconf does not read through it", le.Target)
	case confine.LinkLoop:
		reason = "too many levels of symbolic links (a loop?); agyconf does not read through it"
	default:
		reason = fmt.Sprintf("is a link to %s; agyconf does not read through it", le.Target)
	}
	if rel != le.Link && !strings.HasPrefix(rel, le.Link+"/") {
		// Reached from another name, through a chain of links.
		reason += fmt.Sprintf(" (%s leads to it)", rel)
	}
	it := Item{Kind: KindNotImported, Path: le.Link, Reason: reason}
	if !im.linkItems[it.String()] {
		im.linkItems[it.String()] = true
		im.items = append(im.items, it)
	}
	return true
}

// exists reports whether something is at rel: a file or folder, or a link
// the tree refuses, which the read that follows then reports.
func (im *importer) exists(rel string) bool {
	_, err := im.tree.stat(rel)
	var le *confine.LinkError
	return err == nil || errors.As(err, &le)
}
