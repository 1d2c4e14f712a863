package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/schema"
)

func hookCommand() *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "work with hooks",
		UsageText: "agyconf hook test EVENT (--config PATH | --hooks FILE) [options]",
		Description: `Commands for the hooks agy runs: hook test runs the handlers of one
event as agy would and checks what they answer (see agyconf hook test
--help).

EXAMPLES:
   agyconf hook test Stop --config ~/.config/agyconf
   agyconf hook test PreToolUse --hooks .agents/hooks.json --allow-exec`,
		Subcommands: []*cli.Command{{
			Name:      "test",
			Usage:     "run the handlers of one event as agy would, and check what they answer",
			UsageText: "agyconf hook test EVENT [--config PATH [--root DIR] | --hooks FILE] [--hook NAME] [--payload FILE] [--allow-exec]",
			Description: `Runs every handler of EVENT (one of hooks.json's events: ` + eventNameList() + `)
the way agy does: through sh -c, with
the event's JSON on stdin, the handler's timeout, and as working directory
the folder that holds the hooks.json (under --root for a config; a note says
when it does not exist yet, and the handler then runs in an empty folder).
The handlers come from an agyconf config (as render would write them; by
default $XDG_CONFIG_HOME/agyconf) or from a live hooks.json.
For PreToolUse and PostToolUse only the groups whose matcher matches the
payload's tool run: a matcher is a pattern the whole tool name must match
("run_command" matches run_command only; "browser_.*" every browser tool;
"" and "*" every tool), as the IDE's bundled docs say.

Each answer is checked against what agy honours for the event (agyconf
schema hook-stdout-…): empty or non-JSON output (a problem: builds were
measured treating it differently — a PreToolUse call blocked on some,
allowed on others — so neither is promised), a PreToolUse answer without
a decision (the docs require one; {"decision": "ask"} leaves the call to
agy's permission flow), permissionOverrides entries that are not
permission entries, unknown fields, a Stop hook that answers "continue"
(it keeps the agent running), a timeout. The deprecated allow_tool and
deny_reason are accepted with a note. Each handler's wall time is
reported: PreInvocation runs before every model call.

The payload is --payload FILE, or a realistic one for the event. Handlers
from a workspace (a config of scope workspace, or a hooks.json under
.agents/, .agent/, _agents/ or _agent/) are someone else's code when the
repository was cloned: they run only with --allow-exec.

Exits 0 when every answer is fine, 1 when one is not, 2 when it cannot run.

EXAMPLES:
   agyconf hook test PreInvocation --config ~/.config/agyconf
   agyconf hook test PreToolUse --hooks ~/.gemini/config/hooks.json --payload call.json`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "take the handlers from the agyconf config (`PATH`)"},
				&cli.StringFlag{Name: "hooks", Usage: "take the handlers from a live hooks.json (`FILE`)"},
				&cli.StringFlag{Name: "hook", Usage: "run only the named hook (`NAME`)"},
				&cli.StringFlag{Name: "payload", Usage: "the event's stdin JSON (`FILE`); default: a realistic one"},
				&cli.StringFlag{Name: "root", Usage: "with --config, the render root (`DIR`) whose folders the handlers run in; default: the scope's"},
				&cli.BoolFlag{Name: "allow-exec", Usage: "run handlers found in a workspace tree"},
				explainFlag(),
			},
			Action: runHookTest,
		}},
	}
}

// eventNameList names every event agy fires, for messages.
func eventNameList() string {
	var names []string
	for _, e := range agy.EventNames() {
		names = append(names, string(e))
	}
	return strings.Join(names, ", ")
}

// parseEvent reads an event as hooks.json spells it, in any case, with or
// without underscores (pre_tool_use, PreToolUse).
func parseEvent(s string) (model.Event, bool) {
	norm := strings.ReplaceAll(strings.ToLower(s), "_", "")
	for _, e := range agy.EventNames() {
		if strings.ToLower(string(e)) == norm {
			return e, true
		}
	}
	return "", false
}

// hookHandler is one handler to run.
type hookHandler struct {
	hook    string
	matcher string // grouped events
	typ     string
	command string
	timeout time.Duration
	dir     string // working directory: the plugin's for plugin hooks
}

