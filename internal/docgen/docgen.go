// Package docgen generates docs/reference.md, the reference of agyconf's
// input language, from the two sources of truth it summarises: the input's
// JSON Schema (schema/agyconf.schema.json: every block and attribute, its
// type, allowed values and description) and internal/layout (where each
// artifact lands on disk per scope and product).
//
// The page is a list, not a set of tables: each attribute is one item,
// each block says in one line where it lands, and what two blocks share
// (a plugin's servers, a handler written inline or as a block, the
// permission lists of both permission blocks) is written once and linked.
//
// The test beside it fails when docs/reference.md is stale;
// AGYCONF_UPDATE_DOCS=1 go test ./internal/docgen/ rewrites it.
package docgen

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/layout"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/schema"
)

// Reference returns the text of docs/reference.md.
func Reference() ([]byte, error) {
	src, err := schema.Source(schema.Input)
	if err != nil {
		return nil, err
	}
	v, err := decodeOrdered(src)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", schema.Input, err)
	}
	root, ok := v.(*object)
	if !ok || root.obj("$defs") == nil || root.obj("properties") == nil {
		return nil, fmt.Errorf("schema %s: no properties or $defs at the root", schema.Input)
	}
	g := &gen{defs: root.obj("$defs"), documented: map[string]section{}, attrs: map[string]section{}, names: map[string]section{}}
	if err := g.reference(root); err != nil {
		return nil, err
	}
	return []byte(g.b.String()), nil
}

type gen struct {
	defs *object
	b    strings.Builder
	// documented maps a body's definition to the section that lists its
	// attributes, so a body used twice (a plugin's mcp_server) links back.
	documented map[string]section
	// attrs maps an attribute's item text to the section that printed it
	// first, so an attribute two bodies share (a handler's, inline in a
	// matcher group and in a handler block) is written once.
	attrs map[string]section
	// names maps a name rule to the section that printed it first.
	names map[string]section
}

type section struct{ title, anchor string }

func (s section) link() string { return fmt.Sprintf("[`%s`](#%s)", s.title, s.anchor) }

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

// def returns the definition a "$ref": "#/$defs/NAME" names, and NAME.
func (g *gen) def(ref string) (*object, string) {
	name := strings.TrimPrefix(ref, "#/$defs/")
	return g.defs.obj(name), name
}

// block is one kind of block: its label (`"NAME"`, `"mempalace"` or none),
// the definition of its body and the rule its names follow.
type block struct {
	label, body, nameRule, desc string
}

// blocks resolves a property whose "$ref" names a …Blocks definition into
// the blocks it declares; none when the property is an attribute.
func (g *gen) blocks(prop *object) []block {
	ref := prop.str("$ref")
	if !strings.HasSuffix(ref, "Blocks") {
		return nil
	}
	bd, _ := g.def(ref)
	var target string
	for _, alt := range bd.list("anyOf") {
		if a, ok := alt.(*object); ok && a.str("$ref") != "" {
			target = a.str("$ref")
			break
		}
	}
	td, tname := g.def(target)
	if td == nil {
		return nil
	}
	if !strings.HasSuffix(tname, "Labels") {
		return []block{{body: tname}}
	}
	firstRef := func(o *object) string {
		for _, alt := range o.list("anyOf") {
			if a, ok := alt.(*object); ok && a.str("$ref") != "" {
				return a.str("$ref")
			}
		}
		return ""
	}
	if fixed := td.obj("properties"); fixed != nil {
		// Labels known in advance: harness "mempalace", harness "xmsg".
		var out []block
		for _, k := range fixed.keys {
			_, body := g.def(firstRef(fixed.obj(k)))
			out = append(out, block{label: `"` + k + `"`, body: body, desc: fixed.obj(k).str("description")})
		}
		return out
	}
	_, body := g.def(firstRef(td.obj("additionalProperties")))
	var rule string
	if names := td.obj("propertyNames"); names != nil {
		if nd, _ := g.def(names.str("$ref")); nd != nil {
			rule = nd.str("description")
		}
	}
	return []block{{label: `"NAME"`, body: body, nameRule: rule}}
}

