// Package docgen generates docs/reference.md, the reference of agyconf's
// input language, from the two sources of truth it summarises: the input's
// JSON Schema (schema/agyconf.schema.json: every block and attribute, its
// type, allowed values and description) and internal/layout (where each
// artifact lands on disk per scope and product).
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
	g := &gen{defs: root.obj("$defs"), documented: map[string]section{}}
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
}

type section struct{ title, anchor string }

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
	g.p("Every block and attribute of agyconf's input, with its type, allowed values,\n")
	g.p("default and where it lands on disk. The text comes from the input's JSON\n")
	g.p("Schema (`agyconf schema agyconf` prints it), the paths from the layout\n")
	g.p("agyconf renders with. [config.md](config.md) is the guide to the language —\n")
	g.p("files, functions, secrets, names and limits — and explains the why;\n")
	g.p("this page is the lookup table. A source named in parentheses (skillsaw,\n")
	g.p("rulesync, …) is listed with where to read it in [agy-facts.md](agy-facts.md#sources).\n\n")
	g.p("Attributes are written `name = value` in HCL and `\"name\": value` in the\n")
	g.p("JSON form; blocks `name { … }` or `name \"LABEL\" { … }` in HCL and objects\n")
	g.p("(label → body) in JSON. \"text\" is a string; numbers and bools given\n")
	g.p("there are written as text. \"—\" in the default column means the schema\n")
	g.p("names no default: leaving the attribute out writes nothing for it.\n\n")

	props := root.obj("properties")
	g.p("## Blocks\n\n")
	for _, k := range props.keys {
		if k == "//" {
			continue
		}
		for _, bl := range g.blocks(props.obj(k)) {
			title := blockTitle(k, bl.label)
			desc := props.obj(k).str("description")
			if body, _ := g.def("#/$defs/" + bl.body); body != nil && body.str("description") != "" {
				desc = body.str("description")
			}
			g.p("- [`%s`](#%s): %s\n", title, anchor(title), para(firstSentence(desc)))
		}
	}
	g.p("- [Where files go](#where-files-go): the layout table\n\n")

	for _, k := range props.keys {
		if k == "//" {
			continue
		}
		for _, bl := range g.blocks(props.obj(k)) {
			intro := props.obj(k).str("description")
			if bl.desc != "" {
				intro = "" // the body's own description says more
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

// section writes one block: its description, where it lands, its
// attributes, then its nested blocks.
func (g *gen) section(level int, path, title, intro string, bl block) {
	id := anchor(title)
	g.p("<a id=\"%s\"></a>\n\n%s `%s`\n\n", id, strings.Repeat("#", level), title)
	body, _ := g.def("#/$defs/" + bl.body)
	if body == nil {
		g.p("(no definition %s in the schema)\n\n", bl.body)
		return
	}
	if intro != "" {
		g.p("%s\n\n", para(intro))
	}
	if prev, ok := g.documented[bl.body]; ok {
		g.p("Same body as [`%s`](#%s).\n\n", prev.title, prev.anchor)
		g.where(path)
		return
	}
	g.documented[bl.body] = section{title: title, anchor: id}
	if d := body.str("description"); d != "" && d != intro {
		g.p("%s\n\n", para(d))
	}
	if bl.nameRule != "" {
		g.p("**Name:** %s\n\n", para(bl.nameRule))
	}
	g.where(path)

	props := body.obj("properties")
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
	var rows [][]string
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
			rows = append(rows, g.row(k, ps, required[k], bl.body))
		}
	}
	if extra := body.obj("additionalProperties"); extra != nil {
		name := "*any other key*"
		if bl.body == "tools" {
			name = "*NAME*"
		}
		rows = append(rows, g.row(name, extra, false, bl.body))
	}
	if len(rows) > 0 {
		g.p("| attribute | type | allowed values | default | description |\n|---|---|---|---|---|\n")
		for _, r := range rows {
			g.p("| %s |\n", strings.Join(r, " | "))
		}
		g.p("\n")
	}
	if len(children) > 0 {
		var names []string
		for _, c := range children {
			names = append(names, fmt.Sprintf("[`%s`](#%s)", blockTitle(c.key, c.bl.label), anchor(title+" "+blockTitle(c.key, c.bl.label))))
		}
		g.p("Blocks inside: %s.\n\n", strings.Join(names, ", "))
	}
	for _, c := range children {
		g.section(min(level+1, 4), path+"/"+c.key, title+" › "+blockTitle(c.key, c.bl.label), c.doc, c.bl)
	}
}

// row is one attribute's line of the table.
func (g *gen) row(name string, s *object, required bool, body string) []string {
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
	if required {
		cell += " (required)"
	}
	def := defaultOf(desc)
	if body == "layout" {
		def = "[the layout table](#where-files-go)"
	}
	return []string{cell, esc(g.typeOf(s)), esc(allowed(s)), esc(def), esc(desc)}
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
// bounds a number.
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
	if t, _ := s.get("type").(string); t == "boolean" {
		return "`true`, `false`"
	}
	return "—"
}

// Defaults are stated in the schema's descriptions, in a few fixed forms.
var defaultForms = []struct {
	re     *regexp.Regexp
	format string
}{
	{regexp.MustCompile(`"([^"]+)" \(the default`), "`%q`"},
	{regexp.MustCompile(`"([^"]+)" \(agy's default\)`), "`%q` (agy's default)"},
	{regexp.MustCompile(`\b[Dd]efault (true|false|\[\]|[0-9]+)\b`), "`%s`"},
	{regexp.MustCompile(`\bdefault (~/[^,;)\s]+)`), "`%s`"},
	{regexp.MustCompile(`\b([0-9]+) when it is left out`), "`%s`"},
	{regexp.MustCompile(`agy's default is ([A-Za-z_-]+)`), "`%s` (agy's default)"},
	{regexp.MustCompile(`\b(unknown) when left out`), "%s"},
	{regexp.MustCompile(`[Ll]eft out, the name is (derived from [^;.]+)`), "%s"},
}

func defaultOf(desc string) string {
	for _, f := range defaultForms {
		if m := f.re.FindStringSubmatch(desc); m != nil {
			return fmt.Sprintf(f.format, m[1])
		}
	}
	return "—"
}

// where writes the table of where a block lands, when it lands somewhere.
func (g *gen) where(path string) {
	w, ok := wheres[path]
	if !ok {
		return
	}
	if len(w.places) > 0 {
		g.p("**Where it lands** (relative to the render root: `$HOME` in global scope, the project in workspace scope; each path can be moved with [`layout`](#agyconf-layout)):\n\n")
		g.p("| scope | product `cli` | product `ide` | product `both` |\n|---|---|---|---|\n")
		for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
			cells := []string{string(scope)}
			for _, product := range []model.Product{model.ProductCLI, model.ProductIDE, model.ProductBoth} {
				cells = append(cells, w.cell(layout.New(model.Agyconf{Scope: scope, Product: product})))
			}
			g.p("| %s |\n", strings.Join(cells, " | "))
		}
		g.p("\n")
	}
	if w.note != "" {
		g.p("%s\n\n", w.note)
	}
}

