package importer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/model"
)

// hooks imports the named hooks of one hooks.json.
func (im *importer) hooks(file string, doc any) []*model.Hook {
	root, ok := doc.(map[string]any)
	if !ok {
		im.skip(file, "", "the top level is not an object of named hooks; agy drops the file")
		return nil
	}
	var out []*model.Hook
	for _, name := range sortedKeys(root) {
		if h := im.hook(file, name, root[name]); h != nil {
			out = append(out, h)
		}
	}
	return out
}

func eventNamed(k string) (model.Event, bool) {
	for _, ev := range agy.EventNames() {
		if strings.EqualFold(string(ev), k) {
			return ev, true
		}
	}
	return "", false
}

func (im *importer) hook(file, name string, v any) *model.Hook {
	if name == "enabled" {
		im.skip(file, name, "enabled at the top level is a load error that drops the whole file (it belongs inside a named hook)")
		return nil
	}
	if name == "hooks" {
		im.skip(file, name, "a hooks wrapper at the top level does not load: every top-level key is a hook name")
		return nil
	}
	if _, isEvent := eventNamed(name); isEvent {
		im.skip(file, name, "a bare event at the top level does not load: every top-level key is a hook name; wrap it in a named hook")
		return nil
	}
	if p := entryNameProblem(name); p != "" {
		im.skip(file, name, "the hook name cannot be declared: %s", p)
		return nil
	}
	raw, ok := v.(map[string]any)
	if !ok {
		im.skip(file, name, "a named hook is an object of events; agy drops the whole file for this")
		return nil
	}
	h := &model.Hook{Name: name, Enabled: true}
	if _, has := raw["enabled"]; !has {
		// agy runs a named hook without the key; agyconf always writes
		// it, so the entry render writes is not the one on disk.
		// Reported once the harnesses are recognised: a hook a harness
		// block takes over is not rendered as imported.
		im.noEnabled = append(im.noEnabled, noEnabled{h, Item{Kind: KindConverted, Path: file, Unit: name,
			Reason: "has no \"enabled\"; render writes \"enabled\": true, so the first render over it asks for --adopt (a backup is kept)"}})
	}
	// Events by agy's spelling (it matches them case-insensitively); a key
	// that is no event is one agy never fires.
	m := map[string]any{}
	for _, k := range sortedKeys(raw) {
		if k == "enabled" {
			m[k] = raw[k]
			continue
		}
		ev, ok := eventNamed(k)
		if !ok {
			im.skip(file, name+"."+k, "not an event agy fires (%s); it loads and never runs", eventList())
			continue
		}
		if k != string(ev) {
			im.conv(file, name+"."+k, "written as %s (agy matches event names case-insensitively)", ev)
		}
		m[string(ev)] = im.handlerDefaults(file, name+"."+k, ev, raw[k])
	}
	for _, p := range codec.Hook().Decode(m, h) {
		switch {
		case p.Key == "enabled":
			im.skip(file, name, "enabled %s, a load error that drops the whole file", p.Reason)
			return nil
		case p.Drops:
			im.skip(file, name+"."+p.Key, "%s; agy drops the whole file for this", p.Reason)
		default:
			im.skip(file, name+"."+p.Key, "%s", p.Reason)
		}
	}
	for ev, groups := range h.Groups {
		var kept []*model.MatcherGroup
		for i, g := range groups {
			unit := fmt.Sprintf("%s.%s[%d]", name, ev, i)
			if p := matcherProblem(g.Matcher); g.Matcher != "" && g.Matcher != "*" && p != "" {
				im.skip(file, unit, "%s", p)
				continue
			}
			g.Handlers = im.checkHandlers(file, unit+".hooks", g.Handlers)
			if len(g.Handlers) == 0 {
				im.skip(file, unit, "no handler that can be imported")
				continue
			}
			kept = append(kept, g)
		}
		h.Groups[ev] = kept
		if len(kept) == 0 {
			delete(h.Groups, ev)
		}
	}
	for ev, hs := range h.Handlers {
		if h.Handlers[ev] = im.checkHandlers(file, fmt.Sprintf("%s.%s", name, ev), hs); len(h.Handlers[ev]) == 0 {
			delete(h.Handlers, ev)
		}
	}
	for _, e := range agy.Events() {
		if len(h.Groups[e.Name])+len(h.Handlers[e.Name]) > 0 && e.Since.Known() {
			im.needs(e.Since)
		}
	}
	if len(h.Groups) == 0 && len(h.Handlers) == 0 {
		im.skip(file, name, "no event with a handler that can be imported; a hook block needs one")
		return nil
	}
	return h
}