func (g *gen) reference(root *object) error {
	g.p("# Config reference\n\n")
	g.p("<!-- Generated from schema/agyconf.schema.json and internal/layout by\n")
	g.p("     AGYCONF_UPDATE_DOCS=1 go test ./internal/docgen/ — do not edit by hand. -->\n\n")
	g.p("Every block and attribute of agyconf's input, from its JSON Schema\n")
	g.p("(`agyconf schema agyconf`), and where each block lands, relative to the\n")
	g.p("render root ([`layout`](#agyconf-layout) moves any of it). What holds for\n")
	g.p("all of them: [config.md](config.md). Sources in parentheses:\n")
	g.p("[agy-facts.md](agy-facts.md#sources). Each attribute reads `name` (type;\n")
	g.p("allowed values): description; \"text\" is a string.\n\n")

	props := root.obj("properties")
	var toc []string
	for _, k := range props.keys {
		if k == "//" {
			continue
		}
		for _, bl := range g.blocks(props.obj(k)) {
			title := blockTitle(k, bl.label)
			toc = append(toc, fmt.Sprintf("[`%s`](#%s)", title, anchor(title)))
		}
	}
	toc = append(toc, "[where files go](#where-files-go)")
	g.p("Blocks: %s.\n\n", strings.Join(toc, ", "))

	for _, k := range props.keys {
		if k == "//" {
			continue
		}
		for _, bl := range g.blocks(props.obj(k)) {
			intro := ""
			if body, _ := g.def("#/$defs/" + bl.body); body == nil || body.str("description") == "" {
				intro = props.obj(k).str("description")
			}
			if bl.desc != "" {
				intro = bl.desc
			}
			g.section(2, k, blockTitle(k, bl.label), intro, bl)
		}
	}
	g.layoutTable()
	return nil
}

func blockTitle(key, label string) string {
	if label == "" {
		return key
	}
	return key + " " + label
}

var nonAnchor = regexp.MustCompile(`[^a-z0-9]+`)

// anchor is the id of a section, written as an explicit <a id>: heading
// slugs of titles full of quotes and arrows differ between renderers.
func anchor(title string) string {
	return strings.Trim(nonAnchor.ReplaceAllString(strings.ToLower(title), "-"), "-")
}

// section writes one block: its description, its name rule, where it
// lands, its attributes, then its nested blocks.
func (g *gen) section(level int, path, title, intro string, bl block) {
	here := section{title: title, anchor: anchor(title)}
	g.p("<a id=\"%s\"></a>\n\n%s `%s`\n\n", here.anchor, strings.Repeat("#", level), title)
	body, _ := g.def("#/$defs/" + bl.body)
	if body == nil {
		g.p("(no definition %s in the schema)\n\n", bl.body)
		return
	}
	if intro != "" {
		g.p("%s\n\n", para(intro))
	}
	if prev, ok := g.documented[bl.body]; ok {
		g.p("Same body as %s.", prev.link())
		g.where(path, " ")
		g.p("\n\n")
		return
	}
	g.documented[bl.body] = here
	if d := body.str("description"); d != "" && d != intro {
		g.p("%s\n\n", para(d))
	}
	if bl.nameRule != "" {
		if prev, ok := g.names[bl.nameRule]; ok {
			g.p("**Name:** as for %s.", prev.link())
		} else {
			g.names[bl.nameRule] = here
			g.p("**Name:** %s", para(bl.nameRule))
		}
		g.where(path, " ")
		g.p("\n\n")
	} else if g.where(path, "") {
		g.p("\n\n")
	}

	props := body.obj("properties")
	if props != nil && g.compact(bl.body, props) {
		return
	}
	required := map[string]bool{}
	for _, r := range body.list("required") {
		if s, ok := r.(string); ok {
			required[s] = true
		}
	}
	type nested struct {
		key string
		bl  block
		doc string
	}
	var items []string
	var children []nested
	if props != nil {
		for _, k := range props.keys {
			if k == "//" {
				continue
			}
			ps := props.obj(k)
			if bls := g.blocks(ps); bls != nil {
				for _, b := range bls {
					children = append(children, nested{k, b, ps.str("description")})
				}
				continue
			}
			items = append(items, g.item(k, ps, required[k], bl.body))
		}
	}
	if extra := body.obj("additionalProperties"); extra != nil {
		name := "*any other key*"
		if bl.body == "tools" {
			name = "*NAME*"
		}
		items = append(items, g.item(name, extra, false, bl.body))
	}
	g.items(here, items)
	g.entries(body)
	for _, c := range children {
		g.section(min(level+1, 4), path+"/"+c.key, title+" › "+blockTitle(c.key, c.bl.label), c.doc, c.bl)
	}
}

