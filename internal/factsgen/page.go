package factsgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
)

func encodeIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// factsPage is docs/agy-facts.md: every fact of the table with its source
// and version, one item each (a table of prose cells reads worse).
func factsPage() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	// sinceOf is ", since X" for what only newer builds have, "" else.
	sinceOf := func(v agy.Version) string {
		if !v.Known() {
			return ""
		}
		return "since " + v.String()
	}
	paren := func(parts ...string) string {
		var out []string
		for _, s := range parts {
			if s != "" {
				out = append(out, s)
			}
		}
		if len(out) == 0 {
			return ""
		}
		return " (" + strings.Join(out, "; ") + ")"
	}
	// src is an item's source, or "as above" when it is the one just
	// before it: a list of one source's facts names it once.
	last := ""
	src := func(source agy.Source) string {
		s := line(source.String())
		if s == last {
			return "as above"
		}
		last = s
		return s
	}
	p("# What agyconf knows about Antigravity\n\n")
	p("Generated from agyconf's table of facts (`internal/agy`) by `go test ./internal/factsgen -update`; do not edit.\n")
	p("Every fact names its source — the agy CLI changelog, the CLI docs, the docs the IDE bundles, a probe of a named build, or a third-party report, each by the name the list of [sources](#sources) gives — and the agy CLI version that introduced it.\n\n")
	p("## Versions\n\n")
	last = ""
	p("`agyconf { agy_version = \"…\" }` is the oldest agy build the rendered files must load on; unknown by default. ")
	p("What only newer builds read is written only when agy_version says the build has it, since one unknown field or event can cost a whole file. ")
	p("`agyconf validate --agy-version` judges a user's own files for the build it names; without it, for the newest build this table knows, %s (%s).\n\n", agy.Newest().Version, agy.Newest().Source)
	p("## How severe a finding is\n\n")
	last = ""
	p("One policy, `agy.Effect.Severity`, decides the severity of every finding of `agyconf validate` and of render's checks of what it writes, from what agy does with what the finding is about:\n\n")
	for _, e := range agy.Effects() {
		p("- `%s`, %s: %s\n", e, e.Severity(), e.Summary())
	}
	p("\n")
	p("## Hook events\n\n")
	last = ""
	for _, e := range agy.Events() {
		shape := "flat: handlers"
		if e.Grouped {
			shape = "grouped: matcher groups"
		}
		p("- `%s`%s: %s. Source: %s.\n", e.Name, paren("block `"+e.Block()+"`", "Nix option `"+e.Option()+"`", shape, sinceOf(e.Since)), line(e.When), src(e.Source))
	}
	p("\nEach event has two contracts: `agyconf schema %s` (what agy writes on the hook's stdin) and `agyconf schema %s` (what it honours on stdout), and so on for each event.\n\n", agy.Events()[0].StdinSchema(), agy.Events()[0].StdoutSchema())
	p("## PreToolUse decisions\n\n")
	last = ""
	for _, d := range agy.PreToolUseDecisions() {
		p("- `%s`: %s. Source: %s.\n", d.Name, line(d.Summary), src(d.Source))
	}
	p("\n")
	p("## Behaviours that changed between builds\n\n")
	last = ""
	for _, f := range agy.Behaviours() {
		p("- `%s`%s: %s. Source: %s.\n", f.Feature, paren(sinceOf(f.Since)), line(f.Summary), src(f.Source))
	}
	p("\n## Documents and where they go\n\n")
	last = ""
	p("Each kind's paths, per scope and product, are in [reference.md](reference.md#where-files-go); `agyconf { layout { KIND = \"…\" } }` moves any of them. A shared file is one agy writes too: agyconf owns entries in it, not the file.\n\n")
	for _, k := range agy.Kinds() {
		what := k.Summary
		if k.Shared {
			what += " (shared)"
		}
		schema := ""
		if k.Schema != "" {
			schema = "schema `" + k.Schema + "`"
		}
		p("- `%s`%s: %s. Source: %s.\n", k.ID, paren(schema, sinceOf(k.Since)), line(what), src(k.Source))
	}
	p("\nKinds agyconf no longer writes; their layout keys are refused, and a render lets go of what it wrote there before (prunes its entries, gives back what it found):\n\n")
	last = ""
	for _, r := range agy.RetiredKinds() {
		p("- `%s` (formerly %s): %s. Source: %s.\n", r.ID, places(agy.Kind{Places: r.Places}, agy.ScopeWorkspace), line(r.Why), src(r.Source))
	}
	p("\nWorkspace settings files agy does not read (`agyconf validate` warns, rule `settings/not-read`):\n\n")
	last = ""
	for _, u := range agy.UnreadFiles() {
		p("- `%s`: %s. Source: %s.\n", u.Path, line(u.Why), src(u.Source))
	}
	p("\nFolders agy no longer reads (`agyconf import` lists each entry as not imported, `agyconf validate` warns, rule `skill/legacy-folder`):\n\n")
	last = ""
	for _, l := range agy.LegacyFolders() {
		p("- `%s` (%s scope, held `%s`): %s. Source: %s.\n", l.Path, l.Scope, l.Kind, line(l.Why), src(l.Source))
	}
	ph := agy.PluginHooks()
	p("\n## Where agy reads a plugin's hooks\n\n")
	last = ""
	p("%s. %s.\n\n%s.\n\n", upperFirst(ph.Decision), upperFirst(ph.Why), upperFirst(ph.Caveat))
	p("The evidence, by file in the plugin's folder:\n\n")
	last = ""
	for _, f := range ph.Files {
		for _, e := range f.Evidence {
			read := "not read"
			if e.Reads {
				read = "read"
			}
			p("- `%s`, %s, %s: %s. Source: %s.\n", f.Path, line(e.Build), read, line(e.Seen), src(e.Source))
		}
	}
	p("\n## Permission rules\n\n")
	last = ""
	p("Entries of `permissions { allow, ask, deny }`: `action` or `action(target)`.\n\n")
	for _, a := range agy.PermissionActions() {
		what := a.Summary
		if a.ReplacedBy != "" {
			what += fmt.Sprintf(" (deprecated since %s: use %s)", a.DeprecatedSince, a.ReplacedBy)
		}
		p("- `%s`: %s. Source: %s.\n", a.Name, line(what), src(a.Source))
	}
	p("\nHow agy reads them changed:\n\n")
	last = ""
	for _, c := range agy.PermissionChanges() {
		p("- `%s`%s: %s. Source: %s.\n", c.ID, paren(sinceOf(c.Since)), line(c.Summary), src(c.Source))
	}
	p("\n## Settings keys\n\n")
	last = ""
	p("Keys of the CLI's settings.json agyconf knows: the decoder checks their values and suggests one for a near miss, import keeps them. Other keys pass through unchecked.\n\n")
	for _, k := range agy.SettingKeys() {
		typ := string(k.Type)
		if k.Type == agy.SettingEnum {
			typ = "`" + strings.Join(k.Values, "`, `") + "`"
		}
		what := k.Summary
		for _, v := range sortedKeys(k.NewerValues) {
			what += fmt.Sprintf("; %q since %s", v, agy.BehaviourOf(k.NewerValues[v]).Since)
		}
		p("- `%s`%s: %s. Source: %s.\n", k.Key, paren(typ, sinceOf(k.Since)), line(what), src(k.Source))
	}
	p("\n## The ACP server\n\n")
	last = ""
	p("agy_acp_server honours `$GEMINI_HOME` as its Gemini home (default `~/.gemini`), where it keeps `antigravity-acp/`: its settings.json, its tokens and its conversations (%s). ", agy.ACPHome())
	p("With an OAuth `auth.type` and no stored token, a headless `session/new` waits up to %d s for a browser sign-in (%s). Its `auth.type` values:\n\n", agy.ACPSignInWait, agy.ACPTokens())
	for _, m := range agy.ACPAuthMethods() {
		token := ""
		if m.TokenFile != "" {
			token = "token in `" + m.TokenFile + "`"
		}
		what := m.Summary
		if m.FormerName {
			what += " (accepted, not written)"
		}
		p("- `%s`%s: %s. Source: %s.\n", m.Name, paren(token), line(what), src(m.Source))
	}
	p("\n## Limits\n\n")
	last = ""
	for _, l := range agy.Limits() {
		p("- `%s` (at most %s %s): %s. Source: %s.\n", l.ID, thousands(l.Max), l.Unit, line(l.Summary), src(l.Source))
	}
	p("\n## Sources\n\n")
	last = ""
	p("Where the sources the facts, `agyconf explain` and the schemas' descriptions cite by name are:\n\n")
	for _, r := range agy.References() {
		p("- **%s**: %s — %s.\n", r.Name, line(r.Where), line(r.What))
	}
	p("\n")
	return b.String()
}

// line makes text one line of a list item.
func line(s string) string { return strings.Join(strings.Fields(s), " ") }

// places lists a kind's paths in a scope per product, merging products
// that agree.
func places(k agy.Kind, s agy.Scope) string {
	var parts []string
	for _, p := range []agy.Product{agy.ProductCLI, agy.ProductIDE} {
		ps := k.PathsFor(s, p)
		if len(ps) == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: `%s`", p, strings.Join(ps, "`, `")))
	}
	if len(parts) == 2 {
		cli, ide := k.PathsFor(s, agy.ProductCLI), k.PathsFor(s, agy.ProductIDE)
		if strings.Join(cli, ",") == strings.Join(ide, ",") {
			return "`" + strings.Join(cli, "`, `") + "`"
		}
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
