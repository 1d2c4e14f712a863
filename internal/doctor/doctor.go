// Package doctor asks agy what it actually loaded and compares that with
// what a config renders: for each named hook, MCP server, skill,
// permission rule and subagent of the engine's plan (never a re-read of
// the files), loaded, not loaded, or not checked, and for what is not
// loaded the causes it can establish.
//
// It only reads. It runs agy's read-only reports (agy.Reports: the
// version, /hooks, /skills and /permissions in print mode, `mcp list`),
// each bounded in time, and never one that could start a model turn: a
// slash command is sent only to builds that answer it locally, never when
// the config names a skill or workflow after it, never again once an
// answer came from a model, and every argv passes Allowed. The causes
// come from agy's log, validate's rules run on the live file, the
// workspace's trust, the version table of internal/agy, and the plugins'
// enablement in config.json.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/render"
)

// DefaultTimeout bounds each run of agy: a print-mode run starts agy's
// language server, which takes a few seconds.
const DefaultTimeout = 30 * time.Second

// Options are one doctor run's inputs.
type Options struct {
	// Plan is what the config renders; Scope its scope.
	Plan  *render.Plan
	Scope agy.Scope
	// Root is the absolute render root.
	Root string
	// Agy is the agy program to run ("" when none was found: NotFound
	// says why).
	Agy      string
	NotFound error
	// Env is the environment agy runs with, HOME aside: doctor sets HOME
	// to Root in global scope and to Home in a workspace.
	Env  []string
	Home string
	// Timeout bounds each run of agy (DefaultTimeout when zero).
	Timeout time.Duration
	// Run runs agy (ExecRunner when nil).
	Run Runner
	// Files reads what doctor reads besides agy's answers (OSFiles when
	// nil).
	Files Files
}

// Files are doctor's reads of the machine: the live files the plan
// writes, agy's log, settings and user config. Every one only reads.
type Files interface {
	// Read reads a regular file of at most limit bytes.
	Read(path string, limit int64) ([]byte, error)
	// Size is a regular file's size; ReadTail reads it from an offset.
	Size(path string) (int64, error)
	ReadTail(path string, from, limit int64) ([]byte, error)
	// Resolve is path with its links resolved, or path.
	Resolve(path string) string
	// Lint runs validate's rules on the file at path, judged for agy v.
	Lint(path string, v agy.Version) ([]lint.Finding, error)
}

// Item statuses.
const (
	Loaded     = "loaded"
	NotLoaded  = "not loaded"
	NotChecked = "not checked"
)

// Report statuses.
const (
	Answered = "answered"
	NotAsked = "not asked"
	Failed   = "failed"
)

// Item is the verdict on one expected thing.
type Item struct {
	Kind   Kind   `json:"kind"`
	Name   string `json:"name"`
	File   string `json:"file"`
	Plugin string `json:"plugin,omitempty"`
	// List is a permission's list (allow, ask, deny).
	List   string `json:"list,omitempty"`
	Status string `json:"status"`
	// Detail says what agy answered, or why it was not checked.
	Detail string `json:"detail,omitempty"`
	// Causes are what doctor established of why it is not loaded.
	Causes []string `json:"causes,omitempty"`
	// Fix is what to do, when doctor knows.
	Fix string `json:"fix,omitempty"`
}

// ReportRun is one of agy's reports: asked and answered, not asked (and
// why), or failed (and how to fix it).
type ReportRun struct {
	ID      agy.ReportID `json:"id"`
	Command string       `json:"command"`
	Status  string       `json:"status"`
	Why     string       `json:"why,omitempty"`
	Fix     string       `json:"fix,omitempty"`
}

// Result is a doctor run's answer.
type Result struct {
	Agy struct {
		Path    string `json:"path,omitempty"`
		Version string `json:"version,omitempty"`
	} `json:"agy"`
	Scope string `json:"scope"`
	Root  string `json:"root"`
	// Home is the HOME agy ran with.
	Home    string       `json:"home"`
	Reports []*ReportRun `json:"reports"`
	Items   []Item       `json:"items"`
	// Log is what agy's log said while doctor asked it.
	Log struct {
		File  string   `json:"file"`
		Lines []string `json:"lines"`
	} `json:"log"`
	Notes []string `json:"notes"`
	// Unchecked names the plan's other documents, which no report covers.
	Unchecked []string `json:"unchecked"`
	// Problem says why agy could not be asked at all, and how to fix it.
	Problem *Problem `json:"problem,omitempty"`
}