// items writes a body's attributes, one item each; those another section
// printed already are named in one line that links there.
func (g *gen) items(here section, items []string) {
	var fresh []string
	var again []section
	shared := map[section][]string{}
	for _, it := range items {
		prev, ok := g.attrs[it]
		if !ok {
			g.attrs[it] = here
			fresh = append(fresh, it)
			continue
		}
		if _, seen := shared[prev]; !seen {
			again = append(again, prev)
		}
		shared[prev] = append(shared[prev], strings.SplitN(strings.TrimPrefix(it, "- "), " ", 2)[0])
	}
	for _, it := range fresh {
		g.p("%s\n", it)
	}
	for _, s := range again {
		g.p("- %s: as in %s.\n", strings.Join(shared[s], ", "), s.link())
	}
	if len(items) > 0 {
		g.p("\n")
	}
}

// entries writes, once, what a list's items are when their definition
// describes them (a permission entry), after the lists that hold them.
func (g *gen) entries(body *object) {
	props := body.obj("properties")
	if props == nil {
		return
	}
	for _, k := range props.keys {
		items := props.obj(k).obj("items")
		if items == nil {
			continue
		}
		d, name := g.def(items.str("$ref"))
		if d == nil || d.str("description") == "" || named[name] == "" {
			continue
		}
		key := "entry " + name
		if _, done := g.names[key]; done {
			continue
		}
		g.names[key] = section{}
		g.p("A %s: %s\n\n", named[name], para(d.str("description")))
	}
}

// item is one attribute's line: `name` (type; allowed values; required):
// description. The layout's keys point at the table of where files go,
// which holds their defaults.
func (g *gen) item(name string, s *object, required bool, body string) string {
	desc := s.str("description")
	if desc == "" {
		if d, _ := g.def(s.str("$ref")); d != nil {
			desc = d.str("description")
		}
	}
	cell := name
	if !strings.HasPrefix(name, "*") {
		cell = "`" + name + "`"
	}
	// An enumeration's values say its type.
	parts := []string{g.typeOf(s)}
	if a := allowed(s); a != "" && s.list("enum") != nil {
		parts = []string{a}
	} else if a != "" {
		parts = append(parts, a)
	}
	if required {
		parts = append(parts, "required")
	}
	if body == "layout" {
		parts = append(parts, "default: [where files go](#where-files-go)")
	}
	return fmt.Sprintf("- %s (%s): %s", cell, strings.Join(parts, "; "), para(oneLine(desc)))
}