// hookTestFlags are the flags of hook test, read again from the words
// after EVENT: urfave/cli v2 stops reading flags at the first argument,
// and the documented form is `hook test EVENT --config …`.
type hookTestFlags struct {
	config, hooks, hook, payload, root string
	allowExec                          bool
}

func readHookTestFlags(c *cli.Context) (hookTestFlags, error) {
	f := hookTestFlags{c.String("config"), c.String("hooks"), c.String("hook"), c.String("payload"), c.String("root"), c.Bool("allow-exec")}
	fs := flag.NewFlagSet("hook test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.config, "config", f.config, "")
	fs.StringVar(&f.config, "c", f.config, "")
	fs.StringVar(&f.hooks, "hooks", f.hooks, "")
	fs.StringVar(&f.hook, "hook", f.hook, "")
	fs.StringVar(&f.payload, "payload", f.payload, "")
	fs.StringVar(&f.root, "root", f.root, "")
	fs.BoolVar(&f.allowExec, "allow-exec", f.allowExec, "")
	if err := fs.Parse(c.Args().Tail()); err != nil {
		return f, errors.New(flagProblem(err, c.Command.Flags))
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("hook test takes one EVENT, got also %q", strings.Join(fs.Args(), " "))
	}
	return f, nil
}

func runHookTest(c *cli.Context) error {
	if c.NArg() == 0 {
		return exit(ExitBadInput, errors.New("hook test needs an EVENT (see agyconf hook test --help)"))
	}
	flags, err := readHookTestFlags(c)
	if err != nil {
		return exit(ExitBadInput, fmt.Errorf("%w (see agyconf hook test --help)", err))
	}
	ev, ok := parseEvent(c.Args().First())
	if !ok {
		return exit(ExitBadInput, fmt.Errorf("unknown event %q: use one of %s", c.Args().First(), eventNameList()))
	}
	cfgPath, hooksPath := flags.config, flags.hooks
	if cfgPath != "" && hooksPath != "" {
		return exit(ExitBadInput, errors.New("hook test takes --config PATH or --hooks FILE, not both (see agyconf hook test --help)"))
	}
	if cfgPath == "" && hooksPath == "" {
		// Like every command that reads a config: the default one.
		def, err := defaultConfig()
		if err != nil {
			return exit(ExitBadInput, fmt.Errorf("hook test needs --config PATH or --hooks FILE: %w (see agyconf hook test --help)", err))
		}
		cfgPath = def
	}
	var docs []hooksFile
	var workspace bool
	if cfgPath != "" {
		docs, workspace, err = hooksFromConfig(c, cfgPath, flags.root)
	} else {
		docs, workspace, err = hooksFromFile(hooksPath)
	}
	if err != nil {
		return err
	}
	for _, d := range docs {
		if d.note != "" {
			fmt.Fprintln(c.App.Writer, "note: "+d.note)
		}
	}
	if workspace && !flags.allowExec {
		return exit(ExitBadInput, errors.New("these hooks come from a workspace tree, which may be someone else's code: pass --allow-exec to run them"))
	}
	payload, err := hookPayload(ev, flags.payload)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	handlers, err := selectHandlers(docs, ev, flags.hook, payload)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	stdinName, stdoutName := schema.HookContract(string(ev))
	v, err := schema.NewValidator(stdinName, stdoutName)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	out := c.App.Writer
	if err := v.ValidateJSON(stdinName, payload); err != nil {
		fmt.Fprintf(out, "note: the payload does not match what agy sends for %s: %v\n", ev, err)
	}
	if len(handlers) == 0 {
		fmt.Fprintf(out, "no handler of %s matches\n", ev)
		return nil
	}
	bad := 0
	for _, h := range handlers {
		problems := runHandler(out, h, ev, payload, v, stdoutName)
		bad += problems
	}
	fmt.Fprintf(out, "%d handler(s) run, %d with problems\n", len(handlers), bad)
	if bad > 0 {
		return exit(ExitFindings, nil)
	}
	return nil
}

// hooksFile is one hooks.json and where its handlers run: agy starts a
// hook in the folder that holds its hooks.json (the IDE's bundled docs; a
// plugin's hooks in the plugin's folder, probed).
type hooksFile struct {
	data []byte
	dir  string
	note string // said before the handlers run
}

// hooksFromConfig renders the config's hooks.json files through the
// engine, as render would write them, each to run in the folder it would
// be written to under the render root (rootFlag, or the scope's default).
func hooksFromConfig(c *cli.Context, path, rootFlag string) ([]hooksFile, bool, error) {
	cfg := engine.Load(path)
	if len(cfg.Diags) > 0 {
		writeDiags(c, "text", cfg.Parser.Files(), cfg.Diags)
	}
	if !cfg.OK() {
		return nil, false, exit(ExitBadInput, nil)
	}
	root, rootErr := engine.RenderRoot(rootFlag, cfg.Model.Agyconf.Scope)
	hooksDocs := map[string]bool{}
	for _, d := range cfg.Plan.Documents {
		hooksDocs[d.Path] = d.Schema == render.SchemaOf(agy.Hooks)
	}
	var out []hooksFile
	for _, d := range cfg.Plan.Documents {
		if d.Schema != render.SchemaOf(agy.Hooks) || pluginHooksCopy(d.Path, hooksDocs) {
			continue
		}
		b, err := d.Bytes(render.Redact)
		if err != nil {
			return nil, false, exit(ExitBadInput, err)
		}
		f := hooksFile{data: b}
		if rootErr != nil {
			f.note = fmt.Sprintf("%v: the handlers of %s run in an empty folder instead of the one that would hold it", rootErr, d.Path)
		} else {
			f.dir = filepath.Join(root, filepath.FromSlash(filepath.Dir(d.Path)))
			if st, err := os.Stat(f.dir); err != nil || !st.IsDir() {
				f.note = fmt.Sprintf("%s does not exist yet (agyconf render makes it): the handlers of %s run in an empty folder instead", f.dir, d.Path)
				f.dir = ""
			}
		}
		out = append(out, f)
	}
	return out, cfg.Model.Agyconf.Scope == model.ScopeWorkspace, nil
}

// pluginHooksCopy reports whether p is a copy of a plugin's hooks in a
// file other than its root hooks.json, which the plan writes too: render
// writes a plugin's hooks to each file builds read them from
// (agy.PluginHooks), and agy runs them once, so they are run once.
func pluginHooksCopy(p string, hooksDocs map[string]bool) bool {
	files := agy.PluginHooksPaths()
	for _, f := range files[1:] {
		if base, ok := strings.CutSuffix(p, "/"+f); ok && hooksDocs[base+"/"+files[0]] {
			return true
		}
	}
	return false
}

var workspaceRoot = lazyre.New(`(^|/)(\.agents|\.agent|_agents|_agent)/`)

func hooksFromFile(path string) ([]hooksFile, bool, error) {
	data, err := confine.ReadFile(path, apply.MaxLiveFileSize)
	if err != nil {
		return nil, false, exit(ExitBadInput, err)
	}
	abs, _ := filepath.Abs(path)
	// agy starts a hook in the folder that holds its hooks.json.
	return []hooksFile{{data: data, dir: filepath.Dir(abs)}}, workspaceRoot().MatchString(filepath.ToSlash(abs)), nil
}

// selectHandlers returns the handlers of ev, in the order agy runs them:
// hooks by name, then groups and handlers as written.
func selectHandlers(docs []hooksFile, ev model.Event, only string, payload []byte) ([]hookHandler, error) {
	tool := ""
	var p struct {
		ToolCall *struct {
			Name string `json:"name"`
		} `json:"toolCall"`
	}
	if json.Unmarshal(payload, &p) == nil && p.ToolCall != nil {
		tool = p.ToolCall.Name
	}
	var out []hookHandler
	for _, doc := range docs {
		var hooks map[string]map[string]json.RawMessage
		if err := json.Unmarshal(doc.data, &hooks); err != nil {
			return nil, fmt.Errorf("hooks.json does not parse: %w (agyconf validate shows where)", err)
		}
		names := make([]string, 0, len(hooks))
		for n := range hooks {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			if only != "" && name != only {
				continue
			}
			if enabled, ok := hooks[name]["enabled"]; ok && string(enabled) == "false" {
				continue
			}
			raw := hooks[name][string(ev)]
			if raw == nil {
				continue
			}
			type handler struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout *int   `json:"timeout"`
			}
			add := func(hs []handler, matcher string) {
				for _, h := range hs {
					t := 30 // the default the sources disagree on (30 or 60): the shorter
					if h.Timeout != nil {
						t = *h.Timeout
					}
					typ := h.Type
					if typ == "" {
						typ = "command"
					}
					out = append(out, hookHandler{hook: name, matcher: matcher, typ: typ, command: h.Command, timeout: time.Duration(t) * time.Second, dir: doc.dir})
				}
			}
			if ev.Grouped() {
				var groups []struct {
					Matcher string    `json:"matcher"`
					Hooks   []handler `json:"hooks"`
				}
				if err := json.Unmarshal(raw, &groups); err != nil {
					return nil, fmt.Errorf("hook %q: %s is not a list of matcher groups: %w", name, ev, err)
				}
				for _, g := range groups {
					if matches(g.Matcher, tool) {
						add(g.Hooks, g.Matcher)
					}
				}
				continue
			}
			var hs []handler
			if err := json.Unmarshal(raw, &hs); err != nil {
				return nil, fmt.Errorf("hook %q: %s is not a list of handlers: %w", name, ev, err)
			}
			add(hs, "")
		}
	}
	return out, nil
}

