package agyhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// State file names are MemPalace's (MemPalace pull request #1633), so a state dir shared
// with its bash hooks keeps one counter and one marker per conversation.
const (
	logName       = "antigravity_hook.log"
	sweepName     = "antigravity_last_sweep"
	countPrefix   = "antigravity_save_count_"
	pendingPrefix = "antigravity_pending_"
	wokePrefix    = "antigravity_woke_"
	// Ours, not MemPalace's: the lock serialises counter updates and
	// marker claims.
	lockName = "antigravity_lock"

	// A mine that has not removed its marker after an hour is presumed
	// dead, so one crash does not stop saving for good.
	pendingFresh   = time.Hour
	sweepEvery     = 24 * time.Hour
	defaultTTLDays = 30
)

// mempalaceDirMissing is MemPalace's first kill switch: without
// ~/.mempalace there is no palace to save into or wake from.
func mempalaceDirMissing(home string) bool {
	if home == "" {
		return true
	}
	fi, err := os.Stat(filepath.Join(home, ".mempalace"))
	return err != nil || !fi.IsDir()
}

func envIn(v string, set ...string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

func hookDisabledByEnv(env Env) bool {
	return envIn(env.getenv("MEMPAL_DISABLE_HOOK"), "1", "true", "TRUE", "yes", "YES")
}

// saveDisabled returns why saving is switched off, or "".
func saveDisabled(env Env) string {
	switch {
	case mempalaceDirMissing(env.Home):
		return "~/.mempalace is not a directory"
	case hookDisabledByEnv(env):
		return "MEMPAL_DISABLE_HOOK is set"
	case envIn(env.getenv("MEMPALACE_HOOKS_AUTO_SAVE"), "false", "FALSE", "0", "no", "NO"):
		return "MEMPALACE_HOOKS_AUTO_SAVE is off"
	case autoSaveOff(env.Home):
		return "config.json has hooks.auto_save false"
	}
	return ""
}

// wakeDisabled returns why waking is switched off, or "". The auto_save
// switches are left out on purpose: they are about writing memories,
// and a user who stops auto-saving may still want to be reminded of what
// is stored. MEMPAL_DISABLE_HOOK turns every MemPalace hook off.
func wakeDisabled(env Env) string {
	switch {
	case mempalaceDirMissing(env.Home):
		return "~/.mempalace is not a directory"
	case hookDisabledByEnv(env):
		return "MEMPAL_DISABLE_HOOK is set"
	}
	return ""
}

// autoSaveOff reads ~/.mempalace/config.json. Only an explicit
// "hooks": {"auto_save": false} disables: a config that cannot be read
// or parsed must not silently stop saving.
func autoSaveOff(home string) bool {
	f, err := openFile(filepath.Join(home, ".mempalace", "config.json"), os.O_RDONLY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return false
	}
	var top, hooks map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil || json.Unmarshal(top["hooks"], &hooks) != nil {
		return false
	}
	return string(bytes.TrimSpace(hooks["auto_save"])) == "false"
}

// ensureStateDir creates the state dir private to the user: it holds
// conversation ids and a log of what the hooks did.
func ensureStateDir(dir string) error {
	if dir == "" {
		return errors.New("no state dir (no home directory)")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// stateTTL is MEMPAL_STATE_TTL_DAYS, with MemPalace's default.
func stateTTL(env Env) time.Duration {
	return time.Duration(parsePositive(env.getenv("MEMPAL_STATE_TTL_DAYS"), defaultTTLDays)) * 24 * time.Hour
}

// sweep deletes per-conversation state older than ttl, at most once a day
// (the marker's mtime says when it last ran), so the state dir does not
// grow with every conversation ever had. It reports whether it ran.
func sweep(dir string, now time.Time, ttl time.Duration) (ran bool, removed int, err error) {
	marker := filepath.Join(dir, sweepName)
	if fi, err := os.Stat(marker); err == nil && isRecent(now, fi.ModTime(), sweepEvery) {
		return false, 0, nil
	}
	if err := touch(marker, now); err != nil {
		return false, 0, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return true, 0, err
	}
	for _, e := range entries {
		name := e.Name()
		woke := strings.HasPrefix(name, wokePrefix)
		if !woke && !strings.HasPrefix(name, countPrefix) && !strings.HasPrefix(name, pendingPrefix) {
			continue
		}
		info, err := e.Info() // lstat: a symlink is removed, never followed
		if err != nil || now.Sub(info.ModTime()) <= ttl {
			continue
		}
		p := filepath.Join(dir, name)
		if woke {
			err = os.RemoveAll(p)
		} else {
			err = os.Remove(p)
		}
		if err == nil {
			removed++
		}
	}
	return true, removed, nil
}

// isRecent reports whether t is within d of now. An mtime far in the
// future (a clock that jumped back) counts as old, or it would hold a
// marker fresh until the clock caught up.
func isRecent(now, t time.Time, d time.Duration) bool {
	age := now.Sub(t)
	return age < d && age > -d
}

func touch(path string, now time.Time) error {
	f, err := openFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chtimes(path, now, now)
}

// bumpCounter adds one to the conversation's Stop count and returns the
// new value. Two Stop hooks of one conversation can overlap, so the
// read-modify-write runs under the state lock, which makes each increment
// atomic for every other hook. The count is rewritten in place: a temp
// file and a rename would cost more than the rest of this path together
// (a new inode per Stop; see docs/benchmarks.md), and the one thing a
// crash in the middle of a 20-byte write can do — garble the count — is
// already handled: a garbled count starts over at 0, as MemPalace's does.
func bumpCounter(dir, id string) (int, error) {
	unlock, err := lockState(dir)
	if err != nil {
		return 0, err
	}
	defer unlock()
	f, err := openFile(filepath.Join(dir, countPrefix+id), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	buf := make([]byte, 32)
	k, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, err
	}
	n := parseCount(buf[:k]) + 1
	out := strconv.Itoa(n) + "\n"
	if _, err := f.WriteAt([]byte(out), 0); err != nil {
		return 0, err
	}
	if err := f.Truncate(int64(len(out))); err != nil {
		return 0, err
	}
	return n, nil
}

// parseCount reads a stored count; a garbled one is 0, so counting starts
// over instead of stopping.
func parseCount(data []byte) int {
	s := strings.TrimSpace(string(data))
	if s == "" || len(s) > 18 {
		return 0
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// pendingBusy reports whether a mine for the conversation is still
// presumed running.
func pendingBusy(path string, now time.Time) bool {
	fi, err := os.Stat(path)
	return err == nil && isRecent(now, fi.ModTime(), pendingFresh)
}

// claimPending creates the pending marker holding token, reclaiming a
// stale one. Check and create happen under the state lock, so of two
// due saves racing for a stale marker only one starts a mine. It
// reports false if a fresh marker is in the way.
func claimPending(dir, path, token string, now time.Time) (bool, error) {
	unlock, err := lockState(dir)
	if err != nil {
		return false, err
	}
	defer unlock()
	if pendingBusy(path, now) {
		return false, nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, err
	}
	f, err := openFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, err
	}
	_, werr := f.WriteString(token + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chtimes(path, now, now)
	}
	if werr != nil {
		_ = os.Remove(path)
		return false, werr
	}
	return true, nil
}

// releasePending removes the marker if it still holds token: after an
// hour another save may have reclaimed it, and that save's mine owns it.
func releasePending(path, token string) bool {
	data, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(data)) != token {
		return false
	}
	return os.Remove(path) == nil
}

// checkTranscript applies MemPalace's checks before a path is handed to
// mempalace mine (which mines the whole directory): an absolute path to
// an existing regular .json/.jsonl file, with no ".." that could point
// the mine somewhere else.
func checkTranscript(p string) error {
	switch {
	case p == "":
		return errors.New("transcriptPath is empty")
	case !filepath.IsAbs(p):
		return errors.New("transcriptPath is not absolute")
	case !strings.HasSuffix(p, ".json") && !strings.HasSuffix(p, ".jsonl"):
		return errors.New("transcriptPath does not end in .json or .jsonl")
	case strings.ContainsRune(p, 0):
		return errors.New("transcriptPath contains a NUL byte")
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if seg == ".." {
			return errors.New("transcriptPath has a .. segment")
		}
	}
	fi, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errors.New("transcript file does not exist")
		}
		return errors.New("transcript file cannot be read")
	}
	if !fi.Mode().IsRegular() {
		return errors.New("transcript is not a regular file")
	}
	return nil
}

// wingFor names the MemPalace wing of a conversation after its first
// workspace folder, as MemPalace's hooks do, restricted to a charset that
// is safe as one argv word and as a palace name.
func wingFor(workspaces []string) string {
	if len(workspaces) == 0 {
		return "wing_sessions"
	}
	w := strings.TrimRight(workspaces[0], "/")
	leaf := strings.ToLower(w[strings.LastIndexByte(w, '/')+1:])
	if leaf == "" {
		return "wing_sessions"
	}
	var b strings.Builder
	b.WriteString("wing_")
	for _, r := range leaf {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
