package agy

// Evidence is how a fact is known, strongest first: what Google publishes,
// what was measured on a build, what another tool reports.
type Evidence string

const (
	// Changelog: the public agy CLI changelog ("## 1.1.24" …).
	Changelog Evidence = "changelog"
	// CLIDocs: the CLI docs of the public google-antigravity/antigravity-cli
	// repository (docs/*.md).
	CLIDocs Evidence = "cli-docs"
	// Bundled: the customization docs the IDE bundles
	// (builtin/skills/agy-customizations/docs/).
	Bundled Evidence = "bundled"
	// Probe: measured on a named build (the survey's [PROBED] facts).
	Probe Evidence = "probe"
	// ThirdParty: a third-party tool's measured report or reading, by
	// name (References lists where each is).
	ThirdParty Evidence = "third-party"
)

// Source is where a fact comes from: the kind of evidence and a reference
// a reader can follow ("1.1.24" of the CLI changelog, "1.1.25 by
// skillsaw"): a public source, named as References names it, never
// anything agyconf does not ship.
type Source struct {
	Evidence Evidence
	Ref      string
}

// String is the source as the docs cite it: "agy CLI changelog 1.1.24",
// "probed on 1.1.25 by skillsaw", "third-party report: sigil, CLI 1.2.0".
func (s Source) String() string {
	label := map[Evidence]string{
		Changelog:  "agy CLI changelog",
		CLIDocs:    "agy CLI docs",
		Bundled:    "the IDE's bundled docs",
		Probe:      "probed on",
		ThirdParty: "third-party report:",
	}[s.Evidence]
	return label + " " + s.Ref
}

// Weak reports whether the source is another tool's report: a fact agyconf
// writes by should then be the one safe under every reading.
func (s Source) Weak() bool { return s.Evidence == ThirdParty }
