package agy

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTablesWellFormed: names are unique, every row has a source, and
// derived names are what the input language, Nix and file names use.
func TestTablesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Events() {
		for i, n := range []string{string(e.Name), e.Block(), e.Option(), e.Kebab()} {
			key := string(rune('0'+i)) + n // unique among names of one kind
			if seen[key] {
				t.Errorf("event %s: name %q used twice", e.Name, n)
			}
			seen[key] = true
		}
		if e.When == "" || e.Source.Ref == "" || e.Source.Evidence == "" {
			t.Errorf("event %s: no description or source", e.Name)
		}
	}
	if e, _ := EventNamed("PreToolUse"); e.Block() != "pre_tool_use" || e.Option() != "preToolUse" || e.StdinSchema() != "hook-stdin-pre-tool-use" {
		t.Errorf("derived names: %s %s %s", e.Block(), e.Option(), e.StdinSchema())
	}
	if e, ok := EventForBlock("session_start"); !ok || e.Name != SessionStart || !e.Since.Known() {
		t.Errorf("EventForBlock(session_start) = %+v, %v", e, ok)
	}
	if !PreToolUse.Grouped() || Stop.Grouped() || EventName("Nope").Grouped() {
		t.Error("Grouped")
	}

	features := map[Feature]bool{}
	for _, b := range Behaviours() {
		if features[b.Feature] || b.Summary == "" || b.Source.Ref == "" || !b.Since.Known() {
			t.Errorf("behaviour %s: duplicate, or missing summary, source or version", b.Feature)
		}
		features[b.Feature] = true
	}
	if !features[PromptHandlers] {
		t.Error("PromptHandlers has no row")
	}

	for _, id := range []LimitID{SkillBody, RuleBudget, WorkflowBody} {
		if l := LimitOf(id); l.Max <= 0 || l.Unit == "" || l.Source.Ref == "" {
			t.Errorf("limit %s: %+v", id, l)
		}
	}

	for _, k := range Kinds() {
		if k.Summary == "" || k.Source.Ref == "" {
			t.Errorf("kind %s: no summary or source", k.ID)
		}
		for s, byProduct := range k.Places {
			for p, paths := range byProduct {
				for _, q := range paths {
					if path.Clean(q) != q || strings.HasPrefix(q, "/") || strings.HasPrefix(q, "..") {
						t.Errorf("kind %s, %s/%s: %q is not a clean relative path", k.ID, s, p, q)
					}
				}
			}
		}
	}
	if _, ok := KindOf(MCPConfig); !ok {
		t.Error("KindOf(MCPConfig)")
	}

	// A retired kind is no kind (its layout key is refused, not resolved),
	// and every path it had is a file agy does not read.
	for _, r := range RetiredKinds() {
		if _, ok := KindOf(r.ID); ok {
			t.Errorf("retired kind %s is still a kind", r.ID)
		}
		if r.Why == "" || r.Source.Ref == "" {
			t.Errorf("retired kind %s: no reason or source", r.ID)
		}
		for _, byProduct := range r.Places {
			for _, paths := range byProduct {
				for _, q := range paths {
					if _, ok := UnreadFileAt(q); !ok {
						t.Errorf("retired kind %s: %s is not in the table of unread files", r.ID, q)
					}
				}
			}
		}
	}
	for _, u := range UnreadFiles() {
		if u.Why == "" || u.Source.Ref == "" || path.Clean(u.Path) != u.Path || strings.HasPrefix(u.Path, "/") {
			t.Errorf("unread file %+v", u)
		}
	}
}

// TestLimitsCountOneWay: a limit in characters counts code points, one in
// bytes counts bytes, so 13,000 "é" (26,000 bytes) is over a 24,000-byte
// limit and under a 24,000-character one.
func TestLimitsCountOneWay(t *testing.T) {
	s := strings.Repeat("é", 13000)
	if !(Limit{Max: 24000, Unit: Bytes}).Exceeds(s) {
		t.Error("bytes")
	}
	if (Limit{Max: 24000, Unit: Characters}).Exceeds(s) {
		t.Error("characters")
	}
}

func TestVersion(t *testing.T) {
	for s, ok := range map[string]bool{"1.2.3": true, "0.0.1": true, "1.02.3": false, "1.2": false, "1.2.3.4": false, "a.b.c": false, "": false, "1.2.-3": false} {
		if _, got := ParseVersion(s); got != ok {
			t.Errorf("ParseVersion(%q) = %v", s, got)
		}
	}
	v, _ := ParseVersion("1.1.25")
	if !v.AtLeast(V(1, 1, 25)) || !v.AtLeast(V(1, 0, 99)) || v.AtLeast(V(1, 2, 0)) || (Version{}).AtLeast(V(0, 0, 1)) {
		t.Error("AtLeast")
	}
	if !Has(v, PromptHandlers) || Has(V(1, 1, 24), PromptHandlers) || Has(Version{}, PromptHandlers) {
		t.Error("Has")
	}
}

