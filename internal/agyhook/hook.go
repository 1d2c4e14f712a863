package agyhook

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

type hookKind int

const (
	saveHook hookKind = iota
	wakeHook
)

func (k hookKind) String() string {
	if k == saveHook {
		return "mempalace-save"
	}
	return "mempalace-wake"
}

// emptyAnswer is the answer that changes nothing for every event: for Stop
// it lets the agent stop, for PreInvocation it injects nothing.
const emptyAnswer = "{}\n"

const defaultInterval = 15

// options are a hook's settings after precedence: flag, then environment,
// then default.
type options struct {
	interval  int
	stateDir  string
	mempalace string // "" resolves mempalace on PATH
}

// hook is one run of a hook subcommand.
type hook struct {
	kind   hookKind
	env    Env
	stderr io.Writer

	// The watchdog logs from another goroutine than the one doing the
	// work, so the log target is guarded.
	mu      sync.Mutex
	logPath string
	conv    string
}

// runHook answers exactly once: the hook's own answer, {} after a panic,
// or {} from the watchdog, whichever comes first. agy waits for EOF on
// stdout, and a hook that answered late or twice would cost a turn or
// fail the event.
func runHook(kind hookKind, args []string, stdin io.Reader, stdout, stderr io.Writer, env Env) int {
	h := &hook{kind: kind, env: env, stderr: stderr}
	var once sync.Once
	answer := func(b string) {
		once.Do(func() { _, _ = io.WriteString(stdout, b) })
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(stderr, "agyhook %s: internal error: %v\n", kind, r)
				h.logf("internal error recovered: %v", r)
				answer(emptyAnswer)
			}
		}()
		answer(h.run(args, stdin))
	}()
	wd := env.Watchdog
	if wd <= 0 {
		wd = DefaultWatchdog
	}
	t := time.NewTimer(wd)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		answer(emptyAnswer)
		h.logf("watchdog: no answer after %s, answered {}", wd)
	}
	return 0
}

func (h *hook) run(args []string, stdin io.Reader) string {
	// Read the payload before anything else, even when the flags are bad:
	// agy writes it all, and a hook that exits unread may fail the write.
	data, inputErr := readPayload(stdin)
	opts, err := parseOptions(h.kind, args, h.env)
	if err != nil {
		fmt.Fprintf(h.stderr, "agyhook %s: %v\n", h.kind, err)
		// Log only into a state dir that already exists: bad flags are no
		// reason to create one.
		if fi, serr := os.Stat(opts.stateDir); opts.stateDir != "" && serr == nil && fi.IsDir() {
			h.setLog(opts.stateDir)
			h.logf("bad arguments: %v", err)
		}
		return emptyAnswer
	}
	if h.kind == saveHook {
		return h.save(opts, data, inputErr)
	}
	return h.wake(opts, data, inputErr)
}

// parseOptions applies flag > environment > default. On error the
// returned options still carry the state dir from the environment or the
// default, so the error can be logged there.
func parseOptions(kind hookKind, args []string, env Env) (options, error) {
	fs := flag.NewFlagSet(kind.String(), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var interval, stateDir, mempalace string
	if kind == saveHook {
		fs.StringVar(&interval, "interval", "", "")
	}
	fs.StringVar(&stateDir, "state-dir", "", "")
	fs.StringVar(&mempalace, "mempalace", "", "")
	err := fs.Parse(args)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if errors.Is(err, flag.ErrHelp) {
		err = errors.New("help requested: this command is run by agy, see `agyhook -h`")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var o options
	switch {
	case set["state-dir"] && stateDir != "":
		o.stateDir = stateDir
	case env.getenv("MEMPAL_STATE_DIR") != "":
		o.stateDir = env.getenv("MEMPAL_STATE_DIR")
	case env.Home != "":
		o.stateDir = filepath.Join(env.Home, ".mempalace", "hook_state")
	}
	if err != nil {
		return o, err
	}
	o.mempalace = mempalace
	if set["interval"] {
		o.interval = parseInterval(interval)
	} else {
		o.interval = parseInterval(env.getenv("MEMPAL_SAVE_INTERVAL"))
	}
	return o, nil
}

// parseInterval follows MemPalace's rule for MEMPAL_SAVE_INTERVAL: digits
// only, leading zeros stripped, and anything else or below 1 means the
// default, so a typo never turns saving off or makes it run every stop.
func parseInterval(s string) int {
	return parsePositive(s, defaultInterval)
}

func parsePositive(s string, def int) int {
	if s == "" || len(s) > 64 {
		return def
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return def
		}
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return def
	}
	return n
}

// setLog points the decision log at the state dir once it is known to be
// usable.
func (h *hook) setLog(stateDir string) {
	h.mu.Lock()
	h.logPath = filepath.Join(stateDir, logName)
	h.mu.Unlock()
}

func (h *hook) setConv(id string) {
	h.mu.Lock()
	h.conv = id
	h.mu.Unlock()
}

// logf appends one line about a decision. Lines name the conversation id
// and never payload contents or environment values: the log sits next to
// the user's memory and may be attached to bug reports.
func (h *hook) logf(format string, a ...any) {
	h.mu.Lock()
	path, conv := h.logPath, h.conv
	h.mu.Unlock()
	if path == "" {
		return
	}
	line := h.env.now().UTC().Format(time.RFC3339) + " " + h.kind.String()
	if conv != "" {
		line += " conv=" + conv
	}
	line += ": " + fmt.Sprintf(format, a...) + "\n"
	appendLog(path, line)
}

func appendLog(path, line string) {
	f, err := openFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line)
	_ = f.Close()
}
