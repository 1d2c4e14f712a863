package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/internal/model"
)

// cases is how many values of each kind the property tests generate:
// AGYCONF_CODEC_CASES, 500 by default.
func cases(t *testing.T) int {
	if s := os.Getenv("AGYCONF_CODEC_CASES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("AGYCONF_CODEC_CASES=%q: want a positive number", s)
		}
		return n
	}
	return 500
}

// gen makes random model values, every field of each kind set or not.
type gen struct{ r *rand.Rand }

var texts = []string{"x", "git status", "yes", "1.0", "null", "~/bin/srv", "a: b", "#hash", "ünïcödé ✓", "tab\there", "two\nlines", " lead", "trail ", `q"uote`, "'single'", "[not a list]", "{}", "*.go", "--flag=value"}

func (g gen) coin() bool { return g.r.IntN(2) == 0 }

func (g gen) text() string {
	if g.r.IntN(4) == 0 {
		return fmt.Sprintf("t%d", g.r.IntN(1000))
	}
	return texts[g.r.IntN(len(texts))]
}

func (g gen) strs() []string {
	if g.r.IntN(5) == 0 {
		return []string{} // an empty list is a member too
	}
	out := make([]string, 1+g.r.IntN(3))
	for i := range out {
		out[i] = g.text()
	}
	return out
}

func (g gen) boolp() *bool {
	if g.coin() {
		return nil
	}
	b := g.coin()
	return &b
}

// value is a random JSON value, as extra holds it.
func (g gen) value(depth int) any {
	switch n := g.r.IntN(6); {
	case n == 0:
		return g.text()
	case n == 1:
		return g.coin()
	case n == 2:
		return json.Number(strconv.Itoa(g.r.IntN(2000) - 1000))
	case n == 3 && depth < 2:
		xs := make([]any, g.r.IntN(3))
		for i := range xs {
			xs[i] = g.value(depth + 1)
		}
		return xs
	case n == 4 && depth < 2:
		m := map[string]any{}
		for range g.r.IntN(3) {
			m[g.text()] = g.value(depth + 1)
		}
		return m
	}
	return g.text()
}

