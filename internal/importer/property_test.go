package importer

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// importCases is how many configs TestImportRenderProperty generates:
// AGYCONF_IMPORT_CASES, 150 by default.
func importCases(t *testing.T) int {
	if s := os.Getenv("AGYCONF_IMPORT_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("AGYCONF_IMPORT_CASES=%q: want a positive number", s)
		}
		return n
	}
	return 150
}

// cfgGen makes random configs a decoder accepts, with every field of
// every kind set or not.
type cfgGen struct {
	r *rand.Rand
	// secrets are values holding secret_file() in every position, as the
	// decoder makes them (secretLibrary); nil where the scope has none.
	secrets []model.Str
}

// Texts that are no credential by import's rule, with YAML's and HCL's
// traps: a value that reads as a bool or a number, quotes, a template.
var propTexts = []string{"plain", "yes", "1.0", "null", "a: b", "#hash", "ünïcödé ✓", "two\nlines", `q"uote`, "${NOT_A_TEMPLATE}", "%{x}", "*.go", "--flag=value", "~/bin/x"}

func (g cfgGen) coin() bool   { return g.r.IntN(2) == 0 }
func (g cfgGen) text() string { return propTexts[g.r.IntN(len(propTexts))] }

// headerText is a text an HTTP header can carry (no line break).
func (g cfgGen) headerText() string {
	for {
		if t := g.text(); !strings.ContainsAny(t, "\r\n") {
			return t
		}
	}
}

// secret is one of the library's values holding a secret.
func (g cfgGen) secret() model.Str {
	return slices.Clone(g.secrets[g.r.IntN(len(g.secrets))])
}
func (g cfgGen) name(prefix string, i int) string {
	return fmt.Sprintf("%s-%d", prefix, i)
}

func (g cfgGen) strs() []string {
	if g.r.IntN(5) == 0 {
		return []string{}
	}
	out := make([]string, 1+g.r.IntN(3))
	for i := range out {
		out[i] = g.text()
	}
	return out
}

func (g cfgGen) boolp() *bool {
	if g.coin() {
		return nil
	}
	b := g.coin()
	return &b
}

