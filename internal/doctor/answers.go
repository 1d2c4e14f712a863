package doctor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lazyre"
)

// MaxAnswer bounds what doctor keeps of one answer: an answer that is
// longer is not one it can read.
const MaxAnswer = 16 << 20

// UnreadableError is an answer doctor cannot read without guessing: the
// shape differs from every recorded one.
type UnreadableError struct {
	What string // "agy --version", "/hooks"
	Why  string
}

func (e *UnreadableError) Error() string { return fmt.Sprintf("%s: %s", e.What, e.Why) }

func unreadable(what, format string, args ...any) error {
	return &UnreadableError{What: what, Why: fmt.Sprintf(format, args...)}
}

// ModelTurnError is an answer to a slash command that came from a model
// turn, not from agy's local listing: a conversation, turns, or tokens.
type ModelTurnError struct {
	Slash string
	Turns string // as agy wrote num_turns, or ""
	Why   string
}

func (e *ModelTurnError) Error() string {
	return fmt.Sprintf("agy answered %s with a model turn (%s), not its local listing", e.Slash, e.Why)
}

// StatusError is an answer whose envelope says the command failed.
type StatusError struct {
	Slash, Status, Message string
}

func (e *StatusError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("agy answered %s with status %s", e.Slash, e.Status)
	}
	return fmt.Sprintf("agy answered %s with status %s: %s", e.Slash, e.Status, e.Message)
}

// ParseVersion reads what `agy --version` printed: the first line that is
// not blank must hold exactly one MAJOR.MINOR.PATCH (a leading "v", a
// "-pre" or "+build" suffix and surrounding punctuation allowed).
func ParseVersion(out []byte) (agy.Version, error) {
	const what = "agy --version"
	if !utf8.Valid(out) {
		return agy.Version{}, unreadable(what, "the answer is not UTF-8 text")
	}
	line := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.TrimSpace(l) != "" {
			line = strings.TrimSpace(l)
			break
		}
	}
	if line == "" {
		return agy.Version{}, unreadable(what, "the answer is empty")
	}
	var found []agy.Version
	for _, f := range strings.Fields(line) {
		f = strings.Trim(f, "(),;:[]")
		f = strings.TrimPrefix(f, "v")
		if i := strings.IndexAny(f, "-+"); i > 0 {
			f = f[:i]
		}
		// 0.0.0 is no build of agy, and is the version agyconf calls
		// unknown: a word such as a date or a build id, not the version.
		if v, ok := agy.ParseVersion(f); ok && v.Known() {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		return agy.Version{}, unreadable(what, "expected one version such as 1.3.3 in %q", clip(line))
	}
	return found[0], nil
}

// envelope is the --output-format json answer of a print-mode run: a
// slash command agy answers itself has num_turns 0, no conversation, no
// tokens, and a command object; a model turn has a conversation, turns
// and usage, and no command (recorded shapes in testdata/answers).
type envelope struct {
	ConversationID *string                `json:"conversation_id"`
	Status         *string                `json:"status"`
	Error          any                    `json:"error"`
	NumTurns       *json.Number           `json:"num_turns"`
	Usage          map[string]json.Number `json:"usage"`
	Response       *string                `json:"response"`
	Command        *struct {
		Name *string         `json:"name"`
		Data json.RawMessage `json:"data"`
	} `json:"command"`
}

// decodeOne decodes data as exactly one JSON value into v.
func decodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