// extra is a random extra of members none of which own names.
func (g gen) extra(own []Refused) map[string]json.RawMessage {
	if g.coin() {
		return nil
	}
	out := map[string]json.RawMessage{}
	for range 1 + g.r.IntN(3) {
		k := []string{"$typeName", "type", "license", "allowed-tools", "x-" + g.text(), "name", "alwaysApply", "description"}[g.r.IntN(8)]
		if slices.ContainsFunc(own, func(r Refused) bool { return r.Key == k }) {
			continue
		}
		raw, err := Raw(g.value(0))
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

func (g gen) str() model.Str { return Lit(g.text()) }

func (g gen) strMap() map[string]model.Str {
	if g.coin() {
		return nil
	}
	m := map[string]model.Str{}
	for range g.r.IntN(3) {
		m[fmt.Sprintf("K%d", g.r.IntN(9))] = g.str()
	}
	return m
}

func (g gen) server() *model.MCPServer {
	s := &model.MCPServer{Disabled: g.coin(), Extra: g.extra(MCPServer().Own())}
	if g.coin() {
		s.Command = g.text()
		if g.coin() {
			s.Args = []model.Str{}
			for range g.r.IntN(4) {
				s.Args = append(s.Args, g.str())
			}
		}
		s.Env = g.strMap()
		if g.coin() {
			s.Cwd = g.text()
		}
	} else {
		s.ServerURL = "https://example.com/" + strconv.Itoa(g.r.IntN(99))
		s.Headers = g.strMap()
		if g.coin() {
			s.AuthProviderType = "google_credentials"
		}
		if g.coin() {
			s.OAuth = &model.OAuth{ClientID: g.str(), Enabled: g.boolp()}
			if g.coin() {
				s.OAuth.ClientSecret = g.str()
			}
		}
	}
	if g.coin() {
		s.DisabledTools = g.strs()
	}
	if g.coin() {
		s.EnabledTools = g.strs()
	}
	if g.coin() {
		n := []int{-1, 1, 30, 1<<31 - 1}[g.r.IntN(4)]
		s.TimeoutSeconds = &n
	}
	if g.coin() {
		s.Tools = map[string]*model.MCPTool{}
		for range g.r.IntN(3) {
			s.Tools[g.text()] = &model.MCPTool{Eager: g.boolp()}
		}
	}
	return s
}

func (g gen) handler() *model.Handler {
	h := &model.Handler{Type: model.HandlerCommand, Command: g.text(), Timeout: 1 + g.r.IntN(600), Extra: g.extra(Handler().Own())}
	if g.coin() {
		h = &model.Handler{Type: model.HandlerPrompt, Prompt: g.text(), Timeout: 1 + g.r.IntN(600), Extra: h.Extra}
		if g.coin() {
			h.Model = g.text()
		}
	}
	return h
}

func (g gen) handlers() []*model.Handler {
	out := make([]*model.Handler, 1+g.r.IntN(3))
	for i := range out {
		out[i] = g.handler()
	}
	return out
}

func (g gen) hook() *model.Hook {
	h := &model.Hook{Enabled: g.coin()}
	for _, e := range agy.Events() {
		if g.r.IntN(3) != 0 {
			continue
		}
		if e.Grouped {
			if h.Groups == nil {
				h.Groups = map[model.Event][]*model.MatcherGroup{}
			}
			for range 1 + g.r.IntN(2) {
				h.Groups[e.Name] = append(h.Groups[e.Name], &model.MatcherGroup{Matcher: []string{"", "*", "run_command", "browser_.*"}[g.r.IntN(4)], Handlers: g.handlers()})
			}
			continue
		}
		if h.Handlers == nil {
			h.Handlers = map[model.Event][]*model.Handler{}
		}
		h.Handlers[e.Name] = g.handlers()
	}
	return h
}

func (g gen) rule() *model.Rule {
	r := &model.Rule{Trigger: []string{"", model.TriggerAlwaysOn, model.TriggerGlob, model.TriggerModelDecision, model.TriggerManual}[g.r.IntN(5)], Extra: g.extra(Rule().Own())}
	if g.coin() {
		// As the decoder takes them: no comma in a glob, none blank or
		// padded (one comma-separated string is what agy reads).
		r.Globs = []string{"*.go", "src/**/*.ts"}[:1+g.r.IntN(2)]
	}
	if g.coin() {
		r.Description = g.text()
	}
	return r
}

func (g gen) agent() *model.Agent {
	a := &model.Agent{Name: g.text(), Description: g.text(), Extra: g.extra(Agent().Own())}
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

func (g gen) skill() *model.Skill {
	s := &model.Skill{Name: g.text(), Description: g.text(), DisableSlashCommand: g.boolp(), Extra: g.extra(Skill().Own())}
	if g.coin() {
		s.Icon = g.text()
	}
	return s
}

func (g gen) plugin() *model.Plugin {
	p := &model.Plugin{Name: g.text(), Extra: g.extra(Plugin().Own())}
	if g.coin() {
		p.Description = g.text()
	}
	return p
}

func (g gen) settings() *SettingsFile {
	f := &SettingsFile{}
	if g.coin() {
		f.Permissions = &model.Permissions{}
		if g.coin() {
			f.Permissions.Allow = g.strs()
		}
		if g.coin() {
			f.Permissions.Deny = g.strs()
		}
		if g.coin() {
			f.Permissions.Ask = g.strs()
		}
	}
	if g.coin() {
		f.Keys = map[string]json.RawMessage{}
		for range 1 + g.r.IntN(3) {
			raw, _ := Raw(g.value(0))
			f.Keys[[]string{"model", "gcp", "colorScheme", "trustedWorkspaces"}[g.r.IntN(4)]] = raw
		}
	}
	return f
}

// throughJSON is what a live JSON file gives back for m: written, then
// read with numbers as written.
func throughJSON(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// throughYAML is what a frontmatter gives back for members: written as a
// YAML mapping, then read by internal/frontmatter, as import reads it.
func throughYAML(t *testing.T, ms []Member) map[string]any {
	t.Helper()
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, m := range ms {
		v := m.Value
		if sub, ok := v.([]Member); ok {
			inner := map[string]any{}
			for _, s := range sub {
				inner[s.Key] = s.Value
			}
			v = inner
		}
		if raw, ok := v.(json.RawMessage); ok {
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
			v = yamlable(v)
		}
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			t.Fatal(err)
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: m.Key}, &val)
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	m, err := frontmatter.Parse(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return m
}

// yamlable turns json.Number into an int, which YAML writes as one.
func yamlable(v any) any {
	switch x := v.(type) {
	case json.Number:
		i, _ := x.Int64()
		return i
	case []any:
		for i := range x {
			x[i] = yamlable(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = yamlable(x[k])
		}
	}
	return v
}

// roundTrip checks decode(encode(x)) == x for n generated values of a
// kind, through the bytes of its file.
func roundTrip[T any](t *testing.T, name string, e Entry[T], make func(gen) *T, viaYAML bool, fresh func() *T) {
	t.Run(name, func(t *testing.T) {
		g := gen{rand.New(rand.NewPCG(1, uint64(len(name))))}
		for i := range cases(t) {
			x := make(g)
			var m map[string]any
			if viaYAML {
				m = throughYAML(t, e.Members(x))
			} else {
				m = throughJSON(t, e.Encode(x))
			}
			y := fresh()
			if ps := e.Decode(m, y); len(ps) > 0 {
				t.Fatalf("case %d: %v\nfrom %#v", i, ps, m)
			}
			if d := cmp.Diff(x, y); d != "" {
				t.Fatalf("case %d: decode(encode(x)) differs (-x +decoded):\n%s", i, d)
			}
		}
	})
}

// TestRoundTrip: for every kind, decode(encode(x)) is x over generated
// values with every field set or not, extra members included: a member
// one direction knows the other knows too.
func TestRoundTrip(t *testing.T) {
	roundTrip(t, "mcp server", MCPServer(), gen.server, false, func() *model.MCPServer { return &model.MCPServer{} })
	roundTrip(t, "hook", Hook(), gen.hook, false, func() *model.Hook { return &model.Hook{} })
	roundTrip(t, "rule", Rule(), gen.rule, true, func() *model.Rule { return &model.Rule{} })
	roundTrip(t, "workflow", Workflow(), func(g gen) *model.Workflow {
		w := &model.Workflow{Extra: g.extra(Workflow().Own())}
		if g.coin() {
			w.Description = g.text()
		}
		return w
	}, true, func() *model.Workflow { return &model.Workflow{} })
	roundTrip(t, "agent", Agent(), gen.agent, true, func() *model.Agent { return &model.Agent{} })
	roundTrip(t, "skill", Skill(), gen.skill, true, func() *model.Skill { return &model.Skill{} })
	roundTrip(t, "plugin", Plugin(), gen.plugin, false, func() *model.Plugin { return &model.Plugin{} })
	roundTrip(t, "settings", Settings(), gen.settings, false, func() *SettingsFile { return &SettingsFile{} })
}

// TestEveryFieldGenerated: the generators set every row of every table,
// so that TestRoundTrip covers each member in both directions.
func TestEveryFieldGenerated(t *testing.T) {
	check := func(name string, keys []string, encode func(gen) map[string]any) {
		t.Helper()
		g := gen{rand.New(rand.NewPCG(7, 7))}
		seen := map[string]bool{}
		for range 200 {
			for k := range encode(g) {
				seen[k] = true
			}
		}
		for _, k := range keys {
			if !seen[k] {
				t.Errorf("%s: the generator never sets %s", name, k)
			}
		}
	}
	keys := func(fs []Refused) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Key)
		}
		return out
	}
	fieldKeys := func(n int, own []Refused) []string { return keys(own[:n]) }
	check("mcp server", fieldKeys(len(MCPServer().Fields), MCPServer().Own()), func(g gen) map[string]any { return MCPServer().Encode(g.server()) })
	check("hook", fieldKeys(len(Hook().Fields), Hook().Own()), func(g gen) map[string]any { return Hook().Encode(g.hook()) })
	check("handler", fieldKeys(len(Handler().Fields), Handler().Own()), func(g gen) map[string]any { return Handler().Encode(g.handler()) })
	check("rule", fieldKeys(len(Rule().Fields), Rule().Own()), func(g gen) map[string]any { return Rule().Encode(g.rule()) })
	check("agent", fieldKeys(len(Agent().Fields), Agent().Own()), func(g gen) map[string]any { return Agent().Encode(g.agent()) })
	check("skill", fieldKeys(len(Skill().Fields), Skill().Own()), func(g gen) map[string]any { return Skill().Encode(g.skill()) })
	check("plugin", fieldKeys(len(Plugin().Fields), Plugin().Own()), func(g gen) map[string]any { return Plugin().Encode(g.plugin()) })
	check("oauth", fieldKeys(len(OAuth().Fields), OAuth().Own()), func(g gen) map[string]any {
		for {
			if s := g.server(); s.OAuth != nil {
				return OAuth().Encode(s.OAuth)
			}
		}
	})
}