// named are the schema's shared definitions, by what the reference calls
// them.
var named = map[string]string{
	"text":              "text",
	"nonBlankText":      "text, not empty",
	"textList":          "list of text",
	"relativePath":      "relative path",
	"absolutePath":      "absolute path",
	"cleanAbsolutePath": "clean absolute path",
	"settingValue":      "any JSON value but null",
	"permissionEntry":   "permission entry",
	"entryName":         "name",
	"envName":           "variable name",
	"headerName":        "header name",
	"skillName":         "skill name",
	"pluginName":        "plugin name",
	"ignorePattern":     "ignore line",
	"mcpServerExtra":    "object",
	"handlerExtra":      "object",
	"skillExtra":        "object",
	"ruleExtra":         "object",
	"agentExtra":        "object",
	"workflowExtra":     "object",
	"pluginExtra":       "object",
}

func (g *gen) typeOf(s *object) string {
	if s == nil {
		return "any"
	}
	var t string
	switch {
	case s.list("enum") != nil:
		t = "string"
	case s.str("$ref") != "":
		_, n := g.def(s.str("$ref"))
		t = named[n]
		if t == "" {
			t = n
		}
	default:
		switch ty := s.get("type").(type) {
		case string:
			switch ty {
			case "string":
				t = "string"
			case "boolean":
				t = "bool"
			case "integer":
				t = "whole number"
			case "number":
				t = "number"
			case "array":
				t = "list of " + g.typeOf(s.obj("items"))
			case "object":
				key := "key"
				if pn := s.obj("propertyNames"); pn != nil {
					if _, n := g.def(pn.str("$ref")); named[n] != "" {
						key = named[n]
					}
				}
				t = "map of " + key + " → " + g.typeOf(s.obj("additionalProperties"))
			}
		case []any:
			t = "text"
		}
	}
	if t == "" {
		t = "any"
	}
	if n, ok := s.get("minItems").(interface{ String() string }); ok && n.String() != "0" {
		t += ", at least " + n.String()
	}
	if u, _ := s.get("uniqueItems").(bool); u {
		t += ", each once"
	}
	if n, ok := s.get("maxLength").(interface{ String() string }); ok {
		t += ", at most " + thousands(n.String()) + " characters"
	}
	return t
}

// allowed lists an attribute's values when the schema enumerates them or
// bounds a number; "" otherwise (a bool's are its type).
func allowed(s *object) string {
	if e := s.list("enum"); e != nil {
		var vals []string
		for _, v := range e {
			vals = append(vals, fmt.Sprintf("`%q`", v))
		}
		return strings.Join(vals, ", ")
	}
	lo, okLo := s.get("minimum").(interface{ String() string })
	hi, okHi := s.get("maximum").(interface{ String() string })
	switch {
	case okLo && okHi:
		return thousands(lo.String()) + " to " + thousands(hi.String())
	case okLo:
		return "≥ " + thousands(lo.String())
	}
	return ""
}

// where writes, after lead, the one line of where a block lands, when it
// lands somewhere or the table has a note for it; it reports whether it
// wrote anything. The place is named by its layout key, which the table
// of where files go resolves per scope and product: the paths are said
// once, there.
func (g *gen) where(path, lead string) bool {
	w, ok := wheres[path]
	if !ok {
		return false
	}
	g.p("%s", lead)
	if len(w.places) > 0 {
		var places []string
		for _, pl := range w.places {
			places = append(places, strings.ReplaceAll(pl.format, "%s", fmt.Sprintf("[`%s`](#where-files-go)", pl.a)))
		}
		g.p("**Lands in** %s.", strings.Join(places, "; else "))
		if w.note != "" {
			g.p(" ")
		}
	}
	if w.note != "" {
		g.p("%s", w.note)
	}
	return true
}

// place is one way a block can land: an artifact of the layout and how the
// block's file or entry sits in it (%s is the artifact's key).
type place struct {
	a      agy.KindID
	format string
}

type whereSpec struct {
	places []place // the first the scope and product have wins
	note   string
}

// itemFormat is where an item of a folder kind lands below the kind's
// folder and sub, as a format: "%s`/NAME/agent.md`" (agy's table,
// Kind.Item).
func itemFormat(id agy.KindID, sub string) string {
	k, _ := agy.KindOf(id)
	return "%s`" + sub + "/" + strings.TrimPrefix(k.ItemPath("", "NAME"), "/") + "`"
}

