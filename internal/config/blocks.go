package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/secretargs"
)

// instanceRe is the form of an instance name, which becomes a file name
// in the state folder (the CLI's --instance takes the same form).
var instanceRe = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$`)

var agyconfSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "scope"}, {Name: "product"}, {Name: "agy_version"}, {Name: "instance"}, {Name: "secret_mode"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "layout"}},
}

func layoutSchema() *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, a := range agy.KindIDs() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: string(a)})
	}
	// Read to be refused with the reason, not as an unknown argument.
	for _, r := range agy.RetiredKinds() {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: string(r.ID)})
	}
	return s
}

func (d *decoder) decodeAgyconf(b *hcl.Block) model.Agyconf {
	a := model.Agyconf{Scope: model.ScopeGlobal, Product: model.ProductBoth, Range: b.DefRange}
	c := d.content(b.Body, agyconfSchema)
	if attr := c.Attributes["scope"]; attr != nil {
		if s, ok := d.str(attr); ok {
			switch model.Scope(s) {
			case model.ScopeGlobal, model.ScopeWorkspace:
				a.Scope = model.Scope(s)
			default:
				d.errorf(attr.Expr.Range(), "Invalid scope", "scope must be \"global\" or \"workspace\", got %q.", s)
			}
		}
	}
	if attr := c.Attributes["product"]; attr != nil {
		if s, ok := d.str(attr); ok {
			switch model.Product(s) {
			case model.ProductCLI, model.ProductIDE, model.ProductBoth:
				a.Product = model.Product(s)
			default:
				d.errorf(attr.Expr.Range(), "Invalid product", "product must be \"cli\", \"ide\" or \"both\", got %q.", s)
			}
		}
	}
	if attr := c.Attributes["agy_version"]; attr != nil {
		if s, ok := d.str(attr); ok {
			if _, vok := agy.ParseVersion(s); vok {
				a.AgyVersion = s
			} else {
				d.errorf(attr.Expr.Range(), "Invalid agy_version", "agy_version must be a release number such as \"1.5.0\", got %q.", s)
			}
		}
	}
	if attr := c.Attributes["instance"]; attr != nil {
		if s, ok := d.str(attr); ok {
			if instanceRe().MatchString(s) {
				a.Instance = s
			} else {
				d.errorf(attr.Expr.Range(), "Invalid instance", "instance names the config's state: letters, digits, \".\", \"_\" and \"-\", starting with a letter or digit, at most 80 characters; got %q.", s)
			}
		}
	}
	if attr := c.Attributes["secret_mode"]; attr != nil {
		a.SecretMode, _ = d.secretModeValue(attr)
	}
	var layoutBlock *hcl.Block
	for _, lb := range c.Blocks.OfType("layout") {
		if layoutBlock != nil {
			d.duplicate(lb, layoutBlock, "layout block")
			continue
		}
		layoutBlock = lb
		lc := d.content(lb.Body, layoutSchema())
		for _, attr := range sortedAttrs(lc.Attributes) {
			name := attr.Name
			if r, retired := agy.RetiredKindOf(agy.KindID(name)); retired {
				d.errorf(attr.NameRange, "Retired layout key", "agyconf no longer writes %s: %s.", name, r.Why)
				continue
			}
			p, ok := d.nonEmptyStr(attr)
			if !ok {
				continue
			}
			if p == "." || !filepath.IsLocal(p) || filepath.ToSlash(filepath.Clean(p)) != p {
				d.errorf(attr.Expr.Range(), "Invalid path", "Layout paths are clean paths below the render root, without \"..\", got %q.", p)
				continue
			}
			if msg := PathProblem(p); msg != "" {
				d.errorf(attr.Expr.Range(), "Invalid path", "%s", msg)
				continue
			}
			if msg := layout.OverrideProblem(p); msg != "" {
				d.errorf(attr.Expr.Range(), "Invalid path", "%s.", msg)
				continue
			}
			if a.Layout == nil {
				a.Layout = map[string]string{}
			}
			a.Layout[name] = p
		}
	}
	return a
}

func (d *decoder) decodeTools(b *hcl.Block, cfg *model.Config) {
	for _, attr := range sortedAttrs(d.attrs(b.Body)) {
		if msg := entryNameProblem(attr.Name); msg != "" {
			d.errorf(attr.NameRange, "Invalid name", "%s", msg)
			continue
		}
		if first, dup := cfg.Tools[attr.Name]; dup {
			d.errorf(attr.NameRange, "Duplicate tool", "The tool %q is already set at %s.", attr.Name, rangeString(first.Range))
			continue
		}
		p, ok := d.nonEmptyStr(attr)
		if !ok {
			continue
		}
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			d.errorf(attr.Expr.Range(), "Invalid path", "Tool paths are clean absolute paths, got %q; agy runs hooks through `sh -c` from changing folders, so a relative path breaks.", p)
			continue
		}
		if cfg.Tools == nil {
			cfg.Tools = map[string]model.Tool{}
		}
		cfg.Tools[attr.Name] = model.Tool{Path: p, Range: attr.Range}
	}
}

// sortedAttrs orders attributes by position: hcl.Attributes is a map.
func sortedAttrs(as hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(as))
	for _, a := range as {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, rj := out[i].Range, out[j].Range
		if ri.Filename != rj.Filename {
			return ri.Filename < rj.Filename
		}
		return ri.Start.Byte < rj.Start.Byte
	})
	return out
}

// mcpServerSchema also names arguments agy does not read, so that the
// message can say what to write instead of only "unexpected".
var mcpServerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "command"}, {Name: "args"}, {Name: "env"}, {Name: "cwd"},
		{Name: "server_url"}, {Name: "headers"}, {Name: "auth_provider_type"},
		{Name: "disabled"}, {Name: "disabled_tools"}, {Name: "secret_mode"},
		{Name: "enabled_tools"}, {Name: "timeout_seconds"},
		{Name: "enabled"}, {Name: "url"}, {Name: "serverUrl"}, {Name: "httpUrl"}, {Name: "http_url"},
		{Name: "tools"}, {Name: "timeout"}, {Name: "extra"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "oauth"}, {Type: "tool", LabelNames: []string{"name"}}},
}

var mcpToolSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "eager"}},
}

var oauthSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "client_id"}, {Name: "client_secret"}, {Name: "enabled"}},
}

// decodeMCPServer and the other decoders of blocks a plugin may nest take
// the namespace names are unique in: "" at the top level, the plugin's
// otherwise.
func (d *decoder) decodeMCPServer(b *hcl.Block, s seen, ns string) *model.MCPServer {
	name, nameOK := d.label(b, entryNameProblem)
	if nameOK && !d.claim(s, ns+"mcp_server/"+name, b, "MCP server") {
		nameOK = false
	}
	srv := &model.MCPServer{Name: name, Range: b.DefRange}
	c := d.content(b.Body, mcpServerSchema)
	at := c.Attributes
	srv.Attrs = model.RangesOf(at)
	if attr := at["enabled"]; attr != nil {
		d.errorf(attr.NameRange, "Unsupported argument", "agy does not read \"enabled\" on an MCP server (skillsaw, agy 1.1.25); write disabled = true to turn a server off.")
	}
	for _, wrong := range []string{"url", "serverUrl", "httpUrl", "http_url"} {
		if attr := at[wrong]; attr != nil {
			d.errorf(attr.NameRange, "Unsupported argument", "Write the address of a remote server as server_url; agyconf writes it as serverUrl, the field agy reads first.")
		}
	}
	if attr := at["command"]; attr != nil {
		srv.Command, _ = d.nonEmptyStr(attr)
	}
	if attr := at["args"]; attr != nil {
		srv.Args, _ = d.secretStrList(attr)
	}
	if attr := at["env"]; attr != nil {
		srv.Env, _ = d.secretStrMap(attr, envNameProblem)
	}
	if attr := at["cwd"]; attr != nil {
		srv.Cwd, _ = d.nonEmptyStr(attr)
	}
	if attr := at["server_url"]; attr != nil {
		if u, ok := d.nonEmptyStr(attr); ok {
			if pu, err := url.Parse(u); err != nil || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Hostname() == "" {
				d.errorf(attr.Expr.Range(), "Invalid URL", "server_url must be an absolute http or https URL, got %q.", u)
			} else {
				srv.ServerURL = u
			}
		}
	}
	if attr := at["headers"]; attr != nil {
		srv.Headers, _ = d.secretStrMap(attr, headerNameProblem)
		d.headerValues(attr, srv.Headers)
	}
	if attr := at["auth_provider_type"]; attr != nil {
		if v, ok := d.str(attr); ok {
			switch v {
			case "google_credentials":
				srv.AuthProviderType = v
			case "MCP_AUTH_PROVIDER_TYPE_GOOGLE_CREDENTIALS":
				d.errorf(attr.Expr.Range(), "Invalid auth_provider_type", "agy accepts only the lowercase spelling \"google_credentials\"; the proto spelling silently drops the server (skillsaw, agy 1.1.25).")
			default:
				d.errorf(attr.Expr.Range(), "Invalid auth_provider_type", "The only auth_provider_type agy accepts is \"google_credentials\", got %q.", v)
			}
		}
	}
	if attr := at["disabled"]; attr != nil {
		srv.Disabled, _ = d.boolean(attr)
	}
	if attr := at["disabled_tools"]; attr != nil {
		if tools, ok := d.strList(attr); ok {
			srv.DisabledTools = tools
		}
	}
	d.decodeServerTools(srv, c)
	if attr := at["extra"]; attr != nil {
		srv.Extra = d.decodeExtra(attr, codec.MCPServerSet)
	}
	var oauthBlock *hcl.Block
	for _, ob := range c.Blocks.OfType("oauth") {
		if oauthBlock != nil {
			d.duplicate(ob, oauthBlock, "oauth block")
			continue
		}
		oauthBlock = ob
		oc := d.content(ob.Body, oauthSchema)
		srv.OAuth = &model.OAuth{}
		if attr := oc.Attributes["client_id"]; attr != nil {
			srv.OAuth.ClientID, _ = d.secretStr(attr)
		} else {
			d.errorf(ob.Body.MissingItemRange(), "Missing required argument", "An oauth block needs client_id.")
		}
		if attr := oc.Attributes["client_secret"]; attr != nil {
			srv.OAuth.ClientSecret, _ = d.secretStr(attr)
		}
		if attr := oc.Attributes["enabled"]; attr != nil {
			// What agy itself records after an /mcp sign-in (realworld
			// case 27): kept as written.
			if v, ok := d.boolean(attr); ok {
				srv.OAuth.Enabled = &v
			}
		}
	}

	d.decodeSecretMode(srv, at, oauthBlock)

	// The connection: exactly one of command and server_url.
	cmd, remote := at["command"], at["server_url"]
	switch {
	case cmd != nil && remote != nil:
		d.errorf(remote.NameRange, "Conflicting arguments", "A server has either command (local) or server_url (remote), not both: agy would use server_url and silently ignore command (skillsaw, agy 1.1.25).")
	case cmd == nil && remote == nil && !d.misspelt(b.Body.MissingItemRange(), "command", "server_url"):
		d.errorf(b.DefRange, "Missing connection", "An MCP server needs command (a local server) or server_url (a remote one); without either agy loads it and never connects.")
	case remote != nil:
		for _, local := range []string{"args", "env", "cwd"} {
			if attr := at[local]; attr != nil {
				d.errorf(attr.NameRange, "Conflicting arguments", "%q applies to local servers only; this one has server_url.", local)
			}
		}
	case cmd != nil:
		if attr := at["headers"]; attr != nil {
			d.errorf(attr.NameRange, "Conflicting arguments", "\"headers\" applies to remote servers only; this one has command.")
		}
		if attr := at["auth_provider_type"]; attr != nil {
			d.errorf(attr.NameRange, "Conflicting arguments", "\"auth_provider_type\" applies to remote servers only; this one has command.")
		}
		if oauthBlock != nil {
			d.errorf(oauthBlock.DefRange, "Conflicting arguments", "An oauth block applies to remote servers only; this one has command.")
		}
	}
	if !nameOK {
		return nil
	}
	return srv
}

// decodeServerTools decodes what a server says about its tools and its
// launch: enabled_tools, timeout_seconds and tool blocks, each read only by
// newer agy builds (internal/agy's table).
func (d *decoder) decodeServerTools(srv *model.MCPServer, c *hcl.BodyContent) {
	at := c.Attributes
	if attr := at["tools"]; attr != nil {
		d.errorf(attr.NameRange, "Unsupported argument", "Write each tool's settings as a block: tool \"NAME\" { eager = true }, written as tools.NAME.eager.")
	}
	if attr := at["timeout"]; attr != nil {
		d.errorf(attr.NameRange, "Unsupported argument", "agy reads a server's launch timeout as timeoutSeconds: write timeout_seconds (-1 for no limit).")
	}
	if attr := at["enabled_tools"]; attr != nil {
		if tools, ok := d.strList(attr); ok && d.newer(attr.NameRange, agy.MCPEnabledTools, "enabled_tools") {
			srv.EnabledTools = tools
		}
		if dt := at["disabled_tools"]; dt != nil {
			d.errorf(dt.NameRange, "Conflicting arguments", "Write one of enabled_tools (the only tools agy offers) and disabled_tools (the tools it hides), not both: no source says how agy combines the two lists.")
		}
	}
	if attr := at["timeout_seconds"]; attr != nil {
		if n, ok := d.integer(attr, -1, 1<<31-1); ok {
			switch {
			case n == 0:
				d.errorf(attr.Expr.Range(), "Invalid timeout", "timeout_seconds is how long agy waits for the server to launch: a number of seconds, or -1 for no limit (agy CLI changelog 1.0.7); 0 has no documented meaning.")
			case d.newer(attr.NameRange, agy.MCPTimeoutSeconds, "timeout_seconds"):
				srv.TimeoutSeconds = &n
			}
		}
	}
	var first map[string]*hcl.Block
	for _, tb := range c.Blocks.OfType("tool") {
		name := tb.Labels[0]
		if strings.TrimSpace(name) == "" || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			d.errorf(tb.LabelRanges[0], "Invalid name", "A tool name is the name the server gives the tool, such as \"list_servers\": not empty, no control characters.")
			continue
		}
		if prev, dup := first[name]; dup {
			d.duplicate(tb, prev, "tool block")
			continue
		}
		if first == nil {
			first = map[string]*hcl.Block{}
		}
		first[name] = tb
		tc := d.content(tb.Body, mcpToolSchema)
		t := &model.MCPTool{Range: tb.DefRange}
		attr := tc.Attributes["eager"]
		if attr == nil {
			d.errorf(tb.Body.MissingItemRange(), "Missing required argument", "A tool block sets eager: true loads the tool's declaration at startup, false on demand.")
			continue
		}
		if v, ok := d.boolean(attr); ok {
			t.Eager = &v
		}
		if !d.newer(tb.DefRange, agy.MCPToolLoading, "A tool block") {
			continue
		}
		if srv.Tools == nil {
			srv.Tools = map[string]*model.MCPTool{}
		}
		srv.Tools[name] = t
	}
}

// newer reports whether the config's agy_version has feature f, and
// otherwise refuses what at rng uses it: written for a build that does not
// read it, it does nothing (or not what was meant) without a word.
func (d *decoder) newer(rng hcl.Range, f agy.Feature, what string) bool {
	b := agy.BehaviourOf(f)
	if d.agyVersion.AtLeast(b.Since) {
		return true
	}
	d.errorf(rng, "Needs a newer agy_version", "%s is read by agy %s and newer (%s). Set agyconf { agy_version = \"%s\" } or newer if your agy has it.", what, b.Since, b.Source, b.Since)
	return false
}

// hookSchema takes every event's block (internal/agy's table), and the
// hooks.json spelling of each too, to answer it with the input language's
// spelling.
var hookSchema = func() *hcl.BodySchema {
	s := &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}}
	for _, ev := range agy.Events() {
		s.Blocks = append(s.Blocks, hcl.BlockHeaderSchema{Type: ev.Block()}, hcl.BlockHeaderSchema{Type: string(ev.Name)})
	}
	return s
}()

// eventBlockList names every event block, for messages.
func eventBlockList() string { return strings.Join(eventBlocks(), ", ") }

// eventBlocks are the hook events' block names.
func eventBlocks() []string {
	var names []string
	for _, ev := range agy.Events() {
		names = append(names, ev.Block())
	}
	return names
}

// Handler arguments, and the ones agy silently discards (skillsaw, agy 1.1.25).
var (
	handlerAttrs   = []string{"type", "command", "prompt", "model", "timeout", "extra"}
	discardedAttrs = []string{"env", "cwd", "name", "background"}
)

func handlerSchema(extra ...string) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, n := range append(append(append([]string{}, handlerAttrs...), discardedAttrs...), extra...) {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: n})
	}
	return s
}

var (
	groupSchema = func() *hcl.BodySchema {
		s := handlerSchema("matcher")
		s.Blocks = []hcl.BlockHeaderSchema{{Type: "handler"}}
		return s
	}()
	flatSchema = func() *hcl.BodySchema {
		s := handlerSchema("matcher")
		s.Blocks = []hcl.BlockHeaderSchema{{Type: "handler"}}
		return s
	}()
	handlerOnlySchema = handlerSchema()
)

func (d *decoder) decodeHook(b *hcl.Block, s seen, ns string) *model.Hook {
	name, nameOK := d.label(b, entryNameProblem)
	if nameOK && !d.claim(s, ns+"hook/"+name, b, "hook") {
		nameOK = false
	}
	h := &model.Hook{Name: name, Enabled: true, Range: b.DefRange}
	c := d.content(b.Body, hookSchema)
	if attr := c.Attributes["enabled"]; attr != nil {
		h.Enabled, _ = d.boolean(attr)
	}
	events := 0
	for _, eb := range c.Blocks {
		events++
		event, ok := agy.EventForBlock(eb.Type)
		if !ok {
			named, _ := agy.EventNamed(eb.Type)
			d.errorf(eb.DefRange, "Unsupported block type", "Events are written in snake_case here: use %s { … } for %s.", named.Block(), eb.Type)
			continue
		}
		ev := event.Name
		if !d.agyVersion.AtLeast(event.Since) {
			d.errorf(eb.DefRange, "Needs a newer agy_version", "%s exists only in agy %s and newer (%s), and a hooks.json naming an event the build rejects may be dropped whole. Set agyconf { agy_version = \"%s\" } or newer if your agy has it.", ev, event.Since, event.Source.Ref, event.Since)
		}
		if event.Grouped {
			if g := d.decodeGroup(eb); g != nil {
				if h.Groups == nil {
					h.Groups = map[model.Event][]*model.MatcherGroup{}
				}
				h.Groups[ev] = append(h.Groups[ev], g)
			}
			continue
		}
		bc := d.content(eb.Body, flatSchema)
		if attr := bc.Attributes["matcher"]; attr != nil {
			d.errorf(attr.NameRange, "Matcher on a flat event", "%s has no matcher: agy ignores it there. Matchers belong to pre_tool_use and post_tool_use.", eb.Type)
		}
		if hbs := bc.Blocks.OfType("handler"); len(hbs) > 0 {
			d.errorf(hbs[0].DefRange, "Unsupported block type", "A %s block is one handler, written inline; repeat the %s block for several handlers, which run in the order written.", eb.Type, eb.Type)
			continue
		}
		if hd := d.decodeHandler(bc, eb.DefRange, eb.Body.MissingItemRange()); hd != nil {
			if h.Handlers == nil {
				h.Handlers = map[model.Event][]*model.Handler{}
			}
			h.Handlers[ev] = append(h.Handlers[ev], hd)
		}
	}
	if events == 0 && !d.misspelt(b.Body.MissingItemRange(), eventBlocks()...) {
		// A misspelt event block has been reported, with the name it
		// likely meant: one typo, one error.
		d.errorf(b.DefRange, "Hook without events", "Hook %q has no event blocks; add one of %s.", name, eventBlockList())
	}
	if !nameOK {
		return nil
	}
	return h
}

func (d *decoder) decodeGroup(eb *hcl.Block) *model.MatcherGroup {
	bc := d.content(eb.Body, groupSchema)
	g := &model.MatcherGroup{Range: eb.DefRange, Attrs: model.RangesOf(bc.Attributes)}
	if attr := bc.Attributes["matcher"]; attr != nil {
		if m, ok := d.str(attr); ok {
			if m != "" && m != "*" {
				if msg := matcherProblem(m); msg != "" {
					d.errorf(attr.Expr.Range(), "Invalid matcher", "%s", msg)
				}
			}
			g.Matcher = m
		}
	} else if !d.misspelt(eb.Body.MissingItemRange(), "matcher") {
		d.errorf(eb.Body.MissingItemRange(), "Missing required argument", "%s needs a matcher: a regular expression over tool names such as \"run_command\", or \"*\" for every tool.", eb.Type)
	}
	inline := false
	for _, n := range append(append([]string{}, handlerAttrs...), discardedAttrs...) {
		if bc.Attributes[n] != nil {
			inline = true
		}
	}
	handlers := bc.Blocks.OfType("handler")
	switch {
	case inline && len(handlers) > 0:
		d.errorf(handlers[0].DefRange, "Conflicting handlers", "Write one handler inline in %s or several handler blocks, not both.", eb.Type)
	case inline:
		if hd := d.decodeHandler(bc, eb.DefRange, eb.Body.MissingItemRange()); hd != nil {
			g.Handlers = append(g.Handlers, hd)
		}
	case len(handlers) == 0 && !d.misspelt(eb.Body.MissingItemRange(), "command", "handler", "prompt"):
		d.errorf(eb.Body.MissingItemRange(), "Missing handler", "%s needs a command, written inline or in handler blocks.", eb.Type)
	default:
		for _, hb := range handlers {
			hc := d.content(hb.Body, handlerOnlySchema)
			if hd := d.decodeHandler(hc, hb.DefRange, hb.Body.MissingItemRange()); hd != nil {
				g.Handlers = append(g.Handlers, hd)
			}
		}
	}
	return g
}

func (d *decoder) decodeHandler(c *hcl.BodyContent, def, missing hcl.Range) *model.Handler {
	at := c.Attributes
	for _, n := range discardedAttrs {
		if attr := at[n]; attr != nil {
			d.errorf(attr.NameRange, "Unsupported argument", "agy silently discards a handler's %q (skillsaw, agy 1.1.25); pass what the command needs as arguments in command.", n)
		}
	}
	h := &model.Handler{Type: model.HandlerCommand, Timeout: model.DefaultTimeout, Range: def, Attrs: model.RangesOf(at)}
	ok := true
	if attr := at["extra"]; attr != nil {
		h.Extra = d.decodeExtra(attr, codec.HandlerSet)
	}
	if attr := at["type"]; attr != nil {
		if t, tok := d.str(attr); tok {
			switch model.HandlerType(t) {
			case model.HandlerCommand:
			case model.HandlerPrompt:
				h.Type = model.HandlerPrompt
				if ph := agy.BehaviourOf(agy.PromptHandlers); !d.agyVersion.AtLeast(ph.Since) {
					d.errorf(attr.Expr.Range(), "Needs a newer agy_version", "Prompt handlers were measured on agy %s and are unknown to older builds, which would drop the whole hooks.json (%s). Set agyconf { agy_version = \"%s\" } or newer if your agy has them.", ph.Since, ph.Source.Ref, ph.Since)
					ok = false
				}
			default:
				d.errorf(attr.Expr.Range(), "Invalid handler type", "type must be \"command\" or \"prompt\" (lowercase: agy refuses other spellings), got %q.", t)
				ok = false
			}
		} else {
			ok = false
		}
	}
	if attr := at["timeout"]; attr != nil {
		t, tok := d.timeout(attr)
		h.Timeout, ok = t, ok && tok
	}
	switch h.Type {
	case model.HandlerCommand:
		if attr := at["command"]; attr != nil {
			cmd, cok := d.nonEmptyStr(attr)
			h.Command, ok = cmd, ok && cok
		} else if !d.misspelt(missing, "command") {
			d.errorf(missing, "Missing required argument", "A command handler needs command: the program agy runs through `sh -c`.")
			ok = false
		}
		for _, n := range []string{"prompt", "model"} {
			if attr := at[n]; attr != nil {
				d.errorf(attr.NameRange, "Conflicting arguments", "%q belongs to prompt handlers; agy refuses a command handler carrying it.", n)
				ok = false
			}
		}
	case model.HandlerPrompt:
		if attr := at["prompt"]; attr != nil {
			p, pok := d.nonEmptyStr(attr)
			h.Prompt, ok = p, ok && pok
		} else if !d.misspelt(missing, "prompt") {
			d.errorf(missing, "Missing required argument", "A prompt handler needs prompt.")
			ok = false
		}
		if attr := at["model"]; attr != nil {
			m, mok := d.nonEmptyStr(attr)
			h.Model, ok = m, ok && mok
		}
		if attr := at["command"]; attr != nil {
			d.errorf(attr.NameRange, "Conflicting arguments", "A prompt handler carrying command is refused by agy; remove command or use type = \"command\".")
			ok = false
		}
	}
	if !ok {
		return nil
	}
	return h
}

// timeout decodes a handler timeout. agy reads it as an int32 of seconds and
// drops the whole hooks.json for a float or a string (skillsaw, agy 1.1.25). Zero
// and negative values load, with no documented meaning, so they are refused.
func (d *decoder) timeout(attr *hcl.Attribute) (int, bool) {
	v, ok := d.eval(attr.Expr)
	if !ok {
		return 0, false
	}
	if v.Type() == cty.String {
		d.errorf(attr.Expr.Range(), "Invalid timeout", "timeout must be a number of seconds, not a string: agy drops the whole hooks.json for a quoted timeout.")
		return 0, false
	}
	if v.Type() == cty.Number && !v.ContainsMarked() {
		if bf := v.AsBigFloat(); !bf.IsInt() {
			d.errorf(attr.Expr.Range(), "Invalid timeout", "timeout must be a whole number of seconds, got %s: agy drops the whole hooks.json for a fractional timeout.", bf.Text('g', 10))
			return 0, false
		}
	}
	return d.integer(attr, 1, 1<<31-1)
}

// skillSchema is the skill block's arguments: description, body, source,
// and one per further SKILL.md key of agy's table.
func skillSchema() *hcl.BodySchema {
	attrs := []hcl.AttributeSchema{{Name: "description"}, {Name: "body"}, {Name: "source"}, {Name: "extra"}, {Name: "folder"}}
	for _, f := range agy.SkillFields() {
		attrs = append(attrs, hcl.AttributeSchema{Name: f.Arg})
	}
	return &hcl.BodySchema{Attributes: attrs}
}

func (d *decoder) decodeSkill(b *hcl.Block, s seen, ns string) *model.Skill {
	name, nameOK := d.label(b, skillNameProblem)
	if nameOK && !d.claim(s, ns+"skill/"+name, b, "skill") {
		nameOK = false
	}
	sk := &model.Skill{Name: name, Range: b.DefRange}
	c := d.content(b.Body, skillSchema())
	at := c.Attributes
	d.skillFields(sk, at)
	if attr := at["description"]; attr != nil {
		sk.Description, _ = d.nonEmptyStr(attr)
	}
	if attr := at["folder"]; attr != nil {
		// agy names a skill by its frontmatter and finds it in any folder
		// below skills/: a folder named otherwise, as a live tree has it.
		if f, ok := d.nonEmptyStr(attr); ok {
			if p := entryNameProblem(f); p != "" {
				d.errorf(attr.Expr.Range(), "Invalid folder", "%s", p)
			} else if f != name {
				sk.Folder = f
			}
		}
	}
	if attr := at["extra"]; attr != nil {
		if at["source"] != nil {
			d.errorf(attr.NameRange, "Conflicting arguments", "extra is written into the SKILL.md agyconf writes from body; a skill with source carries its own SKILL.md: put these keys in that file's frontmatter.")
		} else {
			sk.Extra = d.decodeExtra(attr, codec.SkillSet)
		}
	}
	body, source := at["body"], at["source"]
	switch {
	case body != nil && source != nil:
		d.errorf(source.NameRange, "Conflicting arguments", "A skill has either body (its SKILL.md text) or source (a folder holding SKILL.md), not both.")
	case body == nil && source == nil && !d.misspelt(b.Body.MissingItemRange(), "body", "source"):
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A skill needs body, its instructions (often body = file(\"skills/%s.md\")), or source, a folder holding SKILL.md.", name)
	case body != nil:
		if text, ok := d.nonEmptyStr(body); ok {
			if l := agy.LimitOf(agy.SkillBody); l.Exceeds(text) {
				d.errorf(body.Expr.Range(), "Skill body too long", "The body is %d %s; %s (%s). Move detail into files next to SKILL.md with source = \"…\".", l.Measure(text), l.Unit, l.Summary, l.Source.Ref)
			}
			sk.Body = text
		}
		if at["description"] == nil && !d.misspelt(b.Body.MissingItemRange(), "description") {
			d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A skill needs description: it is all the model sees before it decides to load the skill.")
		}
	case source != nil:
		if p, ok := d.nonEmptyStr(source); ok {
			full, err := confinedPath(configDir(source.Expr.Range().Filename), p, d.scope)
			switch {
			case err != nil:
				d.errorf(source.Expr.Range(), "Invalid source", "%s", err)
			case !isFile(filepath.Join(full, "SKILL.md")):
				d.errorf(source.Expr.Range(), "Invalid source", "%s must be a folder holding SKILL.md: agyconf writes skills as <name>/SKILL.md, the form every source has Antigravity discover (a flat skills/<name>.md is not: the sources disagree).", p)
			default:
				files, err := readSkillFolder(full)
				if err != nil {
					d.errorf(source.Expr.Range(), "Invalid source", "%s", err)
					break
				}
				if msg := checkSkillMD(files, name); msg != "" {
					d.errorf(source.Expr.Range(), "Invalid source", "%s/SKILL.md: %s", p, msg)
					break
				}
				sk.Source, sk.Files = full, files
				d.rec.add("tree", full, treeSum(files))
			}
		}
	}
	if !nameOK {
		return nil
	}
	return sk
}

// skillFields decodes the SKILL.md keys of agy.SkillFields, which a skill
// with body writes; a skill with source carries its SKILL.md as it is.
func (d *decoder) skillFields(sk *model.Skill, at hcl.Attributes) {
	for _, f := range agy.SkillFields() {
		attr := at[f.Arg]
		if attr == nil {
			continue
		}
		if at["source"] != nil {
			d.errorf(attr.NameRange, "Conflicting arguments", "%s is written into the SKILL.md agyconf writes from body; a skill with source carries its own SKILL.md: put %s in that file's frontmatter.", f.Arg, f.Key())
			continue
		}
		if since := f.Since(); !d.agyVersion.AtLeast(since) {
			d.errorf(attr.NameRange, "Needs a newer agy_version", "agy reads %s in SKILL.md only since %s (%s); an older build ignores it. Set agyconf { agy_version = \"%s\" } or newer if your agy has it.", f.Key(), since, agy.BehaviourOf(f.Feature).Source, since)
		}
		switch dst := sk.Value(f.Key()).(type) {
		case *string:
			*dst, _ = d.nonEmptyStr(attr)
		case **bool:
			if v, ok := d.boolean(attr); ok {
				*dst = &v
			}
		default:
			panic(fmt.Sprintf("config: SKILL.md key %s has no field in model.Skill", f.Key()))
		}
	}
}

// TriggerNone is the trigger argument of a rule written without a
// trigger key: agy has no such value; the sources contest whether agy
// loads such a rule (internal/lint's rule/no-trigger).
const TriggerNone = "none"

var ruleSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "trigger"}, {Name: "globs"}, {Name: "description"}, {Name: "body"}, {Name: "extra"}},
}

func (d *decoder) decodeRule(b *hcl.Block, s seen, ns string) *model.Rule {
	name, nameOK := d.label(b, entryNameProblem)
	if nameOK && !d.claim(s, ns+"rule/"+name, b, "rule") {
		nameOK = false
	}
	r := &model.Rule{Name: name, Trigger: model.TriggerAlwaysOn, Range: b.DefRange}
	c := d.content(b.Body, ruleSchema)
	at := c.Attributes
	if attr := at["trigger"]; attr != nil {
		if t, ok := d.str(attr); ok {
			switch t {
			case model.TriggerAlwaysOn, model.TriggerGlob, model.TriggerModelDecision, model.TriggerManual:
				r.Trigger = t
			case TriggerNone:
				// A rule written without one, as import gives back a
				// file that has none: the sources contest whether agy
				// loads it, which the check of the rendered file says
				// (rule/no-trigger).
				r.Trigger = ""
			default:
				d.errorf(attr.Expr.Range(), "Invalid trigger", "trigger must be one of \"always_on\", \"glob\", \"model_decision\", \"manual\", or \"none\" for a rule written without a trigger, got %q.", t)
			}
		}
	}
	if attr := at["globs"]; attr != nil {
		// With another trigger agy does not read them: the check of the
		// rendered file warns (rule/globs-ignored), and they are written
		// as given, as import gives a live file back.
		es, _ := d.elems(attr)
		for _, e := range es {
			g, ok := d.plainStr(e.val, e.rng)
			if !ok {
				continue
			}
			switch {
			case strings.TrimSpace(g) == "":
				d.errorf(e.rng, "Invalid glob", "A glob is empty.")
			case strings.Contains(g, ","):
				d.errorf(e.rng, "Invalid glob", "The glob %q contains a comma; Antigravity reads globs as one comma-separated string, so it would split this glob in two. Write each alternative as its own list element.", g)
			default:
				r.Globs = append(r.Globs, g)
			}
		}
		if len(es) == 0 && r.Trigger == model.TriggerGlob {
			d.errorf(attr.Expr.Range(), "Invalid glob", "globs is empty; a glob rule needs at least one glob.")
		}
		if r.Globs == nil && len(es) == 0 {
			r.Globs = []string{}
		}
	} else if r.Trigger == model.TriggerGlob && !d.misspelt(b.Body.MissingItemRange(), "globs") {
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A rule with trigger = \"glob\" needs globs, such as globs = [\"**/*.go\"].")
	}
	if attr := at["description"]; attr != nil {
		r.Description, _ = d.nonEmptyStr(attr)
	} else if r.Trigger == model.TriggerModelDecision && !d.misspelt(b.Body.MissingItemRange(), "description") {
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A rule with trigger = \"model_decision\" needs description: it is what the model decides on.")
	}
	if attr := at["extra"]; attr != nil {
		r.Extra = d.decodeExtra(attr, codec.RuleSet)
	}
	// No limit per rule: what the rules take together counts against a
	// budget agy cuts to (agy.RuleBudget), judged over the rendered plan.
	r.Body = d.markdownBody(b, at["body"], "rule", "")
	if !nameOK {
		return nil
	}
	return r
}

// markdownBody decodes the required body of a rule or workflow, refused
// over limit when one is given ("" for none).
func (d *decoder) markdownBody(b *hcl.Block, attr *hcl.Attribute, what string, limit agy.LimitID) string {
	if attr == nil {
		if d.misspelt(b.Body.MissingItemRange(), "body") {
			return ""
		}
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A %s needs body: its markdown text, inline or as body = file(\"…\").", what)
		return ""
	}
	text, ok := d.nonEmptyStr(attr)
	if ok && limit != "" {
		if l := agy.LimitOf(limit); l.Exceeds(text) {
			d.errorf(attr.Expr.Range(), "Body too long", "The body has %d %s; %s (%s). Split it.", l.Measure(text), l.Unit, l.Summary, l.Source.Ref)
		}
	}
	return text
}

// agentSchema is the agent block's arguments: body, and one per
// frontmatter key of agy's table.
func agentSchema() *hcl.BodySchema {
	attrs := []hcl.AttributeSchema{{Name: "body"}, {Name: "extra"}}
	for _, f := range agy.AgentFields() {
		if f.Arg != "" {
			attrs = append(attrs, hcl.AttributeSchema{Name: f.Arg})
		}
	}
	return &hcl.BodySchema{Attributes: attrs}
}

func (d *decoder) decodeAgent(b *hcl.Block, s seen, ns string) *model.Agent {
	name, nameOK := d.label(b, entryNameProblem)
	if nameOK && !d.claim(s, ns+"agent/"+name, b, "agent") {
		nameOK = false
	}
	a := &model.Agent{Name: name, Range: b.DefRange}
	c := d.content(b.Body, agentSchema())
	at := c.Attributes
	if at["description"] == nil && !d.misspelt(b.Body.MissingItemRange(), "description") {
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A subagent needs description: the main agent reads it to decide when to delegate.")
	}
	if attr := at["body"]; attr != nil {
		a.Body, _ = d.nonEmptyStr(attr)
	} else if !d.misspelt(b.Body.MissingItemRange(), "body") {
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A subagent needs body: its system prompt.")
	}
	// In the table's order, not the map's, so that diagnostics come out
	// in the same order on every run.
	for _, f := range agy.AgentFields() {
		attr := at[f.Arg]
		if f.Arg == "" || attr == nil {
			continue
		}
		if since := f.Since(); !d.agyVersion.AtLeast(since) {
			beh := agy.BehaviourOf(f.Feature)
			d.errorf(attr.NameRange, "Needs a newer agy_version", "agy reads %s in a subagent's frontmatter only since %s (%s); an older build ignores it, and the agent would run without what it asks for. Set agyconf { agy_version = \"%s\" } or newer if your agy has it.", f.Key, since, beh.Source, since)
		}
		switch dst := a.Value(f.Key).(type) {
		case *string:
			*dst, _ = d.nonEmptyStr(attr)
		case *[]string:
			*dst, _ = d.strList(attr)
		case **bool:
			if v, ok := d.boolean(attr); ok {
				*dst = &v
			}
		default:
			panic(fmt.Sprintf("config: agent frontmatter key %s has no field in model.Agent", f.Key))
		}
	}
	// The escape hatch: frontmatter keys agyconf does not know yet.
	if attr := at["extra"]; attr != nil {
		a.Extra = d.decodeExtra(attr, codec.AgentSet)
	}
	if !nameOK {
		return nil
	}
	return a
}

var workflowSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "description"}, {Name: "body"}, {Name: "extra"}},
}

func (d *decoder) decodeWorkflow(b *hcl.Block, s seen) *model.Workflow {
	name, nameOK := d.label(b, entryNameProblem)
	if nameOK && !d.claim(s, "workflow/"+name, b, "workflow") {
		nameOK = false
	}
	w := &model.Workflow{Name: name, Range: b.DefRange}
	c := d.content(b.Body, workflowSchema)
	if attr := c.Attributes["description"]; attr != nil {
		w.Description, _ = d.nonEmptyStr(attr)
	}
	if attr := c.Attributes["extra"]; attr != nil {
		w.Extra = d.decodeExtra(attr, codec.WorkflowSet)
	}
	w.Body = d.markdownBody(b, c.Attributes["body"], "workflow", agy.WorkflowBody)
	if !nameOK {
		return nil
	}
	return w
}

var contextSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "body"}}}

// decodeContext decodes a context block: a whole file of global rules agy
// reads besides GEMINI.md's managed block (agy.ContextFiles), labelled by
// its path below the home.
func (d *decoder) decodeContext(b *hcl.Block, s seen) *model.Context {
	p := b.Labels[0]
	c := &model.Context{Path: p, Range: b.DefRange}
	r, ok := agy.ContextFileAt(p)
	if !ok {
		var places []string
		for _, x := range agy.ContextFiles() {
			places = append(places, strconv.Quote(x.Path))
		}
		d.errorf(b.LabelRanges[0], "Invalid path", "A context block writes one of the files of global rules agy reads whole: %s. The rules of ~/.gemini/GEMINI.md are rule blocks (its managed block).", strings.Join(places, ", "))
	} else if f := agy.BehaviourOf(r.Feature); r.Feature != "" && !d.agyVersion.AtLeast(f.Since) {
		d.errorf(b.LabelRanges[0], "Needs a newer agy_version", "agy reads %s only since %s (%s); an older build ignores it. Set agyconf { agy_version = \"%s\" } or newer if your agy has it.", p, f.Since, r.Source, f.Since)
	}
	if ok && !d.claim(s, "context/"+p, b, "context") {
		ok = false
	}
	at := d.content(b.Body, contextSchema).Attributes
	if attr := at["body"]; attr != nil {
		c.Body, _ = d.nonEmptyStr(attr)
	} else {
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "A context block needs body: the file's text, inline or as body = file(\"…\").")
	}
	if !ok {
		return nil
	}
	return c
}

var permissionsSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "allow"}, {Name: "ask"}, {Name: "deny"}},
}

// ValidPermission reports whether entry is `action` or `action(target)`
// with an action agy knows, as a permissions block requires.
func ValidPermission(entry string) bool { _, ok := agy.ParsePermission(entry); return ok }

// SettingValues returns the values agy accepts for a settings key the
// input language knows — nil when any value of the key's type will do —
// and whether it knows the key at all.
func SettingValues(key string) (values []string, known bool) {
	k, known := agy.SettingKeyOf(key)
	return append([]string(nil), k.Values...), known
}

// permissionEntry checks one entry of a permissions list; ok is false for
// one that is refused. Deprecated actions are a warning with the entry agy
// asks for instead.
func (d *decoder) permissionEntry(list, entry string, rng hcl.Range) bool {
	p, ok := agy.ParsePermission(entry)
	if !ok {
		d.errorf(rng, "Invalid permission", "%q is not a permission entry: write action or action(target), with action one of %s — such as \"command(git *)\".", entry, strings.Join(agy.PermissionActionNames(), ", "))
		return false
	}
	if p.ZeroCommandWords() {
		c := agy.PermissionChangeOf("zero-word-entries")
		d.errorf(rng, "Command rule without a command", "%q names no command: its target tokenizes to zero command words (time alone, a comment, an empty compound such as ()). agy %s and newer match such an entry against nothing, older builds matched it against every command and auto-approved anything the agent ran (%s). Name the command, such as \"command(time make)\".", entry, c.Since, c.Source)
		return false
	}
	if pattern, isPattern := p.Pattern(); isPattern {
		if _, err := regexp.Compile(pattern); err != nil {
			d.errorf(rng, "Invalid pattern", "The pattern of %q does not compile as a regular expression (Go's RE2 syntax, checked here; agy's own engine is not documented and may accept a little more or less): %v.", entry, err)
			return false
		}
		if b := agy.BehaviourOf(agy.RegexCommandRules); !d.agyVersion.AtLeast(b.Since) {
			d.errorf(rng, "Needs a newer agy_version", "%q is a pattern rule: agy %s and newer match command(regex:…) as a regular expression; older builds read every rule as a pattern, \"regex:\" included, so it matches nothing there (%s). Set agyconf { agy_version = \"%s\" } or newer if your agy has it, or write the command literally.", entry, b.Since, b.Source.Ref, b.Since)
			return false
		}
	} else if advice := p.LookalikeAdvice(); advice != "" {
		d.warnf(rng, "settings/literal-pattern", p.LookalikeLine(), "%s.", advice)
	}
	if advice := p.DeprecationAdvice(list); advice != "" {
		d.warnf(rng, "settings/deprecated-action", p.DeprecationLine(), "%s", advice)
	}
	return true
}

// decodePermissions decodes a permissions or shared_permissions block.
// where records each entry's list across both blocks: the CLI merges the
// two files (agy 1.0.5), so an entry belongs in one list of one block.
func (d *decoder) decodePermissions(b *hcl.Block, where map[string]string) *model.Permissions {
	p := &model.Permissions{Range: b.DefRange}
	c := d.content(b.Body, permissionsSchema)
	for _, list := range []struct {
		name string
		dst  *[]string
	}{{"allow", &p.Allow}, {"ask", &p.Ask}, {"deny", &p.Deny}} {
		attr := c.Attributes[list.name]
		if attr == nil {
			continue
		}
		es, _ := d.elems(attr)
		// An empty list is written as such (import gives one back).
		*list.dst = []string{}
		for _, e := range es {
			entry, ok := d.plainStr(e.val, e.rng)
			if !ok {
				continue
			}
			if !d.permissionEntry(list.name, entry, e.rng) {
				continue
			}
			at := list.name
			if b.Type != "permissions" {
				at = b.Type + "." + list.name
			}
			if other, dup := where[entry]; dup {
				if strings.Contains(other, ".") != strings.Contains(at, ".") {
					d.errorf(e.rng, "Duplicate permission", "%q is already listed in %s; the CLI merges its settings.json with the grants shared with Antigravity 2.0 (agy 1.0.5), so list it once: in shared_permissions for both, in permissions for the CLI alone.", entry, other)
					continue
				}
				d.errorf(e.rng, "Duplicate permission", "%q is already listed in %s; agy applies deny over ask over allow, so list it once where you mean it.", entry, other)
				continue
			}
			where[entry] = at
			*list.dst = append(*list.dst, entry)
			if target, ok := strings.CutPrefix(entry, "mcp("); ok {
				server, _, _ := strings.Cut(strings.TrimSuffix(target, ")"), "/")
				d.mcpRefs = append(d.mcpRefs, mcpRef{server: server, entry: entry, rng: e.rng})
			}
		}
	}
	return p
}

// settingValue checks the value of a settings key agyconf knows; ok is
// false for one that is refused.
func (d *decoder) settingValue(k agy.SettingKey, attr *hcl.Attribute, v cty.Value) bool {
	switch k.Type {
	case agy.SettingEnum:
		s, ok := d.plainStr(v, attr.Expr.Range())
		if !ok {
			return false
		}
		if !contains(k.Values, s) {
			d.errorf(attr.Expr.Range(), "Invalid value", "%s must be one of %s, got %q; agy treats an unknown value as the default.", k.Key, quoteList(k.Values), s)
			return false
		}
		if f, newer := k.NewerValues[s]; newer {
			if b := agy.BehaviourOf(f); !d.agyVersion.AtLeast(b.Since) {
				d.errorf(attr.Expr.Range(), "Needs a newer agy_version", "%s = %q exists only in agy %s and newer (%s); an older build does not know the value. Set agyconf { agy_version = \"%s\" } or newer if your agy has it.", k.Key, s, b.Since, b.Source.Ref, b.Since)
				return false
			}
		}
	case agy.SettingBool:
		if v.Type() != cty.Bool {
			d.errorf(attr.Expr.Range(), "Wrong type", "%s must be true or false, not %s.", k.Key, typeName(v.Type()))
			return false
		}
	case agy.SettingString:
		if v.Type() != cty.String {
			d.errorf(attr.Expr.Range(), "Wrong type", "%s must be a string, not %s.", k.Key, typeName(v.Type()))
			return false
		}
	case agy.SettingStringList:
		if _, ok := d.strList(attr); !ok {
			return false
		}
	}
	return true
}

func (d *decoder) decodeSettings(b *hcl.Block, cfg *model.Config) {
	for _, attr := range sortedAttrs(d.attrs(b.Body)) {
		key := attr.Name
		switch key {
		case "permissions":
			d.errorf(attr.NameRange, "Use the permissions block", "Permissions are declared in the permissions { allow = […] } block, the one place agyconf reads them from.")
			continue
		case "hooks":
			d.errorf(attr.NameRange, "Use hook blocks", "agy does not read hooks from settings.json (dotai); declare hook blocks, which land in hooks.json.")
			continue
		}
		k, known := agy.SettingKeyOf(key)
		if !known {
			if s := suggest(key, knownSettingNames()); s != "" {
				d.errorf(attr.NameRange, "Unknown settings key", "agy has no settings key %q. Did you mean %q?", key, s)
				continue
			}
		}
		if first, dup := cfg.Settings[key]; dup {
			d.errorf(attr.NameRange, "Duplicate setting", "The settings key %q is already set at %s.", key, rangeString(first.Range))
			continue
		}
		v, ok := d.eval(attr.Expr)
		if !ok {
			continue
		}
		if v.ContainsMarked() {
			d.strVal(v, attr.Expr.Range(), false)
			continue
		}
		if known && !d.settingValue(k, attr, v) {
			continue
		}
		raw, err := jsonValue(v)
		if err != nil {
			d.errorf(attr.Expr.Range(), "Invalid value", "The value cannot be written as JSON: %s.", err)
			continue
		}
		if cfg.Settings == nil {
			cfg.Settings = map[string]*model.Setting{}
		}
		cfg.Settings[key] = &model.Setting{Value: raw, Range: attr.Range}
	}
}

// SettingSuggestion is the key the decoder takes a settings key agy does
// not know for a misspelling of, refusing it ("" when the key is taken
// as written: a known key, or one unlike every known one).
func SettingSuggestion(key string) string {
	if _, known := agy.SettingKeyOf(key); known {
		return ""
	}
	return suggest(key, knownSettingNames())
}

func knownSettingNames() []string {
	var out []string
	for _, k := range agy.SettingKeys() {
		out = append(out, k.Key)
	}
	out = append(out, "permissions", "hooks")
	sort.Strings(out)
	return out
}

var pluginSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "description"}, {Name: "folder"}, {Name: "enabled"}, {Name: "extra"}, {Name: "allow_extra"}, {Name: "disabled"}, {Name: "logo"}, {Name: "permissions"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "mcp_server", LabelNames: []string{"name"}},
		{Type: "hook", LabelNames: []string{"name"}},
		{Type: "skill", LabelNames: []string{"name"}},
		{Type: "rule", LabelNames: []string{"name"}},
		{Type: "agent", LabelNames: []string{"name"}},
		{Type: "permissions"},
		{Type: "workflow", LabelNames: []string{"name"}},
	},
}

func (d *decoder) decodePlugin(b *hcl.Block, s seen) *model.Plugin {
	name, nameOK := d.label(b, pluginNameProblem)
	if nameOK && !d.claim(s, "plugin/"+name, b, "plugin") {
		nameOK = false
	}
	p := &model.Plugin{Name: name, Range: b.DefRange}
	c := d.content(b.Body, pluginSchema)
	at := c.Attributes
	if attr := at["description"]; attr != nil {
		p.Description, _ = d.nonEmptyStr(attr)
	}
	if attr := at["folder"]; attr != nil {
		// agy names a plugin by its plugin.json and finds it in any folder
		// of the plugins folder: a folder named otherwise, as a repository
		// cloned there has it, beside files render does not write.
		if f, ok := d.nonEmptyStr(attr); ok {
			if prob := entryNameProblem(f); prob != "" {
				d.errorf(attr.Expr.Range(), "Invalid folder", "%s", prob)
			} else if f != name {
				p.Folder = f
			}
		}
	}
	if attr := at["enabled"]; attr != nil {
		if v, ok := d.boolean(attr); ok {
			p.Enabled = &v
		}
	}
	if attr := at["disabled"]; attr != nil {
		d.errorf(attr.NameRange, "Unsupported argument", "Since agy 1.1.11 plugin enablement lives in ~/.gemini/config/config.json, seeded from plugin.json only when agy first discovers the plugin, so a \"disabled\" written into plugin.json does nothing for a plugin already installed. Write enabled = false: agyconf keeps that entry in config.json.")
	}
	if attr := at["logo"]; attr != nil {
		d.errorf(attr.NameRange, "Unsupported argument", "The plugin.json schema of the agy CLI docs has no logo: it allows name and description only (Antigravity 2.22 shows a logo and a displayName, a third-party walkthrough). To write a logo, set extra = { logo = \"…\" } and allow_extra = true.")
	}
	allow := false
	if attr := at["allow_extra"]; attr != nil {
		allow, _ = d.boolean(attr)
	}
	if attr := at["extra"]; attr != nil {
		p.Extra = d.decodeExtra(attr, codec.PluginSet)
		if !allow {
			d.errorf(attr.NameRange, "Extra needs allow_extra", "The plugin.json schema of the agy CLI docs allows only name and description and refuses every other key; agy itself discards keys it does not read (measured on 1.1.25), so the plugin still loads, but a tool that checks the official schema refuses the file. Set allow_extra = true to write these members anyway.")
		}
	} else if attr := at["allow_extra"]; attr != nil && allow {
		d.errorf(attr.NameRange, "Nothing to allow", "allow_extra = true lets a plugin's extra members into plugin.json; this plugin has no extra.")
	}
	if attr := at["permissions"]; attr != nil {
		d.errorf(attr.NameRange, "Plugins cannot declare permissions", "The plugin.json \"permissions\" field some guides describe does not exist (MemPalace); declare permissions in the top-level permissions block.")
	}
	ns := "plugin:" + name + "/"
	if !nameOK {
		// The components of a duplicate or misnamed plugin are still
		// checked, but only against each other: that they clash with the
		// first plugin's components is the duplicate reported already.
		s = newSeen()
	}
	components := 0
	for _, cb := range c.Blocks {
		switch cb.Type {
		case "mcp_server":
			if v := d.decodeMCPServer(cb, s, ns); v != nil {
				p.MCPServers = append(p.MCPServers, v)
			}
		case "hook":
			if v := d.decodeHook(cb, s, ns); v != nil {
				p.Hooks = append(p.Hooks, v)
			}
		case "skill":
			if v := d.decodeSkill(cb, s, ns); v != nil {
				p.Skills = append(p.Skills, v)
			}
		case "rule":
			if v := d.decodeRule(cb, s, ns); v != nil {
				p.Rules = append(p.Rules, v)
			}
		case "agent":
			if v := d.decodeAgent(cb, s, ns); v != nil {
				p.Agents = append(p.Agents, v)
			}
		case "permissions":
			d.errorf(cb.DefRange, "Plugins cannot declare permissions", "agy reads no permissions from plugins (MemPalace; skillsaw, agy 1.1.25); move this block to the top level.")
			continue
		case "workflow":
			d.errorf(cb.DefRange, "Plugins have no workflows", "A plugin carries mcp_server, hook, skill, rule and agent blocks; declare workflows at the top level, or write this one as a skill.")
			continue
		}
		components++
	}
	if components == 0 {
		// agy loads a plugin of plugin.json alone (a library of scripts
		// other plugins run, as in infiquetra/infiquetra-antigravity-plugins): written as declared.
		d.warnf(b.DefRange, "plugin/no-components", fmt.Sprintf("plugin %q has no components", name), "Plugin %q has no components: agyconf writes only its plugin.json, which agy loads as a plugin that contributes nothing agyconf models (its other files, such as scripts, are yours). Add an mcp_server, hook, skill, rule or agent block if it should.", name)
	}
	if !nameOK {
		return nil
	}
	return p
}

func (d *decoder) secretModeValue(attr *hcl.Attribute) (string, bool) {
	m, ok := d.str(attr)
	if !ok {
		return "", false
	}
	if m != model.SecretExec && m != model.SecretInline {
		d.errorf(attr.Expr.Range(), "Invalid secret_mode", "secret_mode must be \"exec\" (secrets read by agyhook when agy starts the server, never written) or \"inline\" (written into mcp_config.json, mode 0600), got %q.", m)
		return "", false
	}
	return m, true
}

// decodeSecretMode resolves how a server's secrets reach it. Exec is the
// default, for local and remote servers alike: the value stays in its file
// and is read by agyhook when agy starts the server — exec-env puts it in
// a local server's environment, the bridge sends it in a remote server's
// headers. A server that uses agy's own OAuth (an oauth block or
// auth_provider_type) is connected by agy itself, so its secrets can only
// be inline.
func (d *decoder) decodeSecretMode(srv *model.MCPServer, at hcl.Attributes, oauth *hcl.Block) {
	remote := at["server_url"] != nil
	agyAuth := remote && (oauth != nil || at["auth_provider_type"] != nil)
	srv.SecretMode = model.SecretExec
	if d.secretMode != "" {
		srv.SecretMode = d.secretMode
	}
	if agyAuth {
		srv.SecretMode = model.SecretInline
	}
	attr := at["secret_mode"]
	if attr != nil {
		m, ok := d.secretModeValue(attr)
		switch {
		case !ok:
			return
		case agyAuth && m == model.SecretExec:
			d.errorf(attr.Expr.Range(), "Invalid secret_mode", "This server uses agy's own authentication (%s), so agy must connect to it itself, with its headers and OAuth client in mcp_config.json: secret_mode \"exec\" (agyhook bridge) cannot apply; write \"inline\" or leave it out.", agyAuthName(at, oauth))
			return
		}
		srv.SecretMode = m
	}
	if agyAuth && srv.OAuth != nil && srv.OAuth.ClientSecret != nil {
		rng := oauth.DefRange
		d.warnf(rng, "mcp/oauth-secret-inline", "the OAuth client secret is written into mcp_config.json", "This server uses agy's own OAuth, so agy connects to it itself and its client secret is written into mcp_config.json (mode 0600), where it stays at rest: agyhook bridge, which keeps header secrets in their files, cannot run agy's OAuth flow. Use a public client (client_id only) if the server allows it.")
	}
	if srv.SecretMode != model.SecretExec || remote {
		return
	}
	for _, a := range srv.Args {
		if a.HasSecret() {
			rng := at["args"].Expr.Range()
			d.errorf(rng, "Secret in args", "With secret_mode \"exec\" (the default for local servers) secrets reach the server through its environment, read by agyhook exec-env when agy starts it; a secret in args cannot. Pass it in env, or set secret_mode = \"inline\" to write it into mcp_config.json (mode 0600), where agy shows it in process listings too.")
			return
		}
	}
}

// agyAuthName names what makes agy authenticate a server itself.
func agyAuthName(at hcl.Attributes, oauth *hcl.Block) string {
	if oauth != nil {
		return "an oauth block"
	}
	return "auth_provider_type"
}

var harnessSchemas = map[string]*hcl.BodySchema{
	"mempalace": {Attributes: []hcl.AttributeSchema{{Name: "mode"}, {Name: "wake"}, {Name: "save"}, {Name: "save_interval"}, {Name: "state_dir"}}},
	"xmsg":      {Attributes: []hcl.AttributeSchema{{Name: "reply_only"}, {Name: "legacy_hooks"}, {Name: "agy_exe"}}},
}

func (d *decoder) decodeHarness(b *hcl.Block, s seen) *model.Harness {
	kind := b.Labels[0]
	schema, known := harnessSchemas[kind]
	if !known {
		msg := "The harnesses agyconf knows are \"mempalace\" and \"xmsg\"."
		if sug := suggest(kind, []string{"mempalace", "xmsg"}); sug != "" {
			msg = "Did you mean \"" + sug + "\"? " + msg
		}
		d.errorf(b.LabelRanges[0], "Unknown harness", "There is no harness %q. %s", kind, msg)
		return nil
	}
	if !d.claim(s, "harness/"+kind, b, "harness") {
		return nil
	}
	h := &model.Harness{Kind: kind, Range: b.DefRange}
	at := d.content(b.Body, schema).Attributes
	switch kind {
	case "mempalace":
		o := &model.MemPalaceOptions{Mode: "plugin", Wake: true, Save: true, SaveInterval: 15}
		if attr := at["mode"]; attr != nil {
			if m, ok := d.str(attr); ok {
				if m != "plugin" && m != "loose" {
					d.errorf(attr.Expr.Range(), "Invalid value", "mode must be \"plugin\" (a plugin tree) or \"loose\" (global entries), got %q.", m)
				}
				o.Mode = m
			}
		}
		if attr := at["wake"]; attr != nil {
			o.Wake, _ = d.boolean(attr)
		}
		if attr := at["save"]; attr != nil {
			o.Save, _ = d.boolean(attr)
		}
		if attr := at["save_interval"]; attr != nil {
			o.SaveInterval, _ = d.integer(attr, 1, 1000000)
		}
		if attr := at["state_dir"]; attr != nil {
			if p, ok := d.nonEmptyStr(attr); ok {
				if !filepath.IsAbs(p) || filepath.Clean(p) != p {
					d.errorf(attr.Expr.Range(), "Invalid path", "state_dir must be a clean absolute path; hooks run from changing folders.")
				}
				o.StateDir = p
			}
		}
		if at["wake"] != nil && at["save"] != nil && !o.Wake && !o.Save {
			d.errorf(b.DefRange, "Nothing to wire", "With wake and save both off the mempalace harness wires no hooks; remove wake = false or save = false, or use mcp_server \"mempalace\" alone.")
		}
		h.MemPalace = o
	case "xmsg":
		o := &model.XmsgOptions{}
		if attr := at["reply_only"]; attr != nil {
			o.ReplyOnly, _ = d.boolean(attr)
		}
		if attr := at["legacy_hooks"]; attr != nil {
			o.LegacyHooks, _ = d.boolean(attr)
		}
		if attr := at["agy_exe"]; attr != nil {
			if p, ok := d.nonEmptyStr(attr); ok {
				if !filepath.IsAbs(p) || filepath.Clean(p) != p {
					d.errorf(attr.Expr.Range(), "Invalid path", "agy_exe must be the clean absolute path of the agy binary `xmsg serve --agy-exe` trusts.")
				}
				o.AgyExe = p
			}
		}
		h.Xmsg = o
	}
	return h
}

var acpSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "auth_type"}, {Name: "gcp_project"}, {Name: "gcp_location"}, {Name: "config_root"}},
}

func (d *decoder) decodeACP(b *hcl.Block) *model.ACP {
	// The methods agyconf writes: a former name is accepted by the server
	// but not written.
	var acpAuthTypes []string
	for _, m := range agy.ACPAuthMethods() {
		if !m.FormerName {
			acpAuthTypes = append(acpAuthTypes, m.Name)
		}
	}
	a := &model.ACP{Range: b.DefRange}
	at := d.content(b.Body, acpSchema).Attributes
	if attr := at["auth_type"]; attr != nil {
		if t, ok := d.str(attr); ok {
			if !contains(acpAuthTypes, t) {
				d.errorf(attr.Expr.Range(), "Invalid auth_type", "auth_type must be one of %s, got %q.", quoteList(acpAuthTypes), t)
			}
			a.AuthType = t
		}
	} else {
		d.errorf(b.Body.MissingItemRange(), "Missing required argument", "An acp block needs auth_type, one of %s.", quoteList(acpAuthTypes))
	}
	if attr := at["gcp_project"]; attr != nil {
		a.GCPProject, _ = d.nonEmptyStr(attr)
	}
	if attr := at["gcp_location"]; attr != nil {
		a.GCPLocation, _ = d.nonEmptyStr(attr)
	}
	switch a.AuthType {
	case "oauth-business":
		for _, n := range []string{"gcp_project", "gcp_location"} {
			if at[n] == nil {
				d.errorf(b.Body.MissingItemRange(), "Missing required argument", "auth_type = \"oauth-business\" needs %s.", n)
			}
		}
	case "oauth-personal", "gemini-api-key":
		for _, n := range []string{"gcp_project", "gcp_location"} {
			if attr := at[n]; attr != nil {
				d.errorf(attr.NameRange, "Conflicting arguments", "%s applies to auth_type \"oauth-business\" and \"agent-platform\" only.", n)
			}
		}
	}
	if attr := at["config_root"]; attr != nil {
		if p, ok := d.nonEmptyStr(attr); ok {
			if p == "." || !filepath.IsLocal(p) || filepath.ToSlash(filepath.Clean(p)) != p {
				d.errorf(attr.Expr.Range(), "Invalid path", "config_root is a clean path below the render root, the folder that holds an isolated home's .gemini, got %q.", p)
			} else if msg := PathProblem(p); msg != "" {
				d.errorf(attr.Expr.Range(), "Invalid path", "%s", msg)
			} else if msg := layout.OverrideProblem(p); msg != "" {
				d.errorf(attr.Expr.Range(), "Invalid path", "%s.", msg)
			}
			a.ConfigRoot = p
		}
	}
	return a
}

var ignoreSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "patterns", Required: true}},
}

// decodeIgnore reads the lines of .antigravityignore's managed block. Their
// syntax is undocumented (internal/agy/ignore.go): each is written as
// given, and only what would break the file or agyconf's block is refused.
func (d *decoder) decodeIgnore(b *hcl.Block) *model.Ignore {
	ig := &model.Ignore{Range: b.DefRange, Patterns: []string{}}
	c := d.content(b.Body, ignoreSchema)
	if c == nil || c.Attributes["patterns"] == nil {
		return ig
	}
	es, _ := d.elems(c.Attributes["patterns"])
	// A repeated pattern is not refused: lines are read in order, so after
	// a "!" negation the same pattern again means something.
	for _, e := range es {
		p, ok := d.plainStr(e.val, e.rng)
		if !ok {
			continue
		}
		if problem := agy.IgnoreLineProblem(p); problem != "" {
			d.errorf(e.rng, "Invalid ignore pattern", "%q %s.", p, problem)
			continue
		}
		if t := strings.TrimRight(p, " \t"); t != p && !strings.HasSuffix(t, `\`) {
			d.warnf(e.rng, "ignore/trailing-space", fmt.Sprintf("%q ends in whitespace", p), "%q ends in whitespace, which a .gitignore drops unless escaped with a backslash; how agy reads .antigravityignore is undocumented, so write the pattern without it (or escape it).", p)
		}
		ig.Patterns = append(ig.Patterns, p)
	}
	return ig
}

// headerValues refuses what no HTTP client sends, whoever sends the
// headers (agy, or agyhook-bridge, whose command line carries the same
// rule): a line break or another control character in a value's text,
// which would end the header or start another, and two names that differ
// only in case, which name one header (the bridge would join their
// values). A secret's own value is checked where it is read.
func (d *decoder) headerValues(attr *hcl.Attribute, headers map[string]model.Str) {
	names := make([]string, 0, len(headers))
	for k := range headers {
		names = append(names, k)
	}
	sort.Strings(names)
	folded := map[string]string{}
	for _, k := range names {
		if other, ok := folded[strings.ToLower(k)]; ok {
			d.errorf(attr.Expr.Range(), "Duplicate header", "%q and %q name the same HTTP header (names are case-insensitive); declare it once.", other, k)
		}
		folded[strings.ToLower(k)] = k
		for _, p := range headers[k] {
			if p.SecretFile == "" && !secretargs.ValidHeaderText(p.Text) {
				d.errorf(attr.Expr.Range(), "Invalid header value", "The value of header %q holds a line break or another control character, which an HTTP header cannot carry: the server could not be reached with it.", k)
				break
			}
		}
	}
}