// handlerDefaults reports what render writes of the handlers of one event
// that the live file leaves to agy's default — a timeout, a group's
// matcher — and returns the event's list without a matcher group where
// handlers belong, which it reports.
func (im *importer) handlerDefaults(file, unit string, ev model.Event, v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	var out []any
	for i, x := range list {
		u := fmt.Sprintf("%s[%d]", unit, i)
		m, _ := x.(map[string]any)
		if m == nil {
			out = append(out, x)
			continue
		}
		if !ev.Grouped() {
			if _, grouped := m["hooks"]; grouped {
				im.skip(file, u, "a matcher group on %s, which takes handlers directly; agy rejects the whole file for this", ev)
				continue
			}
			timeoutDefault(im, file, u, m)
			out = append(out, x)
			continue
		}
		out = append(out, x)
		if _, has := m["matcher"]; !has {
			im.conv(file, u+".matcher", "missing; written as \"\", the catch-all")
		}
		hs, _ := m["hooks"].([]any)
		for j, hx := range hs {
			if hm, ok := hx.(map[string]any); ok {
				timeoutDefault(im, file, fmt.Sprintf("%s.hooks[%d]", u, j), hm)
			}
		}
	}
	return out
}

func timeoutDefault(im *importer, file, unit string, m map[string]any) {
	if _, has := m["timeout"]; !has {
		im.conv(file, unit+".timeout", "missing; written as %d (the sources disagree on agy's default, 30 or 60 s)", model.DefaultTimeout)
	}
}

// checkHandlers keeps the handlers a hook block can declare: a command
// handler with a command and no prompt, a prompt handler with a prompt and
// no command, no command line holding what looks like a credential, and
// no extra member holding one.
func (im *importer) checkHandlers(file, unit string, hs []*model.Handler) []*model.Handler {
	var out []*model.Handler
	for i, h := range hs {
		u := fmt.Sprintf("%s[%d]", unit, i)
		switch h.Type {
		case model.HandlerPrompt:
			im.needs(agy.BehaviourOf(agy.PromptHandlers).Since)
			if h.Prompt == "" {
				im.skip(file, u, "a prompt handler without a prompt")
				continue
			}
			if h.Command != "" {
				im.skip(file, u, "a prompt handler carrying command is refused by agy")
				continue
			}
		default:
			if strings.TrimSpace(h.Command) == "" {
				im.skip(file, u, "a command handler without a command (or with an empty one) runs nothing; agyconf refuses it")
				continue
			}
			if h.Prompt != "" || h.Model != "" {
				im.skip(file, u, "a command handler carrying prompt or model is refused by agy")
				continue
			}
			if commandSays(h.Command) {
				// The config would print it, and a hook's command has no
				// secret_file(): it stays in hooks.json, the user's.
				im.skip(file, u, "the command holds what looks like a credential, which import never prints; have the command read it from a file (or a script hold it), then import again")
				continue
			}
		}
		for _, k := range sortedKeys(h.Extra) {
			var v any
			_ = json.Unmarshal(h.Extra[k], &v)
			if _, ok := im.extraMember(file, u+"."+k, "", k, v, true); !ok {
				delete(h.Extra, k)
			}
		}
		if len(h.Extra) == 0 {
			h.Extra = nil
		}
		out = append(out, h)
	}
	return out
}

// noEnabled is a named hook imported without "enabled", and its report
// line.
type noEnabled struct {
	hook *model.Hook
	item Item
}

// reportNoEnabled reports the hooks without "enabled" that the config
// still holds as hooks (not taken over by a harness block).
func (im *importer) reportNoEnabled() {
	kept := map[*model.Hook]bool{}
	for _, h := range im.cfg.Hooks {
		kept[h] = true
	}
	for _, p := range im.cfg.Plugins {
		for _, h := range p.Hooks {
			kept[h] = true
		}
	}
	for _, n := range im.noEnabled {
		if kept[n.hook] {
			im.items = append(im.items, n.item)
		}
	}
}

func eventList() string {
	names := make([]string, len(agy.EventNames()))
	for i, ev := range agy.EventNames() {
		names[i] = string(ev)
	}
	return strings.Join(names, ", ")
}
