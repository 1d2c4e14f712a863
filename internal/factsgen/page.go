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

// cell makes text safe inside a markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

func since(v agy.Version) string {
	if !v.Known() {
		return "every known build"
	}
	return v.String()
}

// factsPage is docs/agy-facts.md: every fact of the table with its source
// and version.
func factsPage() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# What agyconf knows about Antigravity\n\n")
	p("Generated from agyconf's table of facts (`internal/agy`) by `go test ./internal/factsgen -update`; do not edit.\n")
	p("Every fact names its source — the public agy CLI changelog, the CLI docs in google-antigravity/antigravity-cli, the docs the IDE bundles, a probe of a named build, or a third-party tool's report, each by the name the list of [sources](#sources) gives with where to read it — and the agy CLI version that introduced it.\n\n")
	p("## Versions\n\n")
	p("`agyconf { agy_version = \"…\" }` is the oldest agy build the rendered files must load on; unknown by default. ")
	p("What only newer builds read is written only when agy_version says the build has it, since one unknown field or event can cost a whole file. ")
	p("`agyconf validate --agy-version` judges a user's own files for the build it names; without it, for the newest build this table knows, %s (%s).\n\n", agy.Newest().Version, agy.Newest().Source)
	p("## How severe a finding is\n\n")
	p("One policy, `agy.Effect.Severity`, decides the severity of every finding of `agyconf validate` and of render's checks of what it writes, from what agy does with what the finding is about:\n\n")
	p("| what agy does | severity |\n|---|---|\n")
	for _, e := range agy.Effects() {
		p("| %s (`%s`) | %s |\n", e.Summary(), e, e.Severity())
	}
	p("\n")
	p("## Hook events\n\n")
	p("| event | block | Nix option | shape | since | when | source |\n|---|---|---|---|---|---|---|\n")
	for _, e := range agy.Events() {
		shape := "flat: handlers"
		if e.Grouped {
			shape = "grouped: matcher groups"
		}
		p("| `%s` | `%s` | `%s` | %s | %s | %s | %s |\n", e.Name, e.Block(), e.Option(), shape, since(e.Since), cell(e.When), cell(e.Source.String()))
	}
	p("\nEach event has two contracts: `agyconf schema %s` (what agy writes on the hook's stdin) and `agyconf schema %s` (what it honours on stdout), and so on for each event.\n\n", agy.Events()[0].StdinSchema(), agy.Events()[0].StdoutSchema())
	p("## PreToolUse decisions\n\n| decision | what agy does | source |\n|---|---|---|\n")
	for _, d := range agy.PreToolUseDecisions() {
		p("| `%s` | %s | %s |\n", d.Name, cell(d.Summary), cell(d.Source.String()))
	}
	p("\n")
	p("## Behaviours that changed between builds\n\n")
	p("| feature | since | what | source |\n|---|---|---|---|\n")
	for _, f := range agy.Behaviours() {
		p("| `%s` | %s | %s | %s |\n", f.Feature, since(f.Since), cell(f.Summary), cell(f.Source.String()))
	}
	p("\n## Documents and where they go\n\n")
	p("Paths are relative to the render root (`$HOME` in global scope, the project in a workspace); each is overridable with `agyconf { layout { KIND = \"…\" } }`.\n\n")
	p("| kind | what | schema | global | workspace | since | source |\n|---|---|---|---|---|---|---|\n")
	for _, k := range agy.Kinds() {
		what := k.Summary
		if k.Shared {
			what += " (shared: agyconf owns entries, not the file)"
		}
		schema := "—"
		if k.Schema != "" {
			schema = "`" + k.Schema + "`"
		}
		p("| `%s` | %s | %s | %s | %s | %s | %s |\n", k.ID, cell(what), schema, places(k, agy.ScopeGlobal), places(k, agy.ScopeWorkspace), since(k.Since), cell(k.Source.String()))
	}
	p("\nKinds agyconf no longer writes; their layout keys are refused, and a render lets go of what it wrote there before (prunes its entries, gives back what it found):\n\n")
	p("| kind | former workspace path | why | source |\n|---|---|---|---|\n")
	for _, r := range agy.RetiredKinds() {
		p("| `%s` | %s | %s | %s |\n", r.ID, places(agy.Kind{Places: r.Places}, agy.ScopeWorkspace), cell(r.Why), cell(r.Source.String()))
	}
	p("\nWorkspace settings files agy does not read (`agyconf validate` warns, rule `settings/not-read`):\n\n")
	p("| file | why | source |\n|---|---|---|\n")
	for _, u := range agy.UnreadFiles() {
		p("| `%s` | %s | %s |\n", u.Path, cell(u.Why), cell(u.Source.String()))
	}
	p("\nFolders agy no longer reads (`agyconf import` lists each entry as not imported, `agyconf validate` warns, rule `skill/legacy-folder`):\n\n")
	p("| scope | folder | held | why | source |\n|---|---|---|---|---|\n")
	for _, l := range agy.LegacyFolders() {
		p("| %s | `%s` | `%s` | %s | %s |\n", l.Scope, l.Path, l.Kind, cell(l.Why), cell(l.Source.String()))
	}
	ph := agy.PluginHooks()
	p("\n## Where agy reads a plugin's hooks\n\n")
	p("%s. %s.\n\n%s.\n\n", upperFirst(ph.Decision), upperFirst(ph.Why), upperFirst(ph.Caveat))
	p("| file (in the plugin's folder) | build | read | what was seen | source |\n|---|---|---|---|---|\n")
	for _, f := range ph.Files {
		for _, e := range f.Evidence {
			read := "no"
			if e.Reads {
				read = "yes"
			}
			p("| `%s` | %s | %s | %s | %s |\n", f.Path, cell(e.Build), read, cell(e.Seen), cell(e.Source.String()))
		}
	}
	p("\n## Permission rules\n\n")
	p("Entries of `permissions { allow, ask, deny }`: `action` or `action(target)`.\n\n")
	p("| action | what | source |\n|---|---|---|\n")
	for _, a := range agy.PermissionActions() {
		what := a.Summary
		if a.ReplacedBy != "" {
			what += fmt.Sprintf(" (deprecated since %s: use %s)", a.DeprecatedSince, a.ReplacedBy)
		}
		p("| `%s` | %s | %s |\n", a.Name, cell(what), cell(a.Source.String()))
	}
	p("\n| change | since | what | source |\n|---|---|---|---|\n")
	for _, c := range agy.PermissionChanges() {
		p("| `%s` | %s | %s | %s |\n", c.ID, since(c.Since), cell(c.Summary), cell(c.Source.String()))
	}
	p("\n## Settings keys\n\n")
	p("Keys of the CLI's settings.json agyconf knows: the decoder checks their values and suggests one for a near miss, import keeps them. Other keys pass through unchecked.\n\n")
	p("| key | type | since | what | source |\n|---|---|---|---|---|\n")
	for _, k := range agy.SettingKeys() {
		typ := string(k.Type)
		if k.Type == agy.SettingEnum {
			typ = "`" + strings.Join(k.Values, "`, `") + "`"
		}
		what := k.Summary
		for _, v := range sortedKeys(k.NewerValues) {
			what += fmt.Sprintf("; %q since %s", v, agy.BehaviourOf(k.NewerValues[v]).Since)
		}
		p("| `%s` | %s | %s | %s | %s |\n", k.Key, typ, since(k.Since), cell(what), cell(k.Source.String()))
	}
	p("\n## The ACP server\n\n")
	p("agy_acp_server honours `$GEMINI_HOME` as its Gemini home (default `~/.gemini`), where it keeps `antigravity-acp/`: its settings.json, its tokens and its conversations (%s). ", agy.ACPHome())
	p("With an OAuth `auth.type` and no stored token, a headless `session/new` waits up to %d s for a browser sign-in (%s).\n\n", agy.ACPSignInWait, agy.ACPTokens())
	p("| auth.type | what | token file | source |\n|---|---|---|---|\n")
	for _, m := range agy.ACPAuthMethods() {
		token := "— (the environment)"
		if m.TokenFile != "" {
			token = "`" + m.TokenFile + "` (the reading above)"
		}
		what := m.Summary
		if m.FormerName {
			what += " (accepted, not written)"
		}
		p("| `%s` | %s | %s | %s |\n", m.Name, cell(what), token, cell(m.Source.String()))
	}
	p("\n## Limits\n\n")
	p("| limit | at most | what | source |\n|---|---|---|---|\n")
	for _, l := range agy.Limits() {
		p("| `%s` | %s %s | %s | %s |\n", l.ID, thousands(l.Max), l.Unit, cell(l.Summary), cell(l.Source.String()))
	}
	p("\n## Sources\n\n")
	p("Where the sources the facts, `agyconf explain` and the schemas' descriptions cite by name are:\n\n")
	p("| source | where | what it holds |\n|---|---|---|\n")
	for _, r := range agy.References() {
		p("| %s | %s | %s |\n", cell(r.Name), cell(r.Where), cell(r.What))
	}
	p("\n")
	return b.String()
}

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