// extra is a random extra none of whose members set considers its own.
func (g cfgGen) extra(set codec.Set) map[string]json.RawMessage {
	if g.coin() {
		return nil
	}
	out := map[string]json.RawMessage{}
	for _, k := range []string{"x-one", "license", "type", "allowed-tools", "alwaysApply", "name", "$typeName"}[:1+g.r.IntN(4)] {
		if _, own := codec.OwnField(set, k); own {
			continue
		}
		var v any
		switch g.r.IntN(4) {
		case 0:
			v = g.text()
		case 1:
			v = g.coin()
		case 2:
			v = []any{g.text(), json.Number("3")}
		default:
			v = map[string]any{"nested": g.text()}
		}
		raw, err := codec.Raw(v)
		if err != nil {
			panic(err)
		}
		out[k] = raw
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func (g cfgGen) server(name string) *model.MCPServer {
	s := &model.MCPServer{Name: name, Disabled: g.coin(), Extra: g.extra(codec.MCPServerSet)}
	if g.coin() {
		s.Command, s.SecretMode = "/usr/bin/"+name, model.SecretExec
		if g.coin() {
			s.Args = []model.Str{}
			for range g.r.IntN(3) {
				s.Args = append(s.Args, codec.Lit(g.text()))
			}
		}
		if g.coin() {
			s.Env = map[string]model.Str{}
			for i := range g.r.IntN(3) {
				s.Env["VAR_"+strconv.Itoa(i)] = codec.Lit(g.text())
			}
		}
		if g.secrets != nil && g.coin() {
			// agyhook exec-env reads these when agy starts the server.
			if s.Env == nil {
				s.Env = map[string]model.Str{}
			}
			for i := range 1 + g.r.IntN(3) {
				s.Env["SECRET_"+strconv.Itoa(i)] = g.secret()
			}
		}
		if g.coin() {
			s.Cwd = "/srv/" + name
		}
	} else {
		s.ServerURL, s.SecretMode = "https://mcp.example.com/"+name, model.SecretExec
		if g.coin() {
			s.Headers = map[string]model.Str{"X-Client": codec.Lit(g.headerText())}
		}
		if g.secrets != nil && g.coin() {
			// Bridged: agy starts agyhook-bridge, which reads these.
			if s.Headers == nil {
				s.Headers = map[string]model.Str{}
			}
			for i := range 1 + g.r.IntN(3) {
				s.Headers[[]string{"Authorization", "X-Api-Key", "X-Secret"}[i]] = g.secret()
			}
		} else {
			if g.coin() {
				s.AuthProviderType = "google_credentials"
			}
			if g.coin() {
				s.OAuth = &model.OAuth{ClientID: codec.Lit("client-" + name), Enabled: g.boolp()}
			}
		}
		if s.AuthProviderType != "" || s.OAuth != nil {
			// agy's own sign-in keeps a server remote (the decoder
			// resolves its secret_mode to inline).
			s.SecretMode = model.SecretInline
		}
	}
	if g.coin() {
		s.EnabledTools = g.strs()
	} else if g.coin() {
		s.DisabledTools = g.strs()
	}
	if g.coin() {
		n := []int{-1, 5, 600}[g.r.IntN(3)]
		s.TimeoutSeconds = &n
	}
	if g.coin() {
		e := g.coin()
		s.Tools = map[string]*model.MCPTool{"search_" + name: {Eager: &e}}
	}
	return s
}

func (g cfgGen) handler() *model.Handler {
	h := &model.Handler{Type: model.HandlerCommand, Command: "/usr/local/bin/hook " + g.text(), Timeout: 1 + g.r.IntN(300), Extra: g.extra(codec.HandlerSet)}
	if g.coin() {
		h.Command, h.Type, h.Prompt = "", model.HandlerPrompt, g.text()
		if g.coin() {
			h.Model = "flash"
		}
	}
	return h
}

func (g cfgGen) hook(name string) *model.Hook {
	h := &model.Hook{Name: name, Enabled: g.coin()}
	for _, e := range agy.Events() {
		if g.r.IntN(3) != 0 && (len(h.Groups)+len(h.Handlers) > 0 || e.Name != agy.Events()[len(agy.Events())-1].Name) {
			continue
		}
		if e.Grouped {
			if h.Groups == nil {
				h.Groups = map[model.Event][]*model.MatcherGroup{}
			}
			h.Groups[e.Name] = append(h.Groups[e.Name], &model.MatcherGroup{Matcher: []string{"", "*", "run_command", "browser_.*"}[g.r.IntN(4)], Handlers: []*model.Handler{g.handler()}})
			continue
		}
		if h.Handlers == nil {
			h.Handlers = map[model.Event][]*model.Handler{}
		}
		h.Handlers[e.Name] = []*model.Handler{g.handler()}
	}
	return h
}

func (g cfgGen) body() string { return "Do " + g.text() + ".\n\nThen stop." }

func (g cfgGen) skill(name string) *model.Skill {
	s := &model.Skill{Name: name, Description: g.text(), Body: g.body(), DisableSlashCommand: g.boolp(), Extra: g.extra(codec.SkillSet)}
	if g.coin() {
		s.Icon = "✓"
	}
	if g.coin() {
		s.Folder = name + "_dir"
	}
	return s
}

func (g cfgGen) rule(name string, global bool) *model.Rule {
	r := &model.Rule{Name: name, Trigger: model.TriggerAlwaysOn, Body: g.body()}
	if global {
		return r // GEMINI.md's block: a name and a body
	}
	r.Trigger = []string{"", model.TriggerAlwaysOn, model.TriggerGlob, model.TriggerModelDecision, model.TriggerManual}[g.r.IntN(5)]
	if r.Trigger == model.TriggerGlob || g.r.IntN(4) == 0 {
		r.Globs = []string{"*.go", "src/**/*.ts"}[:1+g.r.IntN(2)]
	}
	if r.Trigger == model.TriggerModelDecision || g.coin() {
		r.Description = g.text()
	}
	r.Extra = g.extra(codec.RuleSet)
	return r
}

func (g cfgGen) agent(name string) *model.Agent {
	a := &model.Agent{Name: name, Description: g.text(), Body: g.body(), Extra: g.extra(codec.AgentSet)}
	for _, f := range agy.AgentFields() {
		if f.Key == "name" || f.Key == "description" || g.coin() {
			continue
		}
		switch p := a.Value(f.Key).(type) {
		case *string:
			*p = g.text()
		case *[]string:
			*p = g.strs()
		case **bool:
			*p = g.boolp()
		}
	}
	return a
}

func (g cfgGen) config(scope model.Scope) *model.Config {
	global := scope == model.ScopeGlobal
	if !global {
		g.secrets = nil // secret_file() is refused in a workspace
	}
	cfg := &model.Config{Agyconf: model.Agyconf{Scope: scope, Product: model.ProductBoth, AgyVersion: agy.Newest().Version.String()}}
	for i := range g.r.IntN(3) {
		cfg.MCPServers = append(cfg.MCPServers, g.server(g.name("srv", i)))
	}
	for i := range g.r.IntN(3) {
		cfg.Hooks = append(cfg.Hooks, g.hook(g.name("hook", i)))
	}
	for i := range g.r.IntN(3) {
		cfg.Skills = append(cfg.Skills, g.skill(g.name("skill", i)))
	}
	for i := range g.r.IntN(3) {
		cfg.Rules = append(cfg.Rules, g.rule(g.name("rule", i), global))
	}
	for i := range g.r.IntN(3) {
		cfg.Agents = append(cfg.Agents, g.agent(g.name("agent", i)))
	}
	for i := range g.r.IntN(3) {
		w := &model.Workflow{Name: g.name("flow", i), Body: g.body(), Extra: g.extra(codec.WorkflowSet)}
		if g.coin() {
			w.Description = g.text()
		}
		cfg.Workflows = append(cfg.Workflows, w)
	}
	for i := range g.r.IntN(2) {
		p := &model.Plugin{Name: g.name("plug", i), Extra: g.extra(codec.PluginSet)}
		if g.coin() {
			// A repository cloned into the plugins folder keeps its name.
			p.Folder = p.Name + "-antigravity-plugin"
		}
		if g.coin() {
			p.Description = g.text()
		}
		if global && g.coin() {
			p.Enabled = g.boolp()
		}
		if g.coin() {
			p.MCPServers = []*model.MCPServer{g.server(p.Name + "-srv")}
		}
		if g.coin() {
			p.Hooks = []*model.Hook{g.hook(p.Name + "-hook")}
		}
		if g.coin() {
			p.Skills = []*model.Skill{g.skill(p.Name + "-skill")}
		}
		if g.coin() {
			p.Rules = []*model.Rule{g.rule(p.Name+"-rule", false)}
		}
		if g.coin() {
			p.Agents = []*model.Agent{g.agent(p.Name + "-agent")}
		}
		cfg.Plugins = append(cfg.Plugins, p)
	}
	if global {
		if g.coin() {
			cfg.Permissions = &model.Permissions{Allow: []string{"command(git status)"}, Deny: []string{"command(rm)"}}
			if g.coin() {
				cfg.Permissions.Ask = []string{}
			}
		}
		if g.coin() {
			cfg.SharedPermissions = &model.Permissions{Allow: []string{"read_file"}}
		}
		if g.coin() {
			cfg.Settings = map[string]*model.Setting{
				"colorScheme": {Value: json.RawMessage(`"dark"`)},
				"gcp":         {Value: json.RawMessage(`{"location":"global","project":"p"}`)},
			}
		}
		if g.coin() {
			cfg.Contexts = []*model.Context{{Path: agy.ContextFiles()[g.r.IntN(len(agy.ContextFiles()))].Path, Body: g.body()}}
		}
	} else if g.coin() {
		cfg.Ignore = &model.Ignore{Patterns: []string{"dist/", "*.log"}}
	}
	return cfg
}

// secretLibrary decodes values holding secret_file() in every position a
// header or variable can hold one — the whole value, a template's part
// beside text, several in one value, after a literal "$", inside
// jsonencode() (beside escaped text, nested twice, in a list, quoted in
// a template) — with paths absolute and in the runtime folder, so that
// the generated configs hold what the decoder makes of real ones. Each
// absolute path is a file under dir holding a canary, which nothing
// import prints may hold.
func secretLibrary(t *testing.T, dir string) (values []model.Str, canaries []string) {
	t.Helper()
	p := func(name string) string {
		canary := "CANARY-" + name + "-7f3a"
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(canary+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		canaries = append(canaries, canary)
		return strconv.Quote(path)
	}
	exprs := []string{
		"secret_file(" + p("whole") + ")",
		`"Bearer ${secret_file(` + p("bearer") + `)}"`,
		`"${secret_file(` + p("user") + `)}:${secret_file("%r/agenix/pass")}"`,
		`"cost${"$"}${secret_file(` + p("dollar") + `)}%"`,
		`jsonencode({ token = secret_file(` + p("json") + `) })`,
		`jsonencode({ auth = "Bearer ${secret_file(` + p("json-bearer") + `)}", note = "a<b & \"q\" \\ ${"$"}{x} %%{y}" })`,
		`jsonencode({ outer = jsonencode({ inner = secret_file(` + p("nested") + `) }) })`,
		`jsonencode([secret_file("$${XDG_RUNTIME_DIR}/rt"), "x", secret_file(` + p("second") + `)])`,
		`"pre ${jsonencode(secret_file(` + p("quoted") + `))} post"`,
		`jsonencode("${secret_file(` + p("left") + `)}\\${secret_file(` + p("right") + `)}")`,
	}
	var b strings.Builder
	b.WriteString("agyconf {\n  scope = \"global\"\n}\nmcp_server \"lib\" {\n  server_url = \"https://lib.example.com/mcp\"\n  headers = {\n")
	for i, e := range exprs {
		fmt.Fprintf(&b, "    H%02d = %s\n", i, e)
	}
	b.WriteString("  }\n}\n")
	cfgPath := filepath.Join(t.TempDir(), "lib.hcl")
	if err := os.WriteFile(cfgPath, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, diags := config.NewParser().LoadConfig(cfgPath)
	if diags.HasErrors() {
		t.Fatalf("the secret library does not decode: %s\n%s", diags.Error(), b.String())
	}
	for i := range exprs {
		v := cfg.MCPServers[0].Headers[fmt.Sprintf("H%02d", i)]
		if !v.HasSecret() {
			t.Fatalf("H%02d holds no secret: %v", i, v)
		}
		values = append(values, v)
	}
	return values, canaries
}

// writePlan writes a plan's documents under root as a first render does
// (a managed block between its marker lines), secrets not involved.
func writePlan(t *testing.T, plan *render.Plan, root string) {
	t.Helper()
	for _, d := range plan.Documents {
		data, err := d.Bytes(render.Redact)
		if err != nil {
			t.Fatal(err)
		}
		if d.Kind == render.ManagedBlock {
			begin, end := d.Block.Markers()
			data = []byte(begin + "\n" + string(data) + end + "\n")
		}
		p := filepath.Join(root, filepath.FromSlash(d.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, d.Mode); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImportRenderProperty: import(render(c)) is c, over generated
// configs of both scopes with every kind and every field set or not: the
// config is rendered into a fresh root, imported, the config import
// prints decoded again, and the model compared with the one generated —
// render, the codec's tables, import, the printed HCL and the decoder in
// one loop. Also checked: the second import of the same tree prints the
// same bytes, and nothing is reported as not imported.
func TestImportRenderProperty(t *testing.T) {
	secrets, canaries := secretLibrary(t, t.TempDir())
	g := cfgGen{r: rand.New(rand.NewPCG(30, 30)), secrets: secrets}
	ignore := cmp.Options{
		cmpopts.IgnoreTypes(hcl.Range{}, model.Ranges{}), // where things are written, not what
		cmpopts.IgnoreFields(model.Config{}, "Agyconf", "Files", "Inputs", "SecretRefs", "Tools"),
	}
	for i := range importCases(t) {
		scope := model.ScopeWorkspace
		if i%2 == 0 {
			scope = model.ScopeGlobal
		}
		want := g.config(scope)
		plan, diags := render.Render(want, layout.New(want.Agyconf))
		if diags.HasErrors() {
			t.Fatalf("case %d: the generated config does not render: %s", i, diags.Error())
		}
		root := t.TempDir()
		writePlan(t, plan, root)
		opts := Options{Root: root, Scope: scope, Product: model.ProductBoth, Out: t.TempDir()}
		res, err := Import(opts)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		for _, it := range res.Items {
			if it.Kind == KindNotImported {
				t.Errorf("case %d: %s", i, it)
			}
		}
		// The secret files agyhook reads stay where they are: import
		// names them and never reads them.
		var shown strings.Builder
		shown.Write(res.HCL)
		for _, it := range res.Items {
			shown.WriteString(it.String() + "\n" + it.Command + "\n")
		}
		for _, f := range res.Files {
			shown.Write(f.Data)
		}
		shown.WriteString(strings.Join(res.Secrets, "\n"))
		for _, c := range canaries {
			if strings.Contains(shown.String(), c) {
				t.Fatalf("case %d: import read the secret file holding %s:\n%s", i, c, shown.String())
			}
		}
		for rel, f := range res.Files {
			p := filepath.Join(opts.Out, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(opts.Out, "agyconf.hcl"), res.HCL, 0o644); err != nil {
			t.Fatal(err)
		}
		got, diags := config.NewParser().LoadConfig(filepath.Join(opts.Out, "agyconf.hcl"))
		if diags.HasErrors() {
			t.Fatalf("case %d: the imported config does not decode: %s\n%s", i, diags.Error(), res.HCL)
		}
		normalize(want)
		normalize(got)
		if d := cmp.Diff(want, got, ignore); d != "" {
			t.Fatalf("case %d (%s): import(render(c)) differs (-c +import):\n%s\nimported config:\n%s", i, scope, d, res.HCL)
		}
	}
}

// normalize sorts what the decoder sorts and trims the trailing newlines
// of bodies (render writes each with exactly one), so two configs that
// render the same compare equal.
func normalize(cfg *model.Config) {
	sortConfig(cfg)
	servers := slices.Clone(cfg.MCPServers)
	for _, p := range cfg.Plugins {
		servers = append(servers, p.MCPServers...)
	}
	for _, s := range servers {
		if len(s.Args) == 0 && hasSecret(mapValues(s.Env)) {
			// Wrapped in agyhook exec-env, args = [] and no args are
			// one command line: the server's args are what follows it.
			s.Args = nil
		}
	}
	sort.Slice(cfg.Contexts, func(i, j int) bool { return cfg.Contexts[i].Path < cfg.Contexts[j].Path })
	trim := func(s *string) { *s = strings.TrimRight(*s, "\n") }
	bodies := func(skills []*model.Skill, rules []*model.Rule, agents []*model.Agent) {
		for _, x := range skills {
			trim(&x.Body)
		}
		for _, x := range rules {
			trim(&x.Body)
		}
		for _, x := range agents {
			trim(&x.Body)
		}
	}
	bodies(cfg.Skills, cfg.Rules, cfg.Agents)
	for _, w := range cfg.Workflows {
		trim(&w.Body)
	}
	for _, c := range cfg.Contexts {
		trim(&c.Body)
	}
	for _, p := range cfg.Plugins {
		sortConfig(&model.Config{MCPServers: p.MCPServers, Hooks: p.Hooks, Skills: p.Skills, Rules: p.Rules, Agents: p.Agents})
		bodies(p.Skills, p.Rules, p.Agents)
	}
}