// Problem is why agy could not be asked.
type Problem struct {
	What string `json:"what"`
	Fix  string `json:"fix"`
}

// Exit codes (docs/cli.md).
const (
	ExitLoaded    = 0 // everything checked is loaded
	ExitNotLoaded = 1 // something rendered is not loaded
	ExitCannotAsk = 2 // agy cannot be asked
)

// Code is the exit code of the result: 2 when agy could not be asked or
// a report it was asked failed (the answer is then incomplete, whatever
// else it found), else 1 when something is not loaded, else 0.
func (r *Result) Code() int {
	if r.Problem != nil {
		return ExitCannotAsk
	}
	for _, rr := range r.Reports {
		if rr.Status == Failed {
			return ExitCannotAsk
		}
	}
	for _, it := range r.Items {
		if it.Status == NotLoaded {
			return ExitNotLoaded
		}
	}
	return ExitLoaded
}

// Allowed says whether argv (after the agy program) is one of the reports
// doctor reads, with nothing but an absolute --add-dir added: the one
// check every run of agy passes, so nothing else can be run.
func Allowed(args []string) bool {
	addDir := len(args) >= 2 && args[len(args)-2] == "--add-dir"
	if addDir {
		if !filepath.IsAbs(args[len(args)-1]) {
			return false
		}
		args = args[:len(args)-2]
	}
	for _, r := range agy.Reports() {
		if r.Read && slices.Equal(r.Args, args) && (!addDir || r.Slash() != "") {
			return true
		}
	}
	return false
}

// Diagnose asks agy and compares.
func Diagnose(ctx context.Context, o Options) *Result {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Run == nil {
		o.Run = ExecRunner{}
	}
	if o.Files == nil {
		o.Files = OSFiles{}
	}
	d := &diagnosis{o: o, plan: Expect(o.Plan, o.Scope), lints: map[string][]string{}}
	d.home = o.Root
	if o.Scope == agy.ScopeWorkspace {
		d.home = o.Home
	}
	d.res.Scope, d.res.Root, d.res.Home = string(o.Scope), o.Root, d.home
	d.res.Agy.Path = o.Agy
	d.res.Reports, d.res.Items, d.res.Notes, d.res.Log.Lines = []*ReportRun{}, []Item{}, []string{}, []string{}
	d.res.Unchecked = []string{}
	for what, n := range d.plan.Unchecked {
		if n > 1 {
			what = fmt.Sprintf("%s (%d)", what, n)
		}
		d.res.Unchecked = append(d.res.Unchecked, what)
	}
	slices.Sort(d.res.Unchecked)
	d.run(ctx)
	return &d.res
}

type diagnosis struct {
	o       Options
	plan    Plan
	res     Result
	home    string
	version agy.Version
	// answers of the reports that were answered.
	hooks       []HookEntry
	servers     []ListedServer
	skills      []SkillEntry
	permissions []PermissionScope
	// asked holds each report's run; why a kind is not checked.
	asked map[agy.ReportID]*ReportRun
	// turned says an answer came from a model turn: nothing more is asked.
	turned bool
	// blocks are agy's log while doctor asked it.
	blocks []LoadBlock
	// lints are validate's findings per live file, run once each.
	lints map[string][]string
	trust trust
	// logErr is why agy's log could not be read.
	logErr error
}

