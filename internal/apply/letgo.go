package apply

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/layout"
)

// Letting go: what the state keeps so that agyconf removes what it made,
// and only that, when the config drops it or on clean — the places an
// earlier layout put files at, the shared files it created, the folders
// it created (docs/design.md, "Applying").

// places is what Decide asks of a path: is it one the layout writes, or
// one an earlier render of this config wrote under an override the state
// records (State.Layout)? A unit the state records anywhere else is
// released, never removed or rewritten: the state was edited, or a cloned
// workspace's is hostile.
func (o Options) places(st *State) func(string) bool {
	if o.Layout == nil {
		return func(string) bool { return true }
	}
	return o.Layout.WithFormer(st.Layout).Writes
}

// keepDirs are the folders a prune never removes for being empty: the
// layout's own, an earlier override's, and their parents. One of them
// that agyconf created goes once nothing of agyconf's is below it
// (State.removeFolders).
func (o Options) keepDirs(st *State) map[string]bool {
	if o.Layout == nil {
		return nil
	}
	return o.Layout.WithFormer(st.Layout).Folders()
}

// recordLayout records the overrides of the layout rendered with, and
// keeps those of earlier renders that units the state records still live
// under: a unit an override put somewhere is let go of properly however
// many renders later the config drops it.
func (s *State) recordLayout(l *layout.Layout) {
	if l == nil {
		return
	}
	next := map[string][]string{}
	for kind, p := range l.Overrides() {
		next[kind] = []string{p}
	}
	var files []string
	for k := range s.Files {
		file, _, _ := strings.Cut(k, unitSep)
		files = append(files, file)
	}
	for kind, paths := range s.Layout {
		for _, p := range paths {
			if slices.Contains(next[kind], p) {
				continue
			}
			if slices.ContainsFunc(files, func(f string) bool { return f == p || strings.HasPrefix(f, p+"/") }) {
				next[kind] = append(next[kind], p)
			}
		}
	}
	for kind := range next {
		sort.Strings(next[kind])
	}
	if len(next) == 0 {
		next = nil
	}
	s.Layout = next
}

// shared is the record of a shared file, made if there is none.
func (s *State) shared(file string) *SharedFile {
	if s.Shared == nil {
		s.Shared = map[string]*SharedFile{}
	}
	if s.Shared[file] == nil {
		s.Shared[file] = &SharedFile{}
	}
	return s.Shared[file]
}

// addFolders records folders a batch is about to create. agyconf's own
// folder and anything in .git are never recorded (a state a cloned
// workspace brings could name them).
func (s *State) addFolders(dirs map[string]bool, opts Options) {
	for d := range dirs {
		if !folderOfOurs(d, opts) || slices.Contains(s.Folders, d) {
			continue
		}
		s.Folders = append(s.Folders, d)
	}
	sort.Strings(s.Folders)
}

func folderOfOurs(d string, opts Options) bool {
	if d == "" || d == "." || path.IsAbs(d) || path.Clean(d) != d || d == ".." || strings.HasPrefix(d, "../") {
		return false
	}
	for _, seg := range strings.Split(d, "/") {
		if seg == ".git" {
			return false
		}
	}
	if opts.Store != nil {
		dir := opts.Store.Dir()
		if d == dir || strings.HasPrefix(d, dir+"/") || strings.HasPrefix(dir, d+"/") {
			return false
		}
	}
	return true
}

// removeFolders removes the folders agyconf created that nothing it
// records lives in any more, when they are empty (or hold only
// temporary files of a render cut short), deepest first, and forgets
// them either way: one that holds something of someone else's is theirs
// now. A folder that is not a folder any more is forgotten, untouched.
func (s *State) removeFolders(opts Options) error {
	if len(s.Folders) == 0 {
		return nil
	}
	needed := map[string]bool{}
	need := func(key string) {
		file, _, _ := strings.Cut(key, unitSep)
		for d := path.Dir(file); d != "." && d != "/" && !needed[d]; d = path.Dir(d) {
			needed[d] = true
		}
	}
	for k := range s.Files {
		need(k)
	}
	for k := range s.Waiting {
		need(k)
	}
	dirs := slices.Clone(s.Folders)
	sort.Slice(dirs, func(i, j int) bool {
		if a, b := strings.Count(dirs[i], "/"), strings.Count(dirs[j], "/"); a != b {
			return a > b
		}
		return dirs[i] < dirs[j]
	})
	var keep []string
	synced := map[string]bool{}
	for _, d := range dirs {
		if !folderOfOurs(d, opts) {
			continue
		}
		if needed[d] || slices.ContainsFunc(keep, func(k string) bool { return strings.HasPrefix(k, d+"/") }) {
			// Something of agyconf's is below it, or a folder it made
			// that stays for now.
			keep = append(keep, d)
			continue
		}
		fi, err := opts.FS.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.IsDir()) {
			continue // gone, or not a folder any more: not agyconf's
		}
		entries, err := opts.FS.ReadDir(d)
		if err != nil {
			keep = append(keep, d) // tried again next time
			continue
		}
		ours := true
		for _, e := range entries {
			ours = ours && strings.HasPrefix(e.Name(), tempPrefix) && e.Type().IsRegular()
		}
		if !ours {
			continue // someone else's now
		}
		for _, e := range entries {
			_ = opts.FS.Remove(path.Join(d, e.Name()))
		}
		if err := opts.FS.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			// Something appeared in it meanwhile, or the removal failed:
			// looked at again next time.
			keep = append(keep, d)
			continue
		}
		if parent := path.Dir(d); !synced[parent] {
			synced[parent] = true
			_ = opts.FS.SyncDir(parent) // best effort: an empty folder that comes back is removed next time
		}
	}
	sort.Strings(keep)
	s.Folders = keep
	if len(s.Folders) == 0 {
		s.Folders = nil
	}
	return nil
}

// TakeOver adds to the state what letting go needs from another
// instance's whose files and entries it takes over (render --take-over):
// the layouts they were written under, the shared files and folders it
// made, the entries it removed.
func (s *State) TakeOver(other *State) {
	for kind, paths := range other.Layout {
		if s.Layout == nil {
			s.Layout = map[string][]string{}
		}
		for _, p := range paths {
			if !slices.Contains(s.Layout[kind], p) {
				s.Layout[kind] = append(s.Layout[kind], p)
			}
		}
	}
	for file, sh := range other.Shared {
		if s.Shared[file] == nil {
			cp := *sh
			s.shared(file)
			s.Shared[file] = &cp
		}
	}
	for _, d := range other.Folders {
		if !slices.Contains(s.Folders, d) {
			s.Folders = append(s.Folders, d)
		}
	}
	sort.Strings(s.Folders)
	for _, g := range other.Gone {
		if s.gone(g.Key) == nil {
			s.Gone = append(s.Gone, g)
		}
	}
	if len(s.Gone) > MaxGone {
		s.Gone = slices.Clone(s.Gone[len(s.Gone)-MaxGone:])
	}
}