// place is one way a block can land: an artifact of the layout and how the
// block's file or entry sits in it (%s is the artifact's path).
type place struct {
	a      agy.KindID
	format string
}

type whereSpec struct {
	places []place // the first with a path in the scope and product wins
	note   string
}

func (w whereSpec) cell(l layout.Layout) string {
	for _, p := range w.places {
		if paths := l.Paths(p.a); len(paths) > 0 {
			var out []string
			for _, path := range paths {
				out = append(out, strings.ReplaceAll(p.format, "%s", path))
			}
			return strings.Join(out, "<br>")
		}
	}
	return "— (an error that says where it could go)"
}

// itemFormat is where an item of a folder kind lands below dir, as a
// cell format: "`dir/NAME/agent.md`" (agy's table, Kind.Item).
func itemFormat(id agy.KindID, dir string) string {
	k, _ := agy.KindOf(id)
	return "`" + k.ItemPath(dir, "NAME") + "`"
}

// wheres says where each block lands, by its path in the schema (nested
// blocks as parent/child). It mirrors internal/render: settings and
// permissions go to the CLI's settings file when the layout has one, else
// to the IDE's; rules to the rules folder, else to the managed block of
// the global rules file.
var wheres = map[string]whereSpec{
	"agyconf": {note: "Writes nothing itself: it decides where everything else goes. Its strings are read literally, not as templates."},
	"tools":   {note: "Writes nothing itself: a listed tool's path replaces its bare name in the commands of hooks.json and mcp_config.json."},
	"mcp_server": {places: []place{{agy.MCPConfig, "`%s` → `mcpServers.NAME`"}},
		note: "Also into `legacy_mcp_config` when the `layout` block sets it. A local server with secrets in `exec` mode is written as `agyhook exec-env … -- command args`."},
	"hook":        {places: []place{{agy.Hooks, "`%s` → `NAME`"}}},
	"skill":       {places: []place{{agy.Skills, "`%s/NAME/SKILL.md`"}}},
	"rule":        {places: []place{{agy.Rules, "`%s/NAME.md`"}, {agy.GlobalRules, "a managed block of `%s` (`always_on` rules only)"}}},
	"agent":       {places: []place{{agy.Agents, itemFormat(agy.Agents, "%s")}}},
	"workflow":    {places: []place{{agy.Workflows, "`%s/NAME.md`"}}},
	"permissions": {places: []place{{agy.Settings, "`%s` → `permissions.allow`, `.ask`, `.deny` (one item each)"}}},
	"settings":    {places: []place{{agy.Settings, "`%s` → each key"}}},
	"plugin": {places: []place{{agy.Plugins, "`%s/NAME/plugin.json`"}},
		note: "Its blocks land inside the plugin's folder, as below."},
	"plugin/mcp_server": {places: []place{{agy.Plugins, "`%s/PLUGIN/mcp_config.json` → `mcpServers.NAME`"}}},
	"plugin/hook":       {places: []place{{agy.Plugins, "`%s/PLUGIN/hooks.json` → `NAME`"}}},
	"plugin/skill":      {places: []place{{agy.Plugins, "`%s/PLUGIN/skills/NAME/SKILL.md`"}}},
	"plugin/rule":       {places: []place{{agy.Plugins, "`%s/PLUGIN/rules/NAME.md`"}}},
	"plugin/agent":      {places: []place{{agy.Plugins, itemFormat(agy.Agents, "%s/PLUGIN/agents")}}},
	"harness": {note: "Writes nothing itself: it expands into ordinary `mcp_server`, `hook`, `skill` and `plugin` blocks before render, which land as those do. " +
		"Guides: [harness-mempalace.md](harness-mempalace.md), [harness-xmsg.md](harness-xmsg.md)."},
	"acp": {places: []place{{agy.ACPSettings, "`%s` → `auth.type`, `gcp` (as defaults)"}}},
}

