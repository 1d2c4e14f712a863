// Package engine is the one pipeline every command reads a config
// through, so that what validate calls valid is what render writes:
//
//   - Load decodes a config (both syntaxes), expands its harnesses,
//     renders it, and checks every rendered document against its schema
//     and the linter's rules that depend on the bytes alone — one list of
//     diagnostics, each located in the user's files. It reads no file but
//     the config and what the config names, and looks nothing up on the
//     machine: the same input gives the same answer anywhere.
//   - Secrets checks what depends on this machine: the secret files.
//   - Open takes the render root, agyconf's store in it, the lock and the
//     state, and decides every path against the live files.
//
// internal/cli keeps only flags, printing and exit codes.
package engine

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/harness"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// Config is a config read through the pipeline.
type Config struct {
	// Path is the config as named, Abs the same made absolute.
	Path, Abs string
	// Parser holds every file read, for diagnostics with source snippets.
	Parser *config.Parser
	// Model is the decoded config, harnesses expanded; nil when decoding
	// failed.
	Model *model.Config
	// Plan is every document the config renders to; nil when anything
	// failed.
	Plan *render.Plan
	// Diags are every problem found, errors and warnings, in one list.
	Diags hcl.Diagnostics
}

// OK reports whether the config has no errors: a plan exists.
func (c *Config) OK() bool { return !c.Diags.HasErrors() && c.Plan != nil }

// Load reads the config at path (a file, or a folder of *.hcl and *.json)
// through the whole pipeline.
func Load(path string) *Config {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := config.NewParser()
	cfg, diags := p.LoadConfig(path)
	c := &Config{Path: path, Abs: abs, Parser: p, Model: cfg, Diags: diags}
	if diags.HasErrors() {
		c.Model = nil
		return c
	}
	plan, more := Build(cfg)
	c.Diags = append(c.Diags, more...)
	if !c.Diags.HasErrors() {
		c.Plan = plan
	}
	return c
}

// Build is Load after decoding, for a model that comes from elsewhere
// (import's harness blocks): harnesses expanded, rendered, and every
// rendered document checked.
func Build(cfg *model.Config) (*render.Plan, hcl.Diagnostics) {
	diags := harness.Expand(cfg)
	if diags.HasErrors() {
		return nil, diags
	}
	plan, rdiags := render.Render(cfg, layout.New(cfg.Agyconf))
	diags = append(diags, rdiags...)
	if diags.HasErrors() {
		return nil, diags
	}
	v, _ := agy.ParseVersion(cfg.Agyconf.AgyVersion)
	diags = append(diags, Check(plan, v)...)
	if diags.HasErrors() {
		return nil, diags
	}
	return plan, diags
}

// Check lints every document of a plan that has a schema, with secrets
// redacted, by the rules `validate PATH` runs that depend on the bytes
// alone: the schema, and the checks a schema cannot make (a relative
// command, a matcher that does not compile). A finding becomes a
// diagnostic located at the block that wrote the value; an error-level
// one keeps the plan from being written. version is the config's
// agy_version: what only newer builds accept is judged against it.
func Check(plan *render.Plan, version agy.Version) hcl.Diagnostics {
	plugins := pluginDirs(plan)
	// The documents are checked on as many goroutines as Go runs at once,
	// and their diagnostics joined in the plan's order.
	found := make([]hcl.Diagnostics, len(plan.Documents))
	checkers := []*lint.DocumentChecker{lint.NewDocumentChecker()}
	for len(checkers) < min(runtime.GOMAXPROCS(0), len(plan.Documents)) {
		checkers = append(checkers, checkers[0].Fork())
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, dc := range checkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(plan.Documents); i = int(next.Add(1) - 1) {
				d := plan.Documents[i]
				found[i] = checkDocument(dc, d, lint.DocumentOptions{InPlugin: plugins[filepath.ToSlash(filepath.Dir(d.Path))], AgyVersion: version})
			}
		}()
	}
	wg.Wait()
	var diags hcl.Diagnostics
	for _, ds := range found {
		diags = append(diags, ds...)
	}
	return append(sameFinding(diags), ruleBudget(plan)...)
}

// sameFinding says once what several documents of a plan found the same
// of the same block: a server a layout override writes into a second MCP
// file (legacy_mcp_config) broke the same rule at the same place of
// both, and render printed it twice. The one diagnostic names every file.
func sameFinding(diags hcl.Diagnostics) hcl.Diagnostics {
	type key struct {
		sev              hcl.DiagnosticSeverity
		summary, message string
		at               string
	}
	first := map[key]int{}
	var out hcl.Diagnostics
	for _, d := range diags {
		f, ok := d.Extra.(renderedFinding)
		if !ok || d.Subject == nil {
			out = append(out, d)
			continue
		}
		k := key{d.Severity, d.Summary, f.message + "\x00" + f.pointer, d.Subject.String()}
		i, seen := first[k]
		if !seen {
			first[k] = len(out)
			out = append(out, d)
			continue
		}
		prev := out[i].Extra.(renderedFinding)
		if !slices.Contains(prev.paths, f.paths[0]) {
			prev.paths = append(prev.paths, f.paths[0])
		}
		merged := *out[i]
		merged.Extra = prev
		merged.Detail = prev.detail()
		out[i] = &merged
	}
	return out
}