// commandData checks a print-mode answer to slash (/hooks) and returns
// the data of its command object. A model turn is a ModelTurnError, a
// failed status a StatusError, anything else unlike the recorded shapes
// an UnreadableError.
func commandData(out []byte, slash string) (json.RawMessage, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, unreadable(slash, "the answer is empty")
	}
	var env envelope
	if err := decodeOne(out, &env); err != nil {
		return nil, unreadable(slash, "not one JSON object (%v): %s", err, clip(string(out)))
	}
	turn := func(why string) error {
		e := &ModelTurnError{Slash: slash, Why: why}
		if env.NumTurns != nil {
			e.Turns = env.NumTurns.String()
		}
		return e
	}
	if env.NumTurns != nil && env.NumTurns.String() != "0" {
		return nil, turn("num_turns " + env.NumTurns.String())
	}
	if env.ConversationID != nil && *env.ConversationID != "" {
		return nil, turn("a conversation was started")
	}
	for k, n := range env.Usage {
		if n.String() != "0" {
			return nil, turn(fmt.Sprintf("usage %s %s", k, n))
		}
	}
	if env.Status != nil && *env.Status != "SUCCESS" {
		msg := ""
		if env.Error != nil {
			msg = clip(fmt.Sprint(env.Error))
		}
		return nil, &StatusError{Slash: slash, Status: clip(*env.Status), Message: msg}
	}
	if env.Command == nil {
		if env.Response != nil {
			// The shape of a model's reply: a response and no command.
			return nil, turn("a response without a command object")
		}
		return nil, unreadable(slash, "no command object in the answer")
	}
	want := strings.TrimPrefix(slash, "/")
	if env.Command.Name == nil || *env.Command.Name != want {
		got := "none"
		if env.Command.Name != nil {
			got = fmt.Sprintf("%q", clip(*env.Command.Name))
		}
		return nil, unreadable(slash, "the command object names %s, not %q", got, want)
	}
	if len(env.Command.Data) == 0 || string(env.Command.Data) == "null" {
		return nil, unreadable(slash, "the command object has no data")
	}
	return env.Command.Data, nil
}

// HookEntry is one named hook agy lists in its answer to /hooks.
type HookEntry struct {
	Name    string
	Enabled bool
	// Source is the hooks.json it came from, as agy wrote it.
	Source string
	// Events are those of its handlers (actions); HasActions says
	// whether the answer listed handlers at all (builds differ).
	Events     []string
	HasActions bool
}

// ParseHooks reads agy's answer to `agy -p /hooks --output-format json`.
func ParseHooks(out []byte) ([]HookEntry, error) {
	const slash = "/hooks"
	data, err := commandData(out, slash)
	if err != nil {
		return nil, err
	}
	var d struct {
		Hooks *[]map[string]json.RawMessage `json:"hooks"`
	}
	if err := decodeOne(data, &d); err != nil || d.Hooks == nil {
		return nil, unreadable(slash, "data has no list of hooks: %s", clip(string(data)))
	}
	var hooks []HookEntry
	for i, h := range *d.Hooks {
		var e HookEntry
		if err := field(h, "name", &e.Name, true); err != nil {
			return nil, unreadable(slash, "hook %d: %v", i, err)
		}
		if err := field(h, "enabled", &e.Enabled, true); err != nil {
			return nil, unreadable(slash, "hook %q: %v", clip(e.Name), err)
		}
		if err := field(h, "source", &e.Source, true); err != nil {
			return nil, unreadable(slash, "hook %q: %v", clip(e.Name), err)
		}
		if raw, ok := h["actions"]; ok && string(raw) != "null" {
			var actions []map[string]json.RawMessage
			if err := decodeOne(raw, &actions); err != nil {
				return nil, unreadable(slash, "hook %q: actions is not a list of objects", clip(e.Name))
			}
			e.HasActions = true
			for j, a := range actions {
				var ev string
				if err := field(a, "event", &ev, true); err != nil {
					return nil, unreadable(slash, "hook %q, action %d: %v", clip(e.Name), j, err)
				}
				e.Events = append(e.Events, ev)
			}
		}
		hooks = append(hooks, e)
	}
	return hooks, nil
}