func TestParsePermission(t *testing.T) {
	for entry, want := range map[string]*Permission{
		"command(git *)":        {Action: "command", Target: "git *", HasTarget: true},
		"read_file":             {Action: "read_file"},
		"mcp(github/*)":         {Action: "mcp", Target: "github/*", HasTarget: true},
		"unsandboxed(make)":     {Action: "unsandboxed", Target: "make", HasTarget: true},
		"command(a(b)c)":        {Action: "command", Target: "a(b)c", HasTarget: true},
		"command()":             nil,
		"shell(ls)":             nil,
		"Command(x)":            nil,
		"command(a\nb)":         nil,
		"command(x":             nil,
		"command(x)\n":          nil,
		"read_file(/etc) extra": nil,
	} {
		got, ok := ParsePermission(entry)
		switch {
		case want == nil && ok:
			t.Errorf("ParsePermission(%q) = %+v, want refused", entry, got)
		case want != nil && (!ok || got != *want):
			t.Errorf("ParsePermission(%q) = %+v, %v, want %+v", entry, got, ok, *want)
		case want != nil && got.String() != entry:
			t.Errorf("%q.String() = %q", entry, got.String())
		}
	}
	pat := regexp.MustCompile(PermissionPattern())
	for _, e := range []string{"command(git *)", "read_file", "command()", "shell(ls)", "command(a\nb)"} {
		_, ok := ParsePermission(e)
		if pat.MatchString(e) != ok {
			t.Errorf("PermissionPattern and ParsePermission disagree on %q", e)
		}
	}
}

func TestPermissionForms(t *testing.T) {
	p, _ := ParsePermission("command(regex:^git (push|pull)$)")
	if pat, ok := p.Pattern(); !ok || pat != "^git (push|pull)$" || p.RegexLookalike() != "" || p.ZeroCommandWords() {
		t.Errorf("regex rule: %q %v %q", pat, ok, p.RegexLookalike())
	}
	if r, ok := (Permission{Action: "unsandboxed", Target: "git push", HasTarget: true}).Replacement(); !ok || r.String() != "command(git push)" {
		t.Errorf("unsandboxed(git push) → %q", r)
	}
	if r, ok := (Permission{Action: "unsandboxed"}).Replacement(); !ok || r.String() != "command" {
		t.Errorf("unsandboxed → %q", r)
	}
	if _, ok := (Permission{Action: "command", Target: "x", HasTarget: true}).Replacement(); ok {
		t.Error("command has no replacement")
	}
	for target, zero := range map[string]bool{
		"time": true, "time -p": true, " ": true, "()": true, "( )": true, "{ ; }": true, "# just a note": true,
		"FOO=1": true, "FOO=1 BAR=2": true, "!": true, "time ()": true,
		"time make": false, "git": false, "FOO=1 make": false, "make # build": false, "(ls)": false,
		`"" `: false, "echo FOO=1": false, "-p": false, "*": false,
	} {
		p := Permission{Action: "command", Target: target, HasTarget: true}
		if p.ZeroCommandWords() != zero {
			t.Errorf("command(%s): zero words %v, want %v (words %q)", target, !zero, zero, commandWords(target))
		}
	}
	if (Permission{Action: "read_file", Target: "()", HasTarget: true}).ZeroCommandWords() || (Permission{Action: "command"}).ZeroCommandWords() {
		t.Error("only command rules with a target have command words")
	}
	for target, want := range map[string]string{
		"^git status": "a leading ^", "git status$": "a trailing $", "npm run .*": ".*", "ls .+": ".+",
		`echo \d`: `\d`, "npm run (build|test)": "(build|test)", "git (push|pull)": "(push|pull)",
		"git:*": "a trailing :*, Claude Code's prefix syntax (Bash(git:*))", `\.specify/setup\.sh`: `the escape \.`, `lua run\-tests`: `the escape \-`,
		"git *": "", "echo $HOME": "", `echo \$`: "", `echo \\n`: "", `printf \n`: "", "(ls|wc)": "", "ls | wc": "", "a; (b|c)": "",
	} {
		if got := (Permission{Action: "command", Target: target, HasTarget: true}).RegexLookalike(); got != want {
			t.Errorf("command(%s): lookalike %q, want %q", target, got, want)
		}
	}
	if got := (Permission{Action: "command", Target: "jj:*", HasTarget: true}).LookalikeAdvice(); !strings.Contains(got, `"command(jj)"`) {
		t.Errorf("jj:* advice: %s", got)
	}
	if got := (Permission{Action: "command", Target: "ls .*", HasTarget: true}).LookalikeAdvice(); !strings.Contains(got, `"command(regex:ls .*)"`) {
		t.Errorf("ls .* advice: %s", got)
	}
	for _, c := range []string{"literal-command-rules", "zero-word-entries", "unsandboxed-deprecated"} {
		if ch := PermissionChangeOf(c); ch.Summary == "" || !ch.Since.Known() || ch.Source.Ref == "" {
			t.Errorf("permission change %s: %+v", c, ch)
		}
	}
}

