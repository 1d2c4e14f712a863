package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// topSchema lists every top-level block. Each block type has exactly one
// decode function below. There are no top-level arguments; the agyconf
// block's are accepted here only so that a stray `scope = "global"` is told
// it belongs inside `agyconf {}`.
var topSchema = &hcl.BodySchema{
	Attributes: agyconfSchema.Attributes,
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "agyconf"},
		{Type: "tools"},
		{Type: "mcp_server", LabelNames: []string{"name"}},
		{Type: "hook", LabelNames: []string{"name"}},
		{Type: "skill", LabelNames: []string{"name"}},
		{Type: "rule", LabelNames: []string{"name"}},
		{Type: "agent", LabelNames: []string{"name"}},
		{Type: "workflow", LabelNames: []string{"name"}},
		{Type: "permissions"},
		{Type: "shared_permissions"},
		{Type: "settings"},
		{Type: "plugin", LabelNames: []string{"name"}},
		{Type: "harness", LabelNames: []string{"kind"}},
		{Type: "acp"},
		{Type: "ignore"},
		{Type: "context", LabelNames: []string{"path"}},
	},
}

// LoadConfig reads, parses and decodes the config at path: one file, or
// every *.hcl and *.json file directly inside a folder. The returned
// diagnostics hold every problem found; the model is nil if any is an error.
func (p *Parser) LoadConfig(path string) (*model.Config, hcl.Diagnostics) {
	files, diags := ConfigFiles(path)
	if diags.HasErrors() {
		return nil, diags
	}
	var bodies []hcl.Body
	for _, fn := range files {
		f, fdiags := p.ParseFile(fn)
		diags = append(diags, fdiags...)
		// After a syntax error the JSON parser stands in placeholder values
		// for what it could not read, which decode into misleading follow-on
		// errors ("a JSON object is required" for an object); the native
		// parser recovers well enough to check the rest of the file.
		if f != nil && !(fdiags.HasErrors() && filepath.Ext(fn) == ".json") {
			bodies = append(bodies, f.Body)
		}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		p.rec.add("dir", absPath(path), dirSum(files))
	}
	cfg, ddiags := decode(bodies, p.rec)
	diags = append(diags, ddiags...)
	// Nothing reads the syntax trees after this: see thinFiles.
	p.thinFiles()
	sortDiagnostics(diags)
	if diags.HasErrors() {
		return nil, diags
	}
	cfg.Files = files
	cfg.Inputs = p.rec.list()
	return cfg, diags
}

// absPath makes a recorded input's path absolute, so that it can be
// looked at again from any working directory.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// sortDiagnostics orders diagnostics by where they point, so that one input
// always gives the same report: HCL and the decoder both find some problems
// while iterating over maps. Diagnostics without a range come first.
func sortDiagnostics(diags hcl.Diagnostics) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := diags[i].Subject, diags[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}

// Decode turns parsed bodies into a model. Bodies of several files act as
// one config: names must be unique across all of them.
func Decode(bodies []hcl.Body) (*model.Config, hcl.Diagnostics) {
	return decode(bodies, nil)
}

func decode(bodies []hcl.Body, rec *recorder) (*model.Config, hcl.Diagnostics) {
	d := &decoder{ctxs: map[string]*hcl.EvalContext{}, rec: rec}
	cfg := &model.Config{}

	var blocks hcl.Blocks
	for _, body := range bodies {
		if c := d.content(body, topSchema); c != nil {
			for _, attr := range sortedAttrs(c.Attributes) {
				d.errorf(attr.NameRange, "Unsupported argument", "An argument named %q is not expected at the top level; it belongs inside the agyconf block: agyconf { %s = … }.", attr.Name, attr.Name)
			}
			blocks = append(blocks, c.Blocks...)
		}
	}

	// The agyconf block comes first whatever file holds it: its scope
	// decides which functions every other expression may call.
	cfg.Agyconf = model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth}
	var first *hcl.Block
	for _, b := range blocks.OfType("agyconf") {
		if first != nil {
			d.duplicate(b, first, "agyconf block")
			continue
		}
		first = b
		cfg.Agyconf = d.decodeAgyconf(b)
	}
	d.scope = cfg.Agyconf.Scope
	d.secretMode = cfg.Agyconf.SecretMode
	if v, ok := agy.ParseVersion(cfg.Agyconf.AgyVersion); ok {
		d.agyVersion = v
	}
	for _, b := range blocks {
		fn := b.DefRange.Filename
		if _, ok := d.ctxs[fn]; !ok {
			d.ctxs[fn] = &hcl.EvalContext{Functions: functions(configDir(fn), d.scope, rec)}
		}
	}

	seen := newSeen()
	var permsBlock, sharedBlock, acpBlock, ignoreBlock *hcl.Block
	permEntries := map[string]string{}
	for _, b := range blocks {
		switch b.Type {
		case "agyconf":
			// decoded above
		case "tools":
			d.decodeTools(b, cfg)
		case "mcp_server":
			if s := d.decodeMCPServer(b, seen, ""); s != nil {
				cfg.MCPServers = append(cfg.MCPServers, s)
			}
		case "hook":
			if h := d.decodeHook(b, seen, ""); h != nil {
				cfg.Hooks = append(cfg.Hooks, h)
			}
		case "skill":
			if s := d.decodeSkill(b, seen, ""); s != nil {
				cfg.Skills = append(cfg.Skills, s)
			}
		case "rule":
			if r := d.decodeRule(b, seen, ""); r != nil {
				cfg.Rules = append(cfg.Rules, r)
			}
		case "agent":
			if a := d.decodeAgent(b, seen, ""); a != nil {
				cfg.Agents = append(cfg.Agents, a)
			}
		case "workflow":
			if w := d.decodeWorkflow(b, seen); w != nil {
				cfg.Workflows = append(cfg.Workflows, w)
			}
		case "context":
			if c := d.decodeContext(b, seen); c != nil {
				cfg.Contexts = append(cfg.Contexts, c)
			}
		case "permissions":
			if permsBlock != nil {
				d.duplicate(b, permsBlock, "permissions block")
				continue
			}
			permsBlock = b
			cfg.Permissions = d.decodePermissions(b, permEntries)
		case "shared_permissions":
			if sharedBlock != nil {
				d.duplicate(b, sharedBlock, "shared_permissions block")
				continue
			}
			sharedBlock = b
			cfg.SharedPermissions = d.decodePermissions(b, permEntries)
		case "settings":
			d.decodeSettings(b, cfg)
		case "plugin":
			if pl := d.decodePlugin(b, seen); pl != nil {
				cfg.Plugins = append(cfg.Plugins, pl)
			}
		case "harness":
			if h := d.decodeHarness(b, seen); h != nil {
				cfg.Harnesses = append(cfg.Harnesses, h)
			}
		case "acp":
			if acpBlock != nil {
				d.duplicate(b, acpBlock, "acp block")
				continue
			}
			acpBlock = b
			cfg.ACP = d.decodeACP(b)
		case "ignore":
			if ignoreBlock != nil {
				d.duplicate(b, ignoreBlock, "ignore block")
				continue
			}
			ignoreBlock = b
			cfg.Ignore = d.decodeIgnore(b)
		default:
			panic(fmt.Sprintf("config: block type %q in topSchema has no decoder", b.Type))
		}
	}
	d.pluginServerRefs(cfg)
	cfg.SecretRefs = d.secrets
	sortConfig(cfg)
	repairRanges(d.diags)
	if d.diags.HasErrors() {
		return nil, d.diags
	}
	return cfg, d.diags
}