// matches reports whether a group's matcher selects the tool: "" and "*"
// select every tool, any other matcher is a pattern the whole name must
// match (the IDE's bundled docs: "run_command" matches exactly
// run_command, "browser_.*" any tool starting with browser_).
func matches(matcher, tool string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile(`^(?:` + matcher + `)$`)
	return err == nil && re.MatchString(tool)
}

// runHandler runs one handler and reports it; it returns 1 when the
// handler has a problem.
func runHandler(out io.Writer, h hookHandler, ev model.Event, payload []byte, v *schema.Validator, stdoutSchema string) int {
	label := h.hook
	if h.matcher != "" {
		label += fmt.Sprintf(" (matcher %q)", h.matcher)
	}
	if h.typ != "command" {
		fmt.Fprintf(out, "%s: a %s handler; agyconf runs command handlers only\n", label, h.typ)
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), h.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", h.command)
	// A timeout ends the handler's whole process group, as children of
	// sh -c (a sleep, a pipeline) would otherwise keep it alive.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	dir := h.dir
	if dir == "" {
		// The folder agy would start it in does not exist: an empty one,
		// so a relative command fails here as it would there.
		tmp, err := os.MkdirTemp("", "agyconf-hook-test-")
		if err != nil {
			fmt.Fprintf(out, "%s: cannot make a folder to run in: %v\n", label, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var problems, notes []string
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		problems = append(problems, fmt.Sprintf("timed out after %s: agy kills it and proceeds", h.timeout))
	case strings.TrimSpace(stdout.String()) == "":
		problems = append(problems, "printed nothing: "+noAnswer(ev))
	case !json.Valid(stdout.Bytes()):
		problems = append(problems, "printed something that is not JSON: "+noAnswer(ev))
	default:
		problems, notes = checkAnswer(ev, stdout.Bytes(), v, stdoutSchema)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	status := "ok"
	if len(problems) > 0 {
		status = "PROBLEM"
	}
	fmt.Fprintf(out, "%s: %s  %s  exit %d  %s\n", label, status, wall.Round(time.Millisecond), code, h.command)
	if code != 0 && len(problems) == 0 {
		notes = append(notes, "agy ignores the exit code (dotai; sigil, CLI 1.2.0)")
	}
	for _, p := range problems {
		fmt.Fprintf(out, "  %s\n", p)
	}
	for _, n := range notes {
		fmt.Fprintf(out, "  note: %s\n", n)
	}
	if s := strings.TrimSpace(stderr.String()); s != "" {
		fmt.Fprintf(out, "  stderr (agy shows it to nobody): %s\n", firstLine(s))
	}
	if len(problems) > 0 {
		return 1
	}
	return 0
}

// noAnswer says why output that is no JSON object is a problem: what agy
// does with it is contested, so neither outcome is promised.
func noAnswer(ev model.Event) string {
	fix := "print {}"
	if ev == agy.PreToolUse {
		fix = `print a decision, such as {"decision": "ask"} to leave the call to agy's permission flow`
	}
	return "the IDE's bundled docs have every hook answer with a JSON object, and builds differ on what they do without one (a PreToolUse call was measured blocked on agy 1.0.15 and 1.1.2 and allowed on 1.1.7 and 1.2.0), so neither allowing nor blocking can be counted on; " + fix
}

// checkAnswer checks a JSON answer against the event's stdout contract
// and what the schema cannot say; notes are worth knowing but not wrong.
func checkAnswer(ev model.Event, answer []byte, v *schema.Validator, stdoutSchema string) (problems, notes []string) {
	if verr := v.ValidateJSON(stdoutSchema, answer); verr != nil {
		problems = append(problems, fmt.Sprintf("answer breaks what agy honours for %s (agyconf schema %s): %v", ev, stdoutSchema, verr))
	}
	var a struct {
		Decision            *string         `json:"decision"`
		AllowTool           json.RawMessage `json:"allow_tool"`
		DenyReason          json.RawMessage `json:"deny_reason"`
		PermissionOverrides []any           `json:"permissionOverrides"`
	}
	if json.Unmarshal(answer, &a) != nil {
		return problems, notes
	}
	switch ev {
	case agy.Stop:
		if a.Decision != nil && *a.Decision == "continue" {
			problems = append(problems, `answers "continue": agy keeps the agent running, and a hook that always does so never lets it stop`)
		}
	case agy.PreToolUse:
		for _, f := range []struct {
			name, instead string
			raw           json.RawMessage
		}{{"allow_tool", "decision", a.AllowTool}, {"deny_reason", "reason", a.DenyReason}} {
			if f.raw != nil {
				notes = append(notes, fmt.Sprintf("%s is deprecated: agy still decodes it (a third party's reading of its proto), but write %s instead", f.name, f.instead))
			}
		}
		if a.Decision != nil && *a.Decision == "allow" && len(a.PermissionOverrides) == 0 {
			d, _ := agy.DecisionOf("allow")
			notes = append(notes, fmt.Sprintf("allow is %s (%s)", d.Summary, d.Source))
		}
		for i, o := range a.PermissionOverrides {
			s, isStr := o.(string)
			if !isStr {
				continue // the schema reports it
			}
			if _, ok := agy.ParsePermission(s); !ok {
				problems = append(problems, fmt.Sprintf("permissionOverrides[%d] %q is not a permission entry (action or action(target), with action one of %s, such as \"command(npm test)\"): agy cannot read it as a grant", i, s, strings.Join(agy.PermissionActionNames(), ", ")))
			}
		}
	}
	return problems, notes
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// maxPayloadSize bounds a --payload file: agy's payloads are kilobytes.
const maxPayloadSize = 16 << 20

// hookPayload is the stdin of the event: the file given, or the example of
// the event's stdin contract (schema hook-stdin-…, the fields agy was seen
// sending: the IDE's bundled hooks.md) with this machine's paths: the workspace is the
// current folder, the conversation's folders are under the home folder.
func hookPayload(ev model.Event, file string) ([]byte, error) {
	if file != "" {
		b, err := confine.ReadFile(file, maxPayloadSize)
		if err != nil {
			return nil, err
		}
		if !json.Valid(b) {
			return nil, fmt.Errorf("%s is not JSON", file)
		}
		return b, nil
	}
	stdin, _ := schema.HookContract(string(ev))
	p, err := schema.Example(stdin)
	if err != nil {
		return nil, err
	}
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	conv, _ := p["conversationId"].(string)
	brain := filepath.Join(home, ".gemini", "antigravity-cli", "brain", conv)
	p["workspacePaths"] = []string{cwd}
	p["transcriptPath"] = filepath.Join(brain, ".system_generated", "logs", "transcript_full.jsonl")
	p["artifactDirectoryPath"] = brain
	if call, ok := p["toolCall"].(map[string]any); ok {
		if args, ok := call["args"].(map[string]any); ok {
			if _, ok := args["Cwd"]; ok {
				args["Cwd"] = cwd
			}
		}
	}
	return json.Marshal(p)
}