// field decodes the member name of an object into v (a *string or
// *bool), which must be there when required.
func field(obj map[string]json.RawMessage, name string, v any, required bool) error {
	raw, ok := obj[name]
	if !ok {
		if required {
			return fmt.Errorf("no %q", name)
		}
		return nil
	}
	if err := decodeOne(raw, v); err != nil {
		return fmt.Errorf("%q is %s", name, kindOf(raw))
	}
	return nil
}

func kindOf(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "":
		return "empty"
	case s[0] == '"':
		return "a string"
	case s[0] == '{':
		return "an object"
	case s[0] == '[':
		return "a list"
	case s == "true" || s == "false":
		return "a boolean"
	case s == "null":
		return "null"
	}
	return "a number"
}

// SkillEntry is one skill agy lists in its answer to /skills.
type SkillEntry struct {
	Name    string
	Path    string
	Builtin bool
}

// ParseSkills reads agy's answer to `agy -p /skills --output-format json`.
func ParseSkills(out []byte) ([]SkillEntry, error) {
	const slash = "/skills"
	data, err := commandData(out, slash)
	if err != nil {
		return nil, err
	}
	var d struct {
		Skills *[]map[string]json.RawMessage `json:"skills"`
	}
	if err := decodeOne(data, &d); err != nil || d.Skills == nil {
		return nil, unreadable(slash, "data has no list of skills: %s", clip(string(data)))
	}
	var skills []SkillEntry
	for i, s := range *d.Skills {
		var e SkillEntry
		if err := field(s, "name", &e.Name, true); err != nil {
			return nil, unreadable(slash, "skill %d: %v", i, err)
		}
		if err := field(s, "path", &e.Path, true); err != nil {
			return nil, unreadable(slash, "skill %q: %v", clip(e.Name), err)
		}
		if err := field(s, "builtin", &e.Builtin, false); err != nil {
			return nil, unreadable(slash, "skill %q: %v", clip(e.Name), err)
		}
		skills = append(skills, e)
	}
	return skills, nil
}

// PermissionScope is one scope of agy's answer to /permissions: the rules
// of one of the files the CLI merges.
type PermissionScope struct {
	Scope            string
	Allow, Ask, Deny []string
}

// Lists returns the scope's list named allow, ask or deny.
func (p PermissionScope) List(name string) []string {
	switch name {
	case "allow":
		return p.Allow
	case "ask":
		return p.Ask
	case "deny":
		return p.Deny
	}
	return nil
}

// ParsePermissions reads agy's answer to `agy -p /permissions
// --output-format json`.
func ParsePermissions(out []byte) ([]PermissionScope, error) {
	const slash = "/permissions"
	data, err := commandData(out, slash)
	if err != nil {
		return nil, err
	}
	var d struct {
		Permissions *[]map[string]json.RawMessage `json:"permissions"`
	}
	if err := decodeOne(data, &d); err != nil || d.Permissions == nil {
		return nil, unreadable(slash, "data has no list of scopes: %s", clip(string(data)))
	}
	var scopes []PermissionScope
	for i, s := range *d.Permissions {
		var p PermissionScope
		if err := field(s, "scope", &p.Scope, true); err != nil {
			return nil, unreadable(slash, "scope %d: %v", i, err)
		}
		for _, l := range []struct {
			name string
			to   *[]string
		}{{"allow", &p.Allow}, {"ask", &p.Ask}, {"deny", &p.Deny}} {
			raw, ok := s[l.name]
			if !ok || string(raw) == "null" {
				continue
			}
			if err := decodeOne(raw, l.to); err != nil {
				return nil, unreadable(slash, "scope %q: %q is %s, not a list of rules", clip(p.Scope), l.name, kindOf(raw))
			}
		}
		scopes = append(scopes, p)
	}
	return scopes, nil
}

// ListedServer is one row of `agy mcp list`.
type ListedServer struct {
	Name, Type, Status string
	// Target is the COMMAND/URL column. Doctor never prints it: a URL or
	// an argument may hold a credential.
	Target string
}

// knownStatus reports whether s is a STATUS value recorded.
func knownStatus(s string) bool { return s == "enabled" || s == "disabled" }

