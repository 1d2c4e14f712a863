package apply

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// The history of the state's shape and of where artifacts live. Each step
// takes a state one version up: the decoded state (parseState, migrateV1)
// and, where artifacts moved, the files on disk, under the lock (Move).
// Renumber a step with StateVersion when another one lands first.

// agentFolderVersion is the first state version of agyconf writing
// subagents as <name>/agent.md (agy.Agents' Item) instead of the flat
// <name>.md it wrote before (FormerItem): a state read as an older version
// records flat files, which Move puts where they live now.
const agentFolderVersion = 4

// NeedsMove reports whether the state was read as a version whose
// artifacts may be recorded where agyconf no longer writes them.
func (s *State) NeedsMove() bool {
	return s.migratedFrom != 0 && s.migratedFrom < agentFolderVersion
}

// Move is the on-disk step of the migration to agentFolderVersion: every
// whole file the state records at a former place (to gives the place it
// has now, and false for a file that did not move) is moved there, and the
// state records it there, with its history. Only what agyconf owns and
// finds as it wrote it moves; an edited file, a link, or a file at the new
// place that is not agyconf's stays where it is, still recorded there, and
// is said in a note, so nothing of the user's is lost or overwritten (the
// decision that follows treats what stayed as it treats any unit no
// longer in the config). A file the user wrote, which the state does not
// record, is never touched.
//
// Each move is a rename, so a file is at one place or the other whatever
// interrupts the run; a state saved before the render completed still
// says the former place, and the next run finds the file at the new one,
// as agyconf wrote it, and records it there.
//
// With write unset (a read-only command) nothing on disk changes: the
// state records what a render would move where it would be, and the notes
// say a render moves it. others are the other instances' states: a place
// one of them owns is not taken.
func (s *State) Move(fsys FS, others map[string]*State, to func(string) (string, bool), write bool) ([]string, error) {
	var keys []string
	for k, f := range s.Files {
		if !strings.Contains(k, unitSep) && !f.Block && !f.Item {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var notes []string
	for _, from := range keys {
		dst, ok := to(from)
		if !ok || dst == from {
			continue
		}
		note, err := s.move(fsys, others, from, dst, write)
		if err != nil {
			return notes, err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	return notes, nil
}

// move moves one recorded file, or says why it stays.
func (s *State) move(fsys FS, others map[string]*State, from, dst string, write bool) (string, error) {
	f := s.Files[from]
	stays := func(why string) string {
		return fmt.Sprintf("%s %s, so it stays where it is; agyconf writes %s, where agy reads it: delete %s once nothing of yours is left in it (agy may read both)", from, why, dst, from)
	}
	if _, mine := s.Files[dst]; mine {
		return stays("is recorded twice, here and at the place it has now"), nil
	}
	for _, name := range sortedNames(others) {
		if _, theirs := others[name].Files[dst]; theirs {
			return stays(fmt.Sprintf("would move to %s, which the config instance %q owns", dst, name)), nil
		}
	}
	old, err := readLive(fsys, from, false)
	if err != nil {
		return "", fmt.Errorf("moving %s: %w", from, err)
	}
	if fi, err := fsys.Lstat(path.Dir(dst)); err == nil && !fi.IsDir() {
		return stays(fmt.Sprintf("would move into %s, which is not a folder", path.Dir(dst))), nil
	}
	cur, err := readLive(fsys, dst, false)
	if err != nil {
		return "", fmt.Errorf("moving %s: %w", from, err)
	}
	plain := func(l live) bool { return l.exists && l.link == "" && !l.outside }
	switch {
	case !old.exists:
		// Gone, or already moved by a run cut short before it saved the
		// state: recorded at the new place, where a render recreates it
		// or finds it as it wrote it.
		if cur.exists && !(plain(cur) && f.matches(sum(cur.data))) {
			return "", nil // someone else's there now: the decision says so
		}
		s.rekey(from, dst)
		return "", nil
	case !plain(old):
		return stays("is a link"), nil
	case !f.matches(sum(old.data)):
		return stays("was edited since agyconf wrote it (move the edit into the config)"), nil
	case cur.exists && plain(cur) && bytes.Equal(cur.data, old.data):
		// A move cut short between the new file and the old one's removal.
		if write {
			if err := fsys.Remove(from); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("moving %s: %w", from, err)
			}
		}
		s.rekey(from, dst)
		return movedNote(from, dst, write), nil
	case cur.exists:
		return stays(fmt.Sprintf("would move to %s, which exists and is not agyconf's", dst)), nil
	}
	if write {
		if err := fsys.MkdirAll(path.Dir(dst), 0o755); err != nil {
			return "", fmt.Errorf("moving %s: %w", from, err)
		}
		if err := fsys.Rename(from, dst); err != nil {
			return "", fmt.Errorf("moving %s to %s: %w", from, dst, err)
		}
	}
	s.rekey(from, dst)
	return movedNote(from, dst, write), nil
}

func movedNote(from, dst string, write bool) string {
	if write {
		return fmt.Sprintf("moved %s to %s, where agy reads it (state version %d)", from, dst, agentFolderVersion)
	}
	return fmt.Sprintf("a render moves %s to %s, where agy reads it (state version %d)", from, dst, agentFolderVersion)
}

// rekey records a unit at another path, with its history.
func (s *State) rekey(from, to string) {
	s.Files[to] = s.Files[from]
	delete(s.Files, from)
	s.byFile = nil
}

func sortedNames(m map[string]*State) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
