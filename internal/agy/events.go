package agy

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// EventName is a hook event as hooks.json spells it.
type EventName string

// The events code refers to by name (harnesses, hook test payloads). A new
// event needs none of these: its row in events is enough.
const (
	PreToolUse     EventName = "PreToolUse"
	PostToolUse    EventName = "PostToolUse"
	PreInvocation  EventName = "PreInvocation"
	PostInvocation EventName = "PostInvocation"
	Stop           EventName = "Stop"
	SessionStart   EventName = "SessionStart"
)

// Event is one hook event agy fires.
type Event struct {
	Name EventName
	// Grouped events take matcher groups ({matcher, hooks}); flat ones a
	// list of handlers, where a matcher is ignored.
	Grouped bool
	// When says when agy runs it, for the docs and schema descriptions.
	When string
	// Since is the first agy build that has it; zero: every known build.
	// A hooks.json naming an event its build rejects may be dropped
	// whole, so render writes it only when agy_version is this or newer.
	Since  Version
	Source Source
}

// events is the table, in the order hooks.json documents them. Adding an
// event is a row here plus its two contracts in schema/
// (hook-stdin-<kebab>.schema.json, hook-stdout-<kebab>.schema.json).
func events() []Event {
	return []Event{
		{Name: PreToolUse, Grouped: true, When: "runs before a tool, and may allow, deny or ask", Source: Source{Bundled, "hooks.md (the events and their contracts), quoted by sigil (CLI 1.2.0)"}},
		{Name: PostToolUse, Grouped: true, When: "runs after a tool completes; no output is honoured", Source: Source{Bundled, "hooks.md, quoted by sigil (CLI 1.2.0); Gobby answers it with {}"}},
		{Name: PreInvocation, When: "runs before every model call, not only the first", Source: Source{Probe, "1.1.22 by firstmate (before every model call); the IDE's bundled hooks.md"}},
		{Name: PostInvocation, When: "runs after a model invocation", Source: Source{Bundled, "hooks.md, as the gemini.meetcoding.cn mirror of the hooks page words it"}},
		{Name: Stop, When: "runs when the execution loop ends", Source: Source{Changelog, "1.1.10 (Stop hooks run before the built-in termination checks); the IDE's bundled hooks.md"}},
		{Name: SessionStart, When: "runs at session start", Since: V(1, 1, 25), Source: Source{Probe, "1.1.25 and 1.1.26 by skillsaw; pstack uses it on 1.4.12 and 1.5.0; absent from older lists of five events (dotai)"}},
	}
}

// Events lists every hook event, in the order hooks.json documents them.
func Events() []Event { return slices.Clone(eventTable()) }

// eventTable is the table, built once (lookups run per hook); never
// modified.
var eventTable = sync.OnceValue(events)

// EventNamed finds an event by its hooks.json name (exact spelling).
func EventNamed(name string) (Event, bool) {
	for _, e := range eventTable() {
		if string(e.Name) == name {
			return e, true
		}
	}
	return Event{}, false
}

// EventForBlock finds an event by its block name in the input language.
func EventForBlock(block string) (Event, bool) {
	for _, e := range eventTable() {
		if e.Block() == block {
			return e, true
		}
	}
	return Event{}, false
}

// Grouped reports whether the named event takes matcher groups.
func (n EventName) Grouped() bool {
	e, ok := EventNamed(string(n))
	return ok && e.Grouped
}

// Block is the event's block in the input language: snake_case
// (pre_tool_use).
func (e Event) Block() string { return joinWords(words(string(e.Name)), "_") }

// Option is the event's Nix option name: lowerCamelCase (preToolUse).
func (e Event) Option() string {
	n := string(e.Name)
	return strings.ToLower(n[:1]) + n[1:]
}

// Kebab is the event's name in file names: kebab-case (pre-tool-use).
func (e Event) Kebab() string { return joinWords(words(string(e.Name)), "-") }

// StdinSchema and StdoutSchema name the embedded schemas of what agy
// writes on a hook's stdin for the event and of what it honours on the
// hook's stdout.
func (e Event) StdinSchema() string  { return "hook-stdin-" + e.Kebab() }
func (e Event) StdoutSchema() string { return "hook-stdout-" + e.Kebab() }

// words splits a PascalCase name into its lowercase words.
func words(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			out = append(out, strings.ToLower(s[start:i]))
			start = i
		}
	}
	return append(out, strings.ToLower(s[start:]))
}

func joinWords(ws []string, sep string) string { return strings.Join(ws, sep) }

// EventNames lists every event's name, in the order of Events.
func EventNames() []EventName {
	var out []EventName
	for _, e := range eventTable() {
		out = append(out, e.Name)
	}
	return out
}