func TestSettingKeys(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range SettingKeys() {
		if seen[s.Key] || s.Summary == "" || s.Source.Ref == "" {
			t.Errorf("setting %s: duplicate, or no summary or source", s.Key)
		}
		seen[s.Key] = true
		if (s.Type == SettingEnum) != (len(s.Values) > 0) {
			t.Errorf("setting %s: values belong to enums", s.Key)
		}
		for v, f := range s.NewerValues {
			if !slices.Contains(s.Values, v) || !BehaviourOf(f).Since.Known() {
				t.Errorf("setting %s: newer value %q is not a value, or %s has no row", s.Key, v, f)
			}
		}
		if s.Unverified != s.Source.Weak() {
			t.Errorf("setting %s: unverified exactly when only a third party names it", s.Key)
		}
	}
	if v, ok := SettingKeyOf("verbosity"); !ok || !Has(V(1, 2, 10), v.NewerValues["medium"]) || Has(V(1, 2, 9), v.NewerValues["medium"]) {
		t.Errorf("verbosity medium: %+v", v)
	}
	if _, ok := SettingKeyOf("UseG1Credits"); ok {
		t.Error("keys are spelled exactly")
	}
}

func TestACPAuthMethods(t *testing.T) {
	written := 0
	for _, m := range ACPAuthMethods() {
		if m.Summary == "" || m.Source.Ref == "" {
			t.Errorf("%s: no summary or source", m.Name)
		}
		if !m.FormerName {
			written++
		}
		if (m.TokenFile != "") != strings.HasPrefix(m.Name, "oauth-") {
			t.Errorf("%s: the OAuth methods, and they only, keep a token file", m.Name)
		}
	}
	if written != 4 {
		t.Errorf("%d methods written, want the server's four", written)
	}
	if m, ok := ACPAuthMethodOf("oauth-business"); !ok || m.TokenFile != "acp_business_token.json" {
		t.Errorf("oauth-business: %+v", m)
	}
	if ACPSignInWait != 300 || ACPHome().Ref == "" || ACPTokens().Ref == "" {
		t.Error("ACP facts")
	}
}

// TestPluginHooksDecision pins where a plugin's hooks go, and why that is
// safe: agyconf writes the same hooks to a plugin's hooks.json and
// hooks/hooks.json because some source shows a build reading each (so
// either alone loses the hooks on some build) and none shows a build
// reading both (which would run each hook twice). A source added to the
// table that shows one build reading both, or a file no build is shown
// reading, fails this test: the decision must then be made again, in
// render, validate, import and doctor, which all follow PluginHooksPaths.
func TestPluginHooksDecision(t *testing.T) {
	if got := PluginHooksPaths(); !slices.Equal(got, []string{"hooks.json", "hooks/hooks.json"}) {
		t.Fatalf("a plugin's hooks are written to %q; the decision was both hooks.json and hooks/hooks.json (docs/agy-facts.md)", got)
	}
	readers := map[string][]string{}
	for _, f := range PluginHooks().Files {
		read := false
		for _, e := range f.Evidence {
			if e.Source.Ref == "" || e.Seen == "" || e.Build == "" {
				t.Errorf("%s: evidence without build, observation or source: %+v", f.Path, e)
			}
			if e.Reads {
				read = true
				readers[e.Build] = append(readers[e.Build], f.Path)
			}
		}
		if !read {
			t.Errorf("%s: no source shows a build reading it, yet agyconf writes it", f.Path)
		}
	}
	for build, files := range readers {
		if len(files) > 1 {
			t.Errorf("a source shows %s reading %q: writing the same hooks to each runs them twice there; decide again", build, files)
		}
	}
	ph := PluginHooks()
	if ph.Decision == "" || ph.Why == "" || ph.Caveat == "" || ph.Source.Ref == "" {
		t.Errorf("the decision is not stated with its reason and source: %+v", ph)
	}
}