// repairRanges collapses a range that ends before it starts to its start.
// HCL gives an expression left unclosed by a syntax error (`f(` at the end
// of a file) a zero end position; a printer or editor given such a range
// would mark nothing or everything.
func repairRanges(diags hcl.Diagnostics) {
	repair := func(r *hcl.Range) *hcl.Range {
		if r == nil || r.End.Byte >= r.Start.Byte {
			return r
		}
		// A copy: the pointer may be into the syntax tree.
		c := *r
		c.End = c.Start
		return &c
	}
	for _, diag := range diags {
		diag.Subject, diag.Context = repair(diag.Subject), repair(diag.Context)
	}
}

// seen remembers the first declaration of every named thing, per kind and
// namespace ("" for top level, the plugin name inside a plugin).
type seen map[string]*hcl.Block

func newSeen() seen { return seen{} }

// claim records b under key, or reports it as a duplicate of the first.
func (d *decoder) claim(s seen, key string, b *hcl.Block, what string) bool {
	if first, dup := s[key]; dup {
		d.duplicate(b, first, what)
		return false
	}
	s[key] = b
	return true
}

func (d *decoder) duplicate(b, first *hcl.Block, what string) {
	rng, firstRng := b.DefRange, first.DefRange
	if len(b.LabelRanges) > 0 {
		rng = b.LabelRanges[0]
	}
	if b.DefRange == first.DefRange {
		// Unlabeled blocks written as one JSON list all have the list's
		// opening bracket as DefRange; the end of each element's object
		// tells them apart.
		rng, firstRng = b.Body.MissingItemRange(), first.Body.MissingItemRange()
	}
	d.errorf(rng, "Duplicate "+b.Type, "This %s is already declared at %s.", what, rangeString(firstRng))
}

// label checks a block's name with problem and reports it at the label.
func (d *decoder) label(b *hcl.Block, problem func(string) string) (string, bool) {
	name := b.Labels[0]
	if msg := problem(name); msg != "" {
		d.errorf(b.LabelRanges[0], "Invalid name", "%s", msg)
		return name, false
	}
	return name, true
}

func sortConfig(cfg *model.Config) {
	sortByName(cfg.MCPServers, func(s *model.MCPServer) string { return s.Name })
	sortByName(cfg.Hooks, func(h *model.Hook) string { return h.Name })
	sortByName(cfg.Skills, func(s *model.Skill) string { return s.Name })
	sortByName(cfg.Rules, func(r *model.Rule) string { return r.Name })
	sortByName(cfg.Agents, func(a *model.Agent) string { return a.Name })
	sortByName(cfg.Workflows, func(w *model.Workflow) string { return w.Name })
	sortByName(cfg.Contexts, func(c *model.Context) string { return c.Path })
	sortByName(cfg.Plugins, func(p *model.Plugin) string { return p.Name })
	sortByName(cfg.Harnesses, func(h *model.Harness) string { return h.Kind })
	for _, p := range cfg.Plugins {
		sortByName(p.MCPServers, func(s *model.MCPServer) string { return s.Name })
		sortByName(p.Hooks, func(h *model.Hook) string { return h.Name })
		sortByName(p.Skills, func(s *model.Skill) string { return s.Name })
		sortByName(p.Rules, func(r *model.Rule) string { return r.Name })
		sortByName(p.Agents, func(a *model.Agent) string { return a.Name })
	}
}

func sortByName[T any](xs []T, name func(T) string) {
	sort.SliceStable(xs, func(i, j int) bool { return name(xs[i]) < name(xs[j]) })
}
