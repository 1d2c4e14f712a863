package importer

import (
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/model"
)

// generate prints the config: the agyconf block, tools, harnesses, then
// every other kind of block, each kind's blocks sorted by name.
func (im *importer) generate() []byte {
	out := newSections(im.perSection)
	cfg := im.cfg
	a := out.first().AppendNewBlock("agyconf", nil).Body()
	a.SetAttributeValue("scope", cty.StringVal(string(cfg.Agyconf.Scope)))
	a.SetAttributeValue("product", cty.StringVal(string(cfg.Agyconf.Product)))
	if cfg.Agyconf.AgyVersion != "" {
		a.SetAttributeValue("agy_version", cty.StringVal(cfg.Agyconf.AgyVersion))
	}
	if len(cfg.Tools) > 0 {
		t := out.next().AppendNewBlock("tools", nil).Body()
		for _, k := range sortedKeys(cfg.Tools) {
			t.SetAttributeRaw(k, valueTokens(cty.StringVal(cfg.Tools[k].Path)))
		}
	}
	for _, h := range cfg.Harnesses {
		b := out.next().AppendNewBlock("harness", []string{h.Kind}).Body()
		if o := h.MemPalace; o != nil {
			if o.Mode != "plugin" {
				b.SetAttributeValue("mode", cty.StringVal(o.Mode))
			}
			if !o.Wake {
				b.SetAttributeValue("wake", cty.False)
			}
			if !o.Save {
				b.SetAttributeValue("save", cty.False)
			}
			if o.SaveInterval != 15 {
				b.SetAttributeValue("save_interval", cty.NumberIntVal(int64(o.SaveInterval)))
			}
			if o.StateDir != "" {
				b.SetAttributeValue("state_dir", cty.StringVal(o.StateDir))
			}
		}
		if o := h.Xmsg; o != nil {
			if o.ReplyOnly {
				b.SetAttributeValue("reply_only", cty.True)
			}
			if o.LegacyHooks {
				b.SetAttributeValue("legacy_hooks", cty.True)
			}
		}
	}
	im.components(out.next, cfg.MCPServers, cfg.Hooks, cfg.Skills, cfg.Rules, cfg.Agents)
	for _, w := range cfg.Workflows {
		b := out.next().AppendNewBlock("workflow", []string{w.Name}).Body()
		if w.Description != "" {
			b.SetAttributeValue("description", cty.StringVal(w.Description))
		}
		if len(w.Extra) > 0 {
			extraAttr(b, w.Extra)
		}
		b.SetAttributeRaw("body", im.body(w, w.Body))
	}
	for _, pb := range []struct {
		block string
		p     *model.Permissions
	}{{"permissions", cfg.Permissions}, {"shared_permissions", cfg.SharedPermissions}} {
		p := pb.p
		if p == nil {
			continue
		}
		b := out.next().AppendNewBlock(pb.block, nil).Body()
		for _, l := range []struct {
			k  string
			xs []string
		}{{"allow", p.Allow}, {"ask", p.Ask}, {"deny", p.Deny}} {
			if l.xs != nil {
				b.SetAttributeValue(l.k, strList(l.xs))
			}
		}
	}
	if len(cfg.Settings) > 0 {
		b := out.next().AppendNewBlock("settings", nil).Body()
		for _, k := range sortedKeys(cfg.Settings) {
			v, err := jsonToCty(cfg.Settings[k].Value)
			if err != nil {
				continue
			}
			b.SetAttributeRaw(k, valueTokens(v))
		}
	}
	for _, c := range cfg.Contexts {
		b := out.next().AppendNewBlock("context", []string{c.Path}).Body()
		b.SetAttributeRaw("body", im.body(c, c.Body))
	}
	if ig := cfg.Ignore; ig != nil {
		out.next().AppendNewBlock("ignore", nil).Body().SetAttributeValue("patterns", strList(ig.Patterns))
	}
	for _, p := range cfg.Plugins {
		b := out.next().AppendNewBlock("plugin", []string{p.Name}).Body()
		if p.Folder != "" {
			b.SetAttributeValue("folder", cty.StringVal(p.Folder))
		}
		if p.Description != "" {
			b.SetAttributeValue("description", cty.StringVal(p.Description))
		}
		if p.Enabled != nil {
			b.SetAttributeValue("enabled", cty.BoolVal(*p.Enabled))
		}
		if len(p.Extra) > 0 {
			extraAttr(b, p.Extra)
			b.SetAttributeValue("allow_extra", cty.True)
		}
		im.components(inBody(b), p.MCPServers, p.Hooks, p.Skills, p.Rules, p.Agents)
	}
	return out.bytes()
}

