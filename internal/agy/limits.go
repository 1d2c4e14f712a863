package agy

import "unicode/utf8"

// Unit is what a limit counts.
type Unit string

const (
	Bytes Unit = "bytes"
	// Characters are Unicode code points, as agy's docs count them.
	Characters Unit = "characters"
	// Tokens are model tokens, estimated: agy's tokenizer is not public, so
	// agyconf counts one token per four bytes of UTF-8, rounded up — the
	// usual estimate for English prose. Code, markup and non-Latin scripts
	// take more tokens per byte, so the estimate errs low; what counts
	// against a token budget is only ever a warning.
	Tokens Unit = "tokens (estimated: bytes / 4)"
)

// LimitID names a limit.
type LimitID string

const (
	SkillBody LimitID = "skill/body"
	// RuleBudget is the budget of user and workspace rules together: what
	// is over it is cut, not refused.
	RuleBudget   LimitID = "rule/budget"
	WorkflowBody LimitID = "workflow/body"
)

// Limit is a size agy applies to what it loads.
type Limit struct {
	ID  LimitID
	Max int
	// Unit is what Max counts; Measure counts it.
	Unit    Unit
	Summary string
	Source  Source
}

func limits() []Limit {
	return []Limit{
		{ID: SkillBody, Max: 24000, Unit: Bytes, Summary: "agy's skill loader keeps only the first 24,000 bytes of a SKILL.md body; the rest is silently cut", Source: Source{ThirdParty, "pstack, measured on agy 1.4.12 and 1.5.0 (one source)"}},
		// The 12,000 characters per rule file rulesync and skly.ai cite
		// (documented before 1.2.7, never probed) gave way to this budget.
		{ID: RuleBudget, Max: 20000, Unit: Tokens, Summary: "user and workspace rules share a budget of 20,000 tokens; agy cuts the rules over it at newline boundaries and lists them by path and description", Source: Source{Changelog, "1.2.7"}},
		{ID: WorkflowBody, Max: 12000, Unit: Characters, Summary: "a workflow file is read up to 12,000 characters", Source: Source{ThirdParty, "rulesync, citing antigravity.google/docs/rules-workflows (documented, not probed)"}},
	}
}

// Limits lists every limit, sorted by ID.
func Limits() []Limit {
	ls := limits()
	sortBy(ls, func(l Limit) string { return string(l.ID) })
	return ls
}

// LimitOf returns the row of a limit; every LimitID constant has one (a
// test checks).
func LimitOf(id LimitID) Limit {
	for _, l := range limits() {
		if l.ID == id {
			return l
		}
	}
	return Limit{ID: id}
}

// Measure counts s in the limit's unit: every package that checks a limit
// counts the same way, so no text passes one check and fails another.
func (l Limit) Measure(s string) int {
	switch l.Unit {
	case Characters:
		return utf8.RuneCountInString(s)
	case Tokens:
		return EstimateTokens(len(s))
	}
	return len(s)
}

// EstimateTokens is the token estimate of n bytes of text (see Tokens).
func EstimateTokens(n int) int { return (n + 3) / 4 }

// Exceeds reports whether s is over the limit.
func (l Limit) Exceeds(s string) bool { return l.Measure(s) > l.Max }