func (d *diagnosis) run(ctx context.Context) {
	d.asked = map[agy.ReportID]*ReportRun{}
	if d.o.Agy == "" {
		why := "agy was not found"
		if d.o.NotFound != nil {
			why = d.o.NotFound.Error()
		}
		d.res.Problem = &Problem{What: why, Fix: "install the Antigravity CLI (agy) or pass --agy PATH"}
		d.verdicts()
		return
	}
	rv := agy.ReportOf(agy.ReportVersion)
	out, rr := d.ask(ctx, rv)
	if rr.Status != Answered {
		d.res.Problem = &Problem{What: rr.Why, Fix: rr.Fix}
		d.verdicts()
		return
	}
	v, err := ParseVersion(out)
	if err != nil {
		rr.Status, rr.Why, rr.Fix = Failed, err.Error(), unreadableFix
		d.res.Problem = &Problem{What: err.Error(), Fix: unreadableFix}
		d.verdicts()
		return
	}
	d.version = v
	d.res.Agy.Version = v.String()

	needed := d.needed()
	if len(needed) > 0 && !slices.ContainsFunc(needed, func(r agy.Report) bool { return v.AtLeast(r.Since) }) {
		var names []string
		for _, r := range needed {
			names = append(names, fmt.Sprintf("%s needs %s", command(r), r.Since))
		}
		d.res.Problem = &Problem{
			What: fmt.Sprintf("agy %s is too old for every report this config needs (%s): an older build would take a slash command as a prompt for the model", v, strings.Join(names, ", ")),
			Fix:  "install a newer agy (each report's first build is named), then run agyconf doctor again",
		}
		d.verdicts()
		return
	}
	logFile := filepath.Join(d.home, ".gemini", "antigravity-cli", "cli.log")
	d.res.Log.File = logFile
	before, sizeErr := d.o.Files.Size(logFile)
	for _, r := range needed {
		d.askReport(ctx, r)
	}
	d.readLog(logFile, before, sizeErr)
	if d.o.Scope == agy.ScopeWorkspace {
		d.trust = d.readTrust()
		if d.trust == untrusted {
			d.res.Notes = append(d.res.Notes, fmt.Sprintf("%s is not among the trustedWorkspaces of %s: agy started there loads nothing of its .agents/ until you trust the folder at agy's prompt (doctor asked with --add-dir, which may list what an agy started there does not load)", d.o.Root, d.settingsPath()))
		}
	}
	d.verdicts()
}

// unreadableFix is the advice for an answer doctor cannot read.
const unreadableFix = "this build answers in a shape agyconf doctor does not know (docs/doctor.md lists those it reads): run the command yourself, and report the answer with agy --version to agyconf"

// needed are the reports the plan's items call for, in the order doctor
// asks them.
func (d *diagnosis) needed() []agy.Report {
	want := map[agy.ReportID]bool{}
	for _, it := range d.plan.Items {
		if !it.CLIReads || it.PluginOff {
			continue
		}
		switch it.Kind {
		case KindHook:
			want[agy.ReportHooks] = true
		case KindServer:
			if d.o.Scope == agy.ScopeGlobal {
				want[agy.ReportMCPList] = true
			}
		case KindSkill:
			want[agy.ReportSkills] = true
		case KindPermission:
			want[agy.ReportPermissions] = true
		}
	}
	var out []agy.Report
	for _, id := range []agy.ReportID{agy.ReportHooks, agy.ReportMCPList, agy.ReportSkills, agy.ReportPermissions} {
		if want[id] {
			out = append(out, agy.ReportOf(id))
		}
	}
	return out
}

func command(r agy.Report) string {
	return "agy " + strings.Join(r.Args, " ")
}

// askReport asks one report, if it may be asked, and reads its answer.
func (d *diagnosis) askReport(ctx context.Context, r agy.Report) {
	slash := r.Slash()
	skip := func(why string) {
		rr := &ReportRun{ID: r.ID, Command: command(r), Status: NotAsked, Why: why}
		d.res.Reports = append(d.res.Reports, rr)
		d.asked[r.ID] = rr
	}
	switch {
	case !d.version.AtLeast(r.Since):
		skip(fmt.Sprintf("agy %s is older than %s, the first build that answers it", d.version, r.Since))
		return
	case slash != "" && d.turned:
		skip("an earlier answer came from a model turn: doctor asks nothing more in print mode")
		return
	case slash != "" && d.plan.SlashNames[strings.TrimPrefix(slash, "/")]:
		since, _ := agy.PrintSkillExpansion()
		skip(fmt.Sprintf("the config writes a skill or workflow named %q, and from agy %s a print-mode prompt %s may run it, a model turn, instead of the listing", strings.TrimPrefix(slash, "/"), since, slash))
		return
	}
	out, rr := d.ask(ctx, r)
	if rr.Status != Answered {
		return
	}
	var err error
	switch r.ID {
	case agy.ReportHooks:
		d.hooks, err = ParseHooks(out)
	case agy.ReportMCPList:
		d.servers, err = ParseMCPList(out)
	case agy.ReportSkills:
		d.skills, err = ParseSkills(out)
	case agy.ReportPermissions:
		d.permissions, err = ParsePermissions(out)
	}
	var mt *ModelTurnError
	var se *StatusError
	switch {
	case errors.As(err, &mt):
		d.turned = true
		rr.Status, rr.Why = Failed, err.Error()
		rr.Fix = "agyconf doctor stopped asking: this build spent a model turn on a slash command it should answer itself; report it to agyconf with agy --version"
	case errors.As(err, &se):
		rr.Status, rr.Why = Failed, err.Error()
		rr.Fix = "run " + command(r) + " yourself to see why agy failed"
	case err != nil:
		rr.Status, rr.Why, rr.Fix = Failed, err.Error(), unreadableFix
	}
}

