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
	// ThirdParty: a third-party tool's measured report or reading.
	ThirdParty Evidence = "third-party"
	// Survey: the survey agyconf started from (antigravity-surface.md),
	// which cites its own sources per section.
	Survey Evidence = "survey"
)

// Source is where a fact comes from: the kind of evidence and a reference
// a reader can follow ("CLI changelog 1.1.24", "survey §2.4").
type Source struct {
	Evidence Evidence
	Ref      string
}

// String is the source as the docs cite it: "agy CLI changelog 1.1.24",
// "reference §2.4" (the survey, antigravity-surface.md), "probed on 1.1.25".
func (s Source) String() string {
	label := map[Evidence]string{
		Changelog:  "agy CLI changelog",
		CLIDocs:    "agy CLI docs",
		Bundled:    "the IDE's bundled docs",
		Probe:      "probed on",
		ThirdParty: "third-party report:",
		Survey:     "reference",
	}[s.Evidence]
	return label + " " + s.Ref
}

// Weak reports whether the source is another tool's report: a fact agyconf
// writes by should then be the one safe under every reading.
func (s Source) Weak() bool { return s.Evidence == ThirdParty }