// layoutTable writes every artifact's default paths.
func (g *gen) layoutTable() {
	g.p("<a id=\"where-files-go\"></a>\n\n## Where files go\n\n")
	g.p("Every artifact agyconf writes, by scope and product, relative to the\n")
	g.p("render root (`--root`: `$HOME` by default in global scope, the current\n")
	g.p("folder in workspace scope). Each row's key moves it:\n")
	g.p("`agyconf { layout { KEY = \"path\" } }`. \"—\" means the scope and product\n")
	g.p("have no such artifact: a block that would land there is an error that\n")
	g.p("says where it could go. Product `both` writes the union, one copy of\n")
	g.p("what the products share.\n\n")
	g.p("| key | global `cli` | global `ide` | global `both` | workspace `cli` | workspace `ide` | workspace `both` |\n")
	g.p("|---|---|---|---|---|---|---|\n")
	for _, a := range agy.KindIDs() {
		cells := []string{"`" + string(a) + "`"}
		for _, scope := range []model.Scope{model.ScopeGlobal, model.ScopeWorkspace} {
			for _, product := range []model.Product{model.ProductCLI, model.ProductIDE, model.ProductBoth} {
				paths := layout.New(model.Agyconf{Scope: scope, Product: product}).Paths(a)
				if len(paths) == 0 {
					cells = append(cells, "—")
					continue
				}
				var q []string
				for _, p := range paths {
					q = append(q, "`"+p+"`")
				}
				cells = append(cells, strings.Join(q, "<br>"))
			}
		}
		g.p("| %s |\n", strings.Join(cells, " | "))
	}
	g.p("\n`legacy_mcp_config` has no default: set it to also write\n")
	g.p("`.gemini/antigravity/mcp_config.json` for IDE builds older than 2.0.\n")
	g.p("`global_rules` is one file holding a block agyconf manages (the rest of\n")
	g.p("the file is yours); the folders (`plugins`, `skills`, `agents`, `rules`,\n")
	g.p("`workflows`) hold one file or folder per block.\n\n")
	g.p("agyconf's own files: the state — what it wrote, per file and per entry,\n")
	g.p("as hashes with secrets redacted — is `<root>/.local/state/agyconf/<instance>.json`\n")
	g.p("in global scope and `<root>/.agyconf/<instance>.json` in workspace scope\n")
	g.p("(commit it with the rendered tree: `render --check` on a fresh clone needs\n")
	g.p("nothing else). Beside it: `lock` (held during a render), `cache/` (the\n")
	g.p("last in-sync render, for the fast path) and `backups/` (every content\n")
	g.p("agyconf wrote over without having written it — a file or entry taken over\n")
	g.p("with `--adopt` or `--force`, a user's file replaced — one file per\n")
	g.p("content, named by its hash, mode 0600; `agyconf backups` lists them); a\n")
	g.p("workspace's `.agyconf/.gitignore` keeps the lock, the cache and the\n")
	g.p("backups out of git, and agyconf rewrites it when it says anything else.\n")
}

// esc makes text safe inside a table cell: no pipe or newline, and no
// "<name>" outside code spans, which markdown would take for HTML.
func esc(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	s = strings.ReplaceAll(s, "\n", " ")
	return para(s)
}

// para makes a description safe as a paragraph: "<name>" outside code
// spans is written as text, not read as HTML.
func para(s string) string {
	parts := strings.Split(s, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.ReplaceAll(parts[i], "<", "&lt;")
	}
	return strings.Join(parts, "`")
}

// firstSentence cuts a description at its first sentence.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
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