// sections prints the config in files of per top-level blocks each,
// each file formatted on a goroutine of its own as soon as its last block
// is built, and dropped: hclwrite's tree of a 10,000-server config held
// 100 MB live while it was formatted whole. A file's format only aligns
// and indents within the blocks it holds, so the joined files are the one
// file's bytes (TestGeneratedIsFormatted).
type sections struct {
	per   int
	cur   *hclwrite.File
	n     int
	parts []chan []byte
	// busy holds a token for each file being formatted: at most
	// GOMAXPROCS at a time, and so as many trees live.
	busy chan struct{}
}

func newSections(per int) *sections {
	return &sections{per: per, busy: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// first is the body the first block goes in, with no blank line before it.
func (s *sections) first() *hclwrite.Body {
	s.n = 1
	s.cur = hclwrite.NewEmptyFile()
	return s.cur.Body()
}

// next is the body the next top-level block goes in, a blank line
// written before it. Every block before it is built.
func (s *sections) next() *hclwrite.Body {
	if s.n%s.per == 0 {
		s.format()
		s.cur = hclwrite.NewEmptyFile()
	}
	s.n++
	b := s.cur.Body()
	b.AppendNewline()
	return b
}

// format formats the current file on a goroutine of its own.
func (s *sections) format() {
	f, part := s.cur, make(chan []byte, 1)
	s.parts = append(s.parts, part)
	s.busy <- struct{}{}
	go func() {
		defer func() { <-s.busy }()
		// Bytes is formatted already (hclwrite formats what it writes),
		// and formatting it again would lex the whole output once more: a
		// third of an import's CPU. TestGeneratedIsFormatted keeps that
		// true.
		part <- f.Bytes()
	}()
}

// bytes formats the last file and joins them all.
func (s *sections) bytes() []byte {
	s.format()
	var out []byte
	for _, part := range s.parts {
		out = append(out, <-part...)
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// inBody has every block go in b, with a blank line before it: the blocks
// inside a plugin block.
func inBody(b *hclwrite.Body) func() *hclwrite.Body {
	return func() *hclwrite.Body {
		b.AppendNewline()
		return b
	}
}

func (im *importer) components(next func() *hclwrite.Body, servers []*model.MCPServer, hooks []*model.Hook, skills []*model.Skill, rules []*model.Rule, agents []*model.Agent) {
	for _, s := range servers {
		im.server(next().AppendNewBlock("mcp_server", []string{s.Name}).Body(), s)
	}
	for _, h := range hooks {
		hookBlock(next().AppendNewBlock("hook", []string{h.Name}).Body(), h)
	}
	for _, s := range skills {
		b := next().AppendNewBlock("skill", []string{s.Name}).Body()
		if s.Folder != "" {
			b.SetAttributeValue("folder", cty.StringVal(s.Folder))
		}
		if src, ok := im.skillSrc[s]; ok {
			b.SetAttributeValue("source", cty.StringVal(src))
			continue
		}
		b.SetAttributeValue("description", cty.StringVal(s.Description))
		for _, f := range agy.SkillFields() {
			setValue(b, f.Arg, s.Value(f.Key()))
		}
		if len(s.Extra) > 0 {
			extraAttr(b, s.Extra)
		}
		b.SetAttributeRaw("body", im.body(s, s.Body))
	}
	for _, r := range rules {
		b := next().AppendNewBlock("rule", []string{r.Name}).Body()
		switch r.Trigger {
		case model.TriggerAlwaysOn:
		case "":
			b.AppendUnstructuredTokens(comment("# The live file has no trigger, which the sources contest (agyconf validate: rule/no-trigger):\n# \"none\" writes it without one, as it was.\n"))
			b.SetAttributeValue("trigger", cty.StringVal(config.TriggerNone))
		default:
			b.SetAttributeValue("trigger", cty.StringVal(r.Trigger))
		}
		if r.Globs != nil {
			b.SetAttributeValue("globs", strList(r.Globs))
		}
		if r.Description != "" {
			b.SetAttributeValue("description", cty.StringVal(r.Description))
		}
		if len(r.Extra) > 0 {
			extraAttr(b, r.Extra)
		}
		b.SetAttributeRaw("body", im.body(r, r.Body))
	}
	for _, a := range agents {
		b := next().AppendNewBlock("agent", []string{a.Name}).Body()
		for _, f := range agy.AgentFields() {
			if f.Arg == "" {
				continue
			}
			setValue(b, f.Arg, a.Value(f.Key))
		}
		if len(a.Extra) > 0 {
			extraAttr(b, a.Extra)
		}
		b.SetAttributeRaw("body", im.body(a, a.Body))
	}
}

// setValue writes an argument from a model field (a *string, *[]string or
// **bool) when it is set.
func setValue(b *hclwrite.Body, arg string, v any) {
	switch x := v.(type) {
	case *string:
		if *x != "" {
			b.SetAttributeValue(arg, cty.StringVal(*x))
		}
	case *[]string:
		if *x != nil {
			b.SetAttributeValue(arg, strList(*x))
		}
	case **bool:
		if *x != nil {
			b.SetAttributeValue(arg, cty.BoolVal(**x))
		}
	default:
		panic(fmt.Sprintf("importer: %s: unsupported %T", arg, v))
	}
}

func (im *importer) server(b *hclwrite.Body, s *model.MCPServer) {
	if s.Remote() {
		b.SetAttributeValue("server_url", cty.StringVal(s.ServerURL))
		if s.Headers != nil {
			b.SetAttributeRaw("headers", strMapTokens(s.Headers))
		}
		if s.AuthProviderType != "" {
			b.SetAttributeValue("auth_provider_type", cty.StringVal(s.AuthProviderType))
		}
	} else {
		b.SetAttributeValue("command", cty.StringVal(s.Command))
		if s.Args != nil {
			elems := make([]hclwrite.Tokens, len(s.Args))
			for i, a := range s.Args {
				elems[i] = strTokens(a)
			}
			b.SetAttributeRaw("args", hclwrite.TokensForTuple(elems))
		}
		if s.Env != nil {
			b.SetAttributeRaw("env", strMapTokens(s.Env))
		}
		if s.Cwd != "" {
			b.SetAttributeValue("cwd", cty.StringVal(s.Cwd))
		}
	}
	if s.Disabled {
		b.SetAttributeValue("disabled", cty.True)
	}
	if s.DisabledTools != nil {
		b.SetAttributeValue("disabled_tools", strList(s.DisabledTools))
	}
	if s.EnabledTools != nil {
		b.SetAttributeValue("enabled_tools", strList(s.EnabledTools))
	}
	if s.TimeoutSeconds != nil {
		b.SetAttributeValue("timeout_seconds", cty.NumberIntVal(int64(*s.TimeoutSeconds)))
	}

	if len(s.Extra) > 0 {
		extraAttr(b, s.Extra)
	}
	switch {
	case s.SecretMode != model.SecretInline:
	case !s.Remote():
		b.AppendUnstructuredTokens(comment("# The credentials below were inline in the live file; \"inline\" keeps them there (mode 0600).\n# Remove secret_mode to have agyhook exec-env read them when agy starts the server instead.\n"))
		b.SetAttributeValue("secret_mode", cty.StringVal(model.SecretInline))
	case s.OAuth == nil && s.AuthProviderType == "" && headerSecret(s.Headers):
		// The bridge is the default for such a server: inline keeps the
		// live file as it is, and the comment offers the bridge.
		b.AppendUnstructuredTokens(comment("# The header credentials were inline in the live file; \"inline\" keeps them there (mode 0600).\n# Remove secret_mode to have agyhook-bridge read them when agy starts the server instead\n# (agy then starts the bridge, a local server that relays MCP to this URL).\n"))
		b.SetAttributeValue("secret_mode", cty.StringVal(model.SecretInline))
	}
	if s.OAuth != nil {
		o := b.AppendNewBlock("oauth", nil).Body()
		o.SetAttributeRaw("client_id", strTokens(s.OAuth.ClientID))
		if s.OAuth.ClientSecret != nil {
			o.SetAttributeRaw("client_secret", strTokens(s.OAuth.ClientSecret))
		}
		if s.OAuth.Enabled != nil {
			o.SetAttributeValue("enabled", cty.BoolVal(*s.OAuth.Enabled))
		}
	}
	for _, name := range sortedKeys(s.Tools) {
		if t := s.Tools[name]; t.Eager != nil {
			b.AppendNewBlock("tool", []string{name}).Body().SetAttributeValue("eager", cty.BoolVal(*t.Eager))
		}
	}
	var todo []string
	for _, strs := range [][]model.Str{s.Args, mapValues(s.Env), mapValues(s.Headers)} {
		for _, v := range strs {
			todo = append(todo, secretPaths(v)...)
		}
	}
	if s.OAuth != nil {
		todo = append(todo, secretPaths(s.OAuth.ClientID)...)
		todo = append(todo, secretPaths(s.OAuth.ClientSecret)...)
	}
	for _, p := range todo {
		if _, placeholder := im.secretFiles[p]; !placeholder || im.opts.Out != "" {
			continue // a file the live files already name (agyhook exec-env), or one import writes
		}
		b.AppendUnstructuredTokens(comment(fmt.Sprintf("# TODO: create %s (mode 0600) holding the value: see the import report.\n", p)))
	}
}

func mapValues(m map[string]model.Str) []model.Str {
	var out []model.Str
	for _, k := range sortedKeys(m) {
		out = append(out, m[k])
	}
	return out
}

func secretPaths(s model.Str) []string {
	var out []string
	for _, p := range s {
		if p.SecretFile != "" {
			out = append(out, p.SecretFile)
		}
	}
	return out
}

// comment is text, whole lines of "# …\n", as one comment token per line:
// hclwrite indents a token, so a token of two lines would leave the second
// where it is.
func comment(text string) hclwrite.Tokens {
	var toks hclwrite.Tokens
	for _, line := range strings.SplitAfter(text, "\n") {
		if line != "" {
			toks = append(toks, &hclwrite.Token{Type: hclsyntax.TokenComment, Bytes: []byte(line)})
		}
	}
	return toks
}

func hookBlock(b *hclwrite.Body, h *model.Hook) {
	if !h.Enabled {
		b.SetAttributeValue("enabled", cty.False)
	}
	for _, event := range agy.Events() {
		ev := event.Name
		if event.Grouped {
			for _, g := range h.Groups[ev] {
				gb := b.AppendNewBlock(event.Block(), nil).Body()
				gb.SetAttributeValue("matcher", cty.StringVal(g.Matcher))
				if len(g.Handlers) == 1 {
					handlerAttrs(gb, g.Handlers[0])
					continue
				}
				for _, hd := range g.Handlers {
					handlerAttrs(gb.AppendNewBlock("handler", nil).Body(), hd)
				}
			}
			continue
		}
		for _, hd := range h.Handlers[ev] {
			handlerAttrs(b.AppendNewBlock(event.Block(), nil).Body(), hd)
		}
	}
}

func handlerAttrs(b *hclwrite.Body, h *model.Handler) {
	if h.Type == model.HandlerPrompt {
		b.SetAttributeValue("type", cty.StringVal("prompt"))
		b.SetAttributeValue("prompt", cty.StringVal(h.Prompt))
		if h.Model != "" {
			b.SetAttributeValue("model", cty.StringVal(h.Model))
		}
	} else {
		b.SetAttributeValue("command", cty.StringVal(h.Command))
	}
	b.SetAttributeValue("timeout", cty.NumberIntVal(int64(h.Timeout)))
	if len(h.Extra) > 0 {
		extraAttr(b, h.Extra)
	}
}

// body returns a markdown body: with Out, a file("…") call when the body
// is large (more than 10 lines or 512 bytes), the text written next to
// the config; otherwise a heredoc, or a quoted string for one line.
func (im *importer) body(unit any, text string) hclwrite.Tokens {
	if p, ok := im.bodyPath[unit]; ok && im.opts.Out != "" && (strings.Count(text, "\n") >= 10 || len(text) > 512) {
		im.files[p] = File{Data: []byte(text + "\n")}
		return hclwrite.TokensForFunctionCall("file", valueTokens(cty.StringVal(p)))
	}
	if !strings.Contains(text, "\n") || strings.ContainsRune(text, '\r') {
		return valueTokens(cty.StringVal(text))
	}
	delim := "EOT"
	for i := 1; hasLine(text, delim); i++ {
		delim = fmt.Sprintf("EOT%d", i)
	}
	esc := strings.NewReplacer("${", "$${", "%{", "%%{").Replace(text)
	return hclwrite.Tokens{
		{Type: hclsyntax.TokenOHeredoc, Bytes: []byte("<<" + delim + "\n")},
		{Type: hclsyntax.TokenStringLit, Bytes: []byte(esc + "\n")},
		{Type: hclsyntax.TokenCHeredoc, Bytes: []byte(delim)},
	}
}

func hasLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

func valueTokens(v cty.Value) hclwrite.Tokens { return hclwrite.TokensForValue(v) }

func strList(xs []string) cty.Value {
	if len(xs) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vs := make([]cty.Value, len(xs))
	for i, x := range xs {
		vs[i] = cty.StringVal(x)
	}
	return cty.TupleVal(vs)
}

// strTokens writes a Str: a quoted string, secret_file("…") for a whole
// secret, or a template joining text and secrets ("Bearer ${secret_file(…)}",
// jsonencode() around a secret a wrapping escapes: templateOf), read back
// from an agyhook wrapping. A value templateOf cannot write is never
// imported (printable).
func strTokens(s model.Str) hclwrite.Tokens {
	if lit, ok := s.Literal(); ok {
		return valueTokens(cty.StringVal(lit))
	}
	if len(s) == 1 && s[0].JSONEscape == 0 {
		return hclwrite.TokensForFunctionCall("secret_file", valueTokens(cty.StringVal(s[0].SecretFile)))
	}
	body, ok := templateOf(s)
	if !ok {
		panic(fmt.Sprintf("importer: no template writes %q", s.Redacted("<secret>")))
	}
	f, diags := hclwrite.ParseConfig([]byte("x = \""+body+"\"\n"), "", hcl.InitialPos)
	if diags.HasErrors() {
		panic(fmt.Sprintf("importer: template for %q does not parse: %v", s.Redacted("<secret>"), diags))
	}
	return f.Body().GetAttribute("x").Expr().BuildTokens(nil)
}

func strMapTokens(m map[string]model.Str) hclwrite.Tokens {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	attrs := make([]hclwrite.ObjectAttrTokens, len(keys))
	for i, k := range keys {
		attrs[i] = hclwrite.ObjectAttrTokens{Name: valueTokens(cty.StringVal(k)), Value: strTokens(m[k])}
	}
	return hclwrite.TokensForObject(attrs)
}

// extraAttr writes an extra = { … } argument, members sorted.
func extraAttr(b *hclwrite.Body, extra map[string]json.RawMessage) {
	attrs := map[string]cty.Value{}
	for k, raw := range extra {
		v, err := jsonToCty(raw)
		if err != nil {
			continue
		}
		attrs[k] = v
	}
	b.SetAttributeRaw("extra", valueTokens(cty.ObjectVal(attrs)))
}

func jsonToCty(raw json.RawMessage) (cty.Value, error) {
	t, err := ctyjson.ImpliedType(raw)
	if err != nil {
		return cty.NilVal, err
	}
	return ctyjson.Unmarshal(raw, t)
}

// headerSecret reports whether a header holds a secret: import moved its
// credential into a file.
func headerSecret(h map[string]model.Str) bool {
	for _, v := range h {
		if v.HasSecret() {
			return true
		}
	}
	return false
}