// wheres says where each block lands, by its path in the schema (nested
// blocks as parent/child). It mirrors internal/render: rules go to the
// rules folder, else to the managed block of the global rules file.
var wheres = map[string]whereSpec{
	"agyconf": {note: "Writes nothing itself: it decides where everything else goes."},
	"tools":   {note: "Writes nothing itself: a listed tool's path replaces its bare name in the commands of hooks.json and mcp_config.json."},
	"mcp_server": {places: []place{{agy.MCPConfig, "%s → `mcpServers.NAME`"}},
		note: "Also into `legacy_mcp_config` when the `layout` block sets it. How a server with secrets is written: [config.md](config.md#secrets)."},
	"hook":               {places: []place{{agy.Hooks, "%s → `NAME`"}}},
	"skill":              {places: []place{{agy.Skills, "%s`/NAME/SKILL.md`"}}},
	"rule":               {places: []place{{agy.Rules, "%s`/NAME.md`"}, {agy.GlobalRules, "a managed block of %s (`always_on` rules only)"}}},
	"agent":              {places: []place{{agy.Agents, itemFormat(agy.Agents, "")}}},
	"workflow":           {places: []place{{agy.Workflows, "%s`/NAME.md`"}}},
	"permissions":        {places: []place{{agy.Settings, "%s → `permissions.allow`, `.ask`, `.deny`, one item each"}}},
	"shared_permissions": {places: []place{{agy.UserConfig, "%s → `userSettings.globalPermissionGrants`, one item each"}}},
	"settings":           {places: []place{{agy.Settings, "%s → each key"}}},
	"plugin": {places: []place{{agy.Plugins, "%s`/NAME/plugin.json`"}},
		note: "Its blocks land inside the plugin's folder, as below."},
	"plugin/mcp_server": {places: []place{{agy.Plugins, "%s`/PLUGIN/mcp_config.json` → `mcpServers.NAME`"}}},
	"plugin/hook":       {places: []place{{agy.Plugins, "%s`/PLUGIN/hooks.json` → `NAME`"}}},
	"plugin/skill":      {places: []place{{agy.Plugins, "%s`/PLUGIN/skills/NAME/SKILL.md`"}}},
	"plugin/rule":       {places: []place{{agy.Plugins, "%s`/PLUGIN/rules/NAME.md`"}}},
	"plugin/agent":      {places: []place{{agy.Plugins, itemFormat(agy.Agents, "/PLUGIN/agents")}}},
	"harness": {note: "Writes nothing itself: it expands into ordinary `mcp_server`, `hook`, `skill` and `plugin` blocks before render, which land as those do. " +
		"Guides: [harness-mempalace.md](harness-mempalace.md), [harness-xmsg.md](harness-xmsg.md)."},
	"acp":    {places: []place{{agy.ACPSettings, "%s → `auth.type`, `gcp` (as defaults)"}}},
	"ignore": {places: []place{{agy.Ignore, "a managed block of %s"}}},
}

// compact lists the keys of a body whose every key the facts page
// describes already (the layout's, by the table below and agy-facts.md;
// the settings keys agy documents), one line instead of one item each.
func (g *gen) compact(body string, props *object) bool {
	switch body {
	case "layout":
		var keys []string
		for _, k := range props.keys {
			if k != "//" {
				keys = append(keys, "`"+k+"`")
			}
		}
		g.p("Keys (each a clean relative path; defaults in [where files go](#where-files-go), sources in [agy-facts.md](agy-facts.md#documents-and-where-they-go)): %s.\n\n", strings.Join(keys, ", "))
		return true
	case "settings":
		var keys []string
		for _, k := range props.keys {
			if k == "//" {
				continue
			}
			s := props.obj(k)
			what := g.typeOf(s)
			if a := allowed(s); a != "" {
				what = a
			}
			keys = append(keys, fmt.Sprintf("`%s` (%s)", k, what))
		}
		g.p("Known keys, whose values the decoder checks (what each does, since which build and its source: [agy-facts.md](agy-facts.md#settings-keys)): %s. Any other key is written as given (any JSON value but null).\n\n", strings.Join(keys, ", "))
		return true
	}
	return false
}