// ansi matches terminal escape sequences (CSI), which a table printer may
// add even to a pipe.
var ansi = lazyre.New("\x1b\\[[0-9;?]*[ -/]*[@-~]")

// noServers is agy's whole answer when the user-level file has no server
// (recorded on 1.1.26).
const noServers = "No MCP servers configured."

// ParseMCPList reads what `agy mcp list` printed: a header NAME TYPE
// STATUS COMMAND/URL and a row per server, aligned in columns, or
// noServers alone. Rows are cut at the header's columns; a row that does
// not fit them is read by its whitespace when that is unambiguous (its
// third field a status), and is otherwise unreadable.
func ParseMCPList(out []byte) ([]ListedServer, error) {
	const what = "agy mcp list"
	if !utf8.Valid(out) {
		return nil, unreadable(what, "the answer is not UTF-8 text")
	}
	text := strings.ReplaceAll(ansi().ReplaceAllString(string(out), ""), "\r", "")
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, strings.TrimRightFunc(l, unicode.IsSpace))
		}
	}
	if len(lines) == 0 {
		return nil, unreadable(what, "the answer is empty")
	}
	if len(lines) == 1 && strings.EqualFold(strings.TrimSpace(lines[0]), noServers) {
		return []ListedServer{}, nil
	}
	header := []rune(lines[0])
	if strings.Join(strings.Fields(lines[0]), " ") != "NAME TYPE STATUS COMMAND/URL" {
		return nil, unreadable(what, "the first line is not the header NAME TYPE STATUS COMMAND/URL: %q", clip(lines[0]))
	}
	cols := []int{runeIndex(header, "TYPE"), runeIndex(header, "STATUS"), runeIndex(header, "COMMAND/URL")}
	var servers []ListedServer
	for _, l := range lines[1:] {
		s, ok := cutRow([]rune(l), cols)
		if !ok {
			s, ok = splitRow(l)
		}
		if !ok {
			return nil, unreadable(what, "a row that is not NAME TYPE STATUS COMMAND/URL with STATUS enabled or disabled: %q", clip(l))
		}
		servers = append(servers, s)
	}
	return servers, nil
}

// runeIndex is the rune offset of word in the header line.
func runeIndex(line []rune, word string) int {
	i := strings.Index(string(line), word)
	return utf8.RuneCountInString(string(line)[:i])
}

// cutRow cuts a row at the header's columns: each column must start after
// a space (or at the row's end for an empty COMMAND/URL).
func cutRow(r []rune, cols []int) (ListedServer, bool) {
	for i, c := range cols {
		last := i == len(cols)-1
		if c == 0 || (c >= len(r) && !last) || (c < len(r) && !unicode.IsSpace(r[c-1])) {
			return ListedServer{}, false
		}
	}
	cell := func(from, to int) string {
		if from >= len(r) {
			return ""
		}
		return strings.TrimSpace(string(r[from:min(to, len(r))]))
	}
	s := ListedServer{Name: cell(0, cols[0]), Type: cell(cols[0], cols[1]), Status: cell(cols[1], cols[2]), Target: cell(cols[2], len(r))}
	if s.Name == "" || s.Type == "" || strings.ContainsFunc(s.Type, unicode.IsSpace) || !knownStatus(s.Status) {
		return ListedServer{}, false
	}
	return s, true
}

// splitRow reads a row by its whitespace: NAME TYPE STATUS and the rest.
func splitRow(l string) (ListedServer, bool) {
	f := strings.Fields(l)
	if len(f) < 3 || !knownStatus(f[2]) {
		return ListedServer{}, false
	}
	s := ListedServer{Name: f[0], Type: f[1], Status: f[2]}
	if len(f) > 3 {
		s.Target = strings.Join(f[3:], " ")
	}
	return s, true
}

// clip shortens text quoted in a message.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	const n = 200
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
