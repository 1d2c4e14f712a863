package agyhook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// save is the Stop hook. Whatever happens it answers {}: a Stop answer
// with decision "continue" would keep the agent running, and a save hook
// that did so on a bug would loop forever (MemPalace pull request #1633).
func (h *hook) save(o options, data []byte, inputErr error) string {
	if why := saveDisabled(h.env); why != "" {
		// The state dir may belong to a palace that is switched off;
		// nothing is written, not even the log.
		return emptyAnswer
	}
	if err := ensureStateDir(o.stateDir); err != nil {
		fmt.Fprintf(h.stderr, "agyhook %s: state dir: %v\n", h.kind, err)
		return emptyAnswer
	}
	h.setLog(o.stateDir)
	now := h.env.now()
	if ran, removed, err := sweep(o.stateDir, now, stateTTL(h.env)); err != nil {
		h.logf("state sweep failed: %v", err)
	} else if ran {
		h.logf("state sweep removed %d old entries", removed)
	}

	if inputErr != nil {
		h.logf("skip: %v", inputErr)
		return emptyAnswer
	}
	p, err := parsePayload(data)
	if err != nil {
		h.logf("skip: %v", err)
		return emptyAnswer
	}
	if !validConversationID(p.ConversationID) {
		h.logf("skip: conversationId missing or not [A-Za-z0-9._-]{1,128}")
		return emptyAnswer
	}
	h.setConv(p.ConversationID)
	if !p.FullyIdle {
		h.logf("defer: not fully idle")
		return emptyAnswer
	}
	if strings.EqualFold(p.TerminationReason, "error") {
		h.logf("skip: terminated by error")
		return emptyAnswer
	}

	count, err := bumpCounter(o.stateDir, p.ConversationID)
	if err != nil {
		h.logf("skip: counter: %v", err)
		return emptyAnswer
	}
	if count%o.interval != 0 {
		h.logf("count %d, next save at a multiple of %d", count, o.interval)
		return emptyAnswer
	}
	marker := filepath.Join(o.stateDir, pendingPrefix+p.ConversationID)
	if pendingBusy(marker, now) {
		h.logf("skip: count %d due, but a save is still pending", count)
		return emptyAnswer
	}
	if err := checkTranscript(p.TranscriptPath); err != nil {
		h.logf("skip: %v", err)
		return emptyAnswer
	}
	wing := wingFor(p.WorkspacePaths)
	mempalace, err := h.resolveMempalace(o)
	if err != nil {
		h.logf("skip: %v", err)
		return emptyAnswer
	}

	token := strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(now.UnixNano(), 10)
	claimed, err := claimPending(o.stateDir, marker, token, now)
	if err != nil || !claimed {
		h.logf("skip: count %d due, pending marker not claimed (%v)", count, err)
		return emptyAnswer
	}
	req := SpawnRequest{
		Marker: marker,
		Token:  token,
		Log:    filepath.Join(o.stateDir, logName),
		Argv:   []string{mempalace, "mine", filepath.Dir(p.TranscriptPath), "--mode", "convos", "--wing", wing},
	}
	spawn := h.env.Spawn
	if spawn == nil {
		spawn = h.spawnSupervisor
	}
	if err := spawn(req); err != nil {
		releasePending(marker, token)
		h.logf("skip: count %d due, starting mine failed: %v", count, err)
		return emptyAnswer
	}
	h.logf("count %d: mining in the background into %s", count, wing)
	return emptyAnswer
}

// resolveMempalace finds the mempalace executable: the --mempalace flag,
// else PATH. A missing one is not an error for agy, only a skipped save.
func (h *hook) resolveMempalace(o options) (string, error) {
	if o.mempalace == "" {
		if h.env.LookPath == nil {
			return "", errors.New("mempalace not found on PATH")
		}
		p, err := h.env.LookPath("mempalace")
		if err != nil {
			return "", errors.New("mempalace not found on PATH")
		}
		return p, nil
	}
	p := o.mempalace
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", errors.New("--mempalace is not an executable file")
	}
	return p, nil
}