// ask runs one report and records its run; the answer is its stdout when
// the run's status is Answered.
func (d *diagnosis) ask(ctx context.Context, r agy.Report) ([]byte, *ReportRun) {
	args := slices.Clone(r.Args)
	dir := d.o.Root
	if d.o.Scope == agy.ScopeWorkspace && r.Slash() != "" {
		// An absolute --add-dir makes the root agy's workspace; without
		// it agy answers for its scratch workspace (entireio's probe).
		args = append(args, "--add-dir", d.o.Root)
	}
	rr := &ReportRun{ID: r.ID, Command: command(agy.Report{Args: args}), Status: Answered}
	d.res.Reports = append(d.res.Reports, rr)
	d.asked[r.ID] = rr
	if !Allowed(args) {
		// A bug in doctor, never a report: refuse rather than run it.
		rr.Status, rr.Why, rr.Fix = Failed, "refused to run "+rr.Command+": not one of agy's read-only reports", "this is a bug in agyconf doctor; please report it"
		return nil, rr
	}
	run := d.o.Run.Run(ctx, append([]string{d.o.Agy}, args...), dir, d.env(), d.o.Timeout)
	switch {
	case run.Err != nil:
		rr.Status, rr.Why = Failed, fmt.Sprintf("%s could not be run: %v", d.o.Agy, run.Err)
		rr.Fix = "check that --agy names the agy program, and that it can run here"
	case run.Overflow:
		rr.Status, rr.Why, rr.Fix = Failed, fmt.Sprintf("%s answered more than %d bytes", rr.Command, MaxAnswer), unreadableFix
	case run.TimedOut:
		rr.Status, rr.Why = Failed, fmt.Sprintf("%s gave no answer within %s; doctor killed it", rr.Command, d.o.Timeout)
		rr.Fix = fmt.Sprintf("run %s yourself to see what it waits for (a sign-in, a keyring prompt), or give it longer with --timeout", rr.Command)
	case run.Code != 0:
		rr.Status, rr.Why = Failed, fmt.Sprintf("%s exited %d: %s", rr.Command, run.Code, firstLine(run.Stderr, run.Stdout))
		rr.Fix = "run " + rr.Command + " yourself to see why it fails"
		if signIn(run.Stderr) {
			rr.Fix = fmt.Sprintf("agy ran with HOME=%s and is not signed in there: sign in with HOME=%s agy, or run doctor on the home you sign in from", d.home, d.home)
		}
	}
	return run.Stdout, rr
}

// env is the environment agy runs with: doctor's, with HOME set to the
// home agy should read (the root in global scope) and colours off.
func (d *diagnosis) env() []string {
	var env []string
	for _, kv := range d.o.Env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "HOME" && k != "NO_COLOR" {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+d.home, "NO_COLOR=1")
}

func firstLine(outs ...[]byte) string {
	for _, b := range outs {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				return clip(l)
			}
		}
	}
	return "(it printed nothing)"
}

// signIn says whether agy's error output is about signing in.
func signIn(stderr []byte) bool {
	s := strings.ToLower(string(stderr))
	for _, w := range []string{"authentication required", "sign in", "sign-in", "login", "not signed in", "unauthenticated"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// readLog reads what agy logged while doctor asked it: the log from its
// size before the first question, or, when that was unknown, its last
// loading only.
func (d *diagnosis) readLog(file string, before int64, sizeErr error) {
	from := before
	if sizeErr != nil {
		from = 0
	}
	data, err := d.o.Files.ReadTail(file, from, MaxLog)
	if err != nil {
		d.res.Log.File, d.logErr = "", err
		return
	}
	d.blocks = ParseLog(data)
	if sizeErr != nil && len(d.blocks) > 1 {
		d.blocks = d.blocks[len(d.blocks)-1:]
	}
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			d.res.Log.Lines = append(d.res.Log.Lines, s)
		}
	}
	for _, b := range d.blocks {
		for _, f := range b.FileFailures {
			add(fmt.Sprintf("failed to parse hooks.json at %s: %s", f.Path, f.Message))
		}
		for _, f := range b.PluginFailures {
			add(fmt.Sprintf("Failed to parse hooks for plugin %s: %s", f.Plugin, f.Message))
		}
		if b.Loaded != "" {
			add(b.Loaded)
		}
	}
}
