package agy

// Severity is how loudly agyconf reports something about a file agy
// reads: an error (validate exits 1, --strict or not) or a warning.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Effect is what agy does with what a finding is about: the one fact a
// finding's severity follows (Effect.Severity). Every check of a file agy
// reads names one, in lint's rule table.
type Effect string

const (
	// Refuses: agy refuses the whole file: it is not loaded, or agy does
	// not start.
	Refuses Effect = "refuses"
	// Drops: agy drops the entry that holds it (a server, a hook, a rule,
	// a skill, a subagent) and loads the rest.
	Drops Effect = "drops"
	// Misreads: agy loads it as something other than what is written (a
	// value replaced, a field an older build does not read that changes
	// what the entry does).
	Misreads Effect = "misreads"
	// NeverReads: it stands where agy never reads, and holds what agy
	// reads elsewhere: it has no effect.
	NeverReads Effect = "never-reads"
	// RenderRefuses: agyconf render refuses to write the file until it is
	// fixed (agyconf's own marker lines).
	RenderRefuses Effect = "render-refuses"
	// Ignores: agy loads the file and ignores the key or value: a key
	// agyconf does not know, a newer build's field, a misspelling, a key
	// another tool reads. It does nothing.
	Ignores Effect = "ignores"
	// Contested: sources disagree on what agy does with it, or only a
	// third party says that agy drops it.
	Contested Effect = "contested"
	// Risks: agy loads it as written, and it is likely a mistake or fails
	// only where agy runs (a program not on PATH, a readable credential, a
	// budget agy cuts to).
	Risks Effect = "risks"
)

// Effects lists every effect, errors first.
func Effects() []Effect {
	return []Effect{Refuses, Drops, Misreads, NeverReads, RenderRefuses, Ignores, Contested, Risks}
}

// Severity is the severity policy, written once: an error only where agy
// refuses, drops or misreads something, where it never reads what stands
// there, or where render refuses; a key agy ignores, what sources
// contest, and what is only likely a mistake, is a warning that names
// what agy does.
func (e Effect) Severity() Severity {
	switch e {
	case Refuses, Drops, Misreads, NeverReads, RenderRefuses:
		return Error
	}
	return Warning
}

// Summary says what agy does, for docs.
func (e Effect) Summary() string {
	return map[Effect]string{
		Refuses:       "agy refuses the whole file",
		Drops:         "agy drops the entry holding it",
		Misreads:      "agy reads it as something other than what is written",
		NeverReads:    "agy never reads it where it stands",
		RenderRefuses: "agyconf render refuses to write the file",
		Ignores:       "agy ignores it: it does nothing",
		Contested:     "the sources disagree on what agy does with it",
		Risks:         "agy reads it as written; it is likely a mistake, or fails only where agy runs",
	}[e]
}

// Newest is the newest agy CLI build the facts table knows. A check of a
// live file that depends on the build judges for it when no version is
// given (validate --agy-version): what agy does today.
func Newest() Build {
	return Build{Version: V(1, 3, 3), Source: Source{ThirdParty, "the antigravity-cli GitHub release page, quoted by a research note: CLI 1.3.3, published 2026-10-10; no copy read names a newer build"}}
}

// Build is an agy build with where it is known from.
type Build struct {
	Version Version
	Source  Source
}

// JudgedAt is the build a check of a live file judges for: v, or Newest
// when v is unknown.
func JudgedAt(v Version) Version {
	if v.Known() {
		return v
	}
	return Newest().Version
}