// layoutTable writes every artifact's default paths.
func (g *gen) layoutTable() {
	g.p("<a id=\"where-files-go\"></a>\n\n## Where files go\n\n")
	g.p("Every artifact agyconf writes, by scope and product, relative to the\n")
	g.p("render root. Each row's key moves it:\n")
	g.p("`agyconf { layout { KEY = \"path\" } }`. \"—\": the scope and product\n")
	g.p("have no such artifact, and a block that would land there is an error\n")
	g.p("that says where it could go. Product `both` writes the union.\n\n")
	g.p("| key | global `cli` | global `ide` | global `both` | workspace |\n")
	g.p("|---|---|---|---|---|\n")
	for _, a := range agy.KindIDs() {
		cells := []string{"`" + string(a) + "`"}
		var ws []string
		for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
			for _, product := range []model.Product{model.ProductCLI, model.ProductIDE, model.ProductBoth} {
				paths := layout.New(model.Agyconf{Scope: scope, Product: product}).Paths(a)
				var q []string
				for _, p := range paths {
					q = append(q, "`"+p+"`")
				}
				c := strings.Join(q, "<br>")
				if c == "" {
					c = "—"
				}
				if scope == model.ScopeGlobal {
					cells = append(cells, c)
				} else {
					ws = append(ws, c)
				}
			}
		}
		// Every product shares a workspace's paths; should one ever
		// differ, each product's is written.
		if ws[0] == ws[1] && ws[1] == ws[2] {
			cells = append(cells, ws[0])
		} else {
			cells = append(cells, fmt.Sprintf("cli %s, ide %s, both %s", ws[0], ws[1], ws[2]))
		}
		g.p("| %s |\n", strings.Join(cells, " | "))
	}
	g.p("\n`legacy_mcp_config` has no default: set it to also write\n")
	g.p("`.gemini/antigravity/mcp_config.json` for IDE builds older than 2.0.\n")
	g.p("`global_rules` and `ignore` are files holding a block agyconf manages\n")
	g.p("(the rest of the file is yours).\n\n")
	g.p("agyconf's own files: the state — what it owns, per file and per entry,\n")
	g.p("as hashes with secrets redacted — is `<root>/.local/state/agyconf/<instance>.json`\n")
	g.p("in global scope and `<root>/.agyconf/<instance>.json` in workspace scope\n")
	g.p("(commit it with the rendered tree: `render --check` on a fresh clone needs\n")
	g.p("nothing else). Beside it: `lock` (held during a render), `cache/` (the\n")
	g.p("last in-sync render) and `backups/` (every content agyconf wrote over\n")
	g.p("without having written it, mode 0600; `agyconf backups` lists them); a\n")
	g.p("workspace's `.agyconf/.gitignore` keeps the lock, the cache and the\n")
	g.p("backups out of git.\n")
}

// oneLine joins a description's lines: an item is one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// para makes a description safe as markdown text: "<name>" outside code
// spans is written as text, not read as HTML.
func para(s string) string {
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.ReplaceAll(parts[i], "<", "&lt;")
	}
	return strings.Join(parts, "`")
}

// thousands writes 24000 as 24,000, as the descriptions do.
func thousands(n string) string {
	if len(n) <= 4 || strings.ContainsAny(n, ".-e") {
		return n
	}
	var out []string
	for len(n) > 3 {
		out = append([]string{n[len(n)-3:]}, out...)
		n = n[:len(n)-3]
	}
	return n + "," + strings.Join(out, ",")
}
