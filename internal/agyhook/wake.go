package agyhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

const (
	// wakeDeadline is MemPalace's: PreInvocation blocks the model call,
	// so a slow palace costs one missing reminder, never a slow turn.
	wakeDeadline = 500 * time.Millisecond
	// maxWakeMessage bounds the injected text; the model's context is
	// not the place for a runaway wake-up.
	maxWakeMessage = 64 << 10
)

type injectStep struct {
	EphemeralMessage string `json:"ephemeralMessage"`
}

type wakeAnswer struct {
	InjectSteps []injectStep `json:"injectSteps"`
}

// wake is the PreInvocation hook: once per conversation, inject what
// `mempalace wake-up` prints.
func (h *hook) wake(o options, data []byte, inputErr error) string {
	if wakeDisabled(h.env) != "" {
		return emptyAnswer
	}
	if inputErr != nil {
		h.logExisting(o.stateDir, "skip: %v", inputErr)
		return emptyAnswer
	}
	p, err := parsePayload(data)
	if err != nil {
		h.logExisting(o.stateDir, "skip: %v", err)
		return emptyAnswer
	}
	// PreInvocation fires before every model call: everything after the
	// first call leaves here, without touching the disk. MemPalace fires
	// on invocationNum == 1, but the CLI numbers the first call 0
	// (firstmate, CLI 1.1.22; entire), so the first of 0 or 1 that arrives wins.
	if p.InvocationNum > 1 {
		return emptyAnswer
	}
	if !validConversationID(p.ConversationID) {
		h.logExisting(o.stateDir, "skip: conversationId missing or not [A-Za-z0-9._-]{1,128}")
		return emptyAnswer
	}
	if err := ensureStateDir(o.stateDir); err != nil {
		return emptyAnswer
	}
	h.setLog(o.stateDir)
	h.setConv(p.ConversationID)
	mempalace, err := h.resolveMempalace(o)
	if err != nil {
		h.logf("skip: %v", err)
		return emptyAnswer
	}
	// mkdir is atomic: of two hooks racing on one conversation, one wins.
	if err := os.Mkdir(filepath.Join(o.stateDir, wokePrefix+p.ConversationID), 0o700); err != nil {
		if errors.Is(err, os.ErrExist) {
			h.logf("skip: already woken")
		} else {
			h.logf("skip: woke marker: %v", err)
		}
		return emptyAnswer
	}
	wing := wingFor(p.WorkspacePaths)
	run := h.env.RunWake
	if run == nil {
		run = runWakeProcess
	}
	ctx, cancel := context.WithTimeout(context.Background(), wakeDeadline)
	defer cancel()
	out, err := run(ctx, []string{mempalace, "wake-up", "--wing", wing})
	if err != nil {
		h.logf("wake-up for %s gave nothing: %v", wing, err)
		return emptyAnswer
	}
	msg := wakeMessage(out)
	if msg == "" {
		h.logf("wake-up for %s printed nothing", wing)
		return emptyAnswer
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(wakeAnswer{InjectSteps: []injectStep{{EphemeralMessage: msg}}}); err != nil {
		h.logf("encoding answer: %v", err)
		return emptyAnswer
	}
	h.logf("injected wake-up for %s (%d bytes)", wing, len(msg))
	return buf.String()
}

// wakeMessage trims the output, makes it valid UTF-8 (agy's decoder would
// replace bad bytes anyway, and a schema check would refuse them) and cuts
// it at a rune boundary within maxWakeMessage bytes.
func wakeMessage(out []byte) string {
	s := strings.ToValidUTF8(strings.TrimSpace(string(out)), "\uFFFD")
	if len(s) > maxWakeMessage {
		cut := maxWakeMessage
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimSpace(s[:cut])
	}
	return s
}

// logExisting logs into the state dir only if it already exists: a
// payload the hook cannot use is no reason to create one.
func (h *hook) logExisting(dir, format string, a ...any) {
	if fi, err := os.Stat(dir); dir == "" || err != nil || !fi.IsDir() {
		return
	}
	h.setLog(dir)
	h.logf(format, a...)
}
