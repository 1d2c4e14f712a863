package agy

import "unicode/utf8"

// Unit is what a limit counts.
type Unit string

const (
	Bytes Unit = "bytes"
	// Characters are Unicode code points, as agy's docs count them.
	Characters Unit = "characters"
)

// LimitID names a limit.
type LimitID string

const (
	SkillBody    LimitID = "skill/body"
	RuleBody     LimitID = "rule/body"
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
		{ID: SkillBody, Max: 24000, Unit: Bytes, Summary: "agy's skill loader keeps only the first 24,000 bytes of a SKILL.md body; the rest is silently cut", Source: Source{Survey, "§4, measured on 1.4.12/1.5.0 by one source"}},
		{ID: RuleBody, Max: 12000, Unit: Characters, Summary: "a rule file is read up to 12,000 characters", Source: Source{Survey, "§6, documented, not probed"}},
		{ID: WorkflowBody, Max: 12000, Unit: Characters, Summary: "a workflow file is read up to 12,000 characters", Source: Source{Survey, "§7, documented, not probed"}},
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
	if l.Unit == Characters {
		return utf8.RuneCountInString(s)
	}
	return len(s)
}

// Exceeds reports whether s is over the limit.
func (l Limit) Exceeds(s string) bool { return l.Measure(s) > l.Max }