// renderedFinding is what a diagnostic about a rendered document was made
// of: the finding (its rule's Tag, which IDOf and the machine checks
// read), and the documents it was found in.
type renderedFinding struct {
	rulebook.Tag
	message, pointer string
	paths            []string
}

func (f renderedFinding) detail() string {
	where := strings.Join(f.paths, " and ")
	if f.pointer != "" {
		where += " at " + f.pointer
	}
	return fmt.Sprintf("In the rendered %s; agyconf validate PATH reports the same on the file.", where)
}

// checkDocument lints one document of a plan for Check.
func checkDocument(checker *lint.DocumentChecker, d *render.Document, opts lint.DocumentOptions) hcl.Diagnostics {
	if d.Schema == "" {
		return nil
	}
	// A JSON document is checked as the value it holds; only one with
	// findings is written out and read back, to locate them as validate
	// PATH would.
	if v, ok, err := d.Decoded(render.Redact); err == nil && ok {
		if findings, err := checker.CheckValue(d.Path, d.Schema, v, opts); err == nil && len(findings) == 0 {
			return nil
		}
	}
	data, err := d.Bytes(render.Redact)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot encode a document", Detail: fmt.Sprintf("%s: %v; this is a bug in agyconf, please report it with the config.", d.Path, err)}}
	}
	findings, err := checker.Check(d.Path, d.Schema, data, opts)
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot check a document", Detail: fmt.Sprintf("%s: %v", d.Path, err)}}
	}
	var diags hcl.Diagnostics
	for _, f := range findings {
		if !decoderReports(f.Rule) {
			diags = append(diags, findingDiag(d, f))
		}
	}
	return diags
}

// ruleBudget judges the user and workspace rules a plan writes together
// against agy's rule budget (lint.RuleBudget): the rule files outside
// plugins and the global rules' managed block, in the plan's order.
func ruleBudget(plan *render.Plan) hcl.Diagnostics {
	var entries []lint.BudgetEntry
	docs := map[string]*render.Document{}
	plugins := pluginDirs(plan)
	for _, d := range plan.Documents {
		switch {
		case d.Kind == render.ManagedBlock:
			entries = append(entries, lint.BudgetEntry{Path: d.Path, Text: string(d.Text)})
		case d.Schema == render.SchemaOf(agy.Rules) && !inPluginTree(plugins, d.Path):
			entries = append(entries, lint.BudgetEntry{Path: d.Path, Text: ruleBody(d.Text)})
		default:
			continue
		}
		docs[d.Path] = d
	}
	var diags hcl.Diagnostics
	for _, f := range lint.RuleBudget(entries) {
		diags = append(diags, findingDiag(docs[f.File], f))
	}
	return diags
}

// decoderReports names the rules whose findings the decoder has already
// reported while reading the config, at the entry itself and in the
// input's own terms: Check does not say them a second time.
func decoderReports(rule string) bool {
	switch rule {
	case "settings/deprecated-action", "settings/literal-pattern":
		return true
	}
	return false
}

// ruleBody is a rendered rule's text below its frontmatter.
func ruleBody(text []byte) string {
	if _, body, _, err := frontmatter.Split(text); err == nil {
		return string(body)
	}
	return string(text)
}

// inPluginTree reports whether a document lies anywhere inside one of the
// plugin folders: a folder above it is one.
func inPluginTree(plugins map[string]bool, p string) bool {
	for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if plugins[dir] {
			return true
		}
	}
	return false
}

// pluginDirs are the folders of the plugin trees the plan writes: a
// document in one is part of that plugin (its hooks start there).
func pluginDirs(plan *render.Plan) map[string]bool {
	schema := render.SchemaOf(agy.Plugins)
	dirs := map[string]bool{}
	for _, d := range plan.Documents {
		if d.Schema == schema {
			dirs[filepath.ToSlash(filepath.Dir(d.Path))] = true
		}
	}
	return dirs
}

// findingDiag is a finding in a rendered document as a diagnostic about
// the block that wrote it.
func findingDiag(d *render.Document, f lint.Finding) *hcl.Diagnostic {
	sev := hcl.DiagError
	if f.Severity == lint.Warning {
		sev = hcl.DiagWarning
	}
	rf := renderedFinding{Tag: rulebook.Tag{Rule: f.Rule}, message: f.Message, pointer: f.Pointer, paths: []string{d.Path}}
	diag := &hcl.Diagnostic{
		Severity: sev,
		Summary:  f.Message,
		Detail:   rf.detail(),
		Extra:    rf,
	}
	if rng := d.OriginOf(f.Pointer); rng.Filename != "" {
		diag.Subject = &rng
	}
	return diag
}
