package importer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
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
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(file, name, "a named hook is an object of events; agy drops the whole file for this")
		return nil
	}
	h := &model.Hook{Name: name, Enabled: true}
	if e, has := m["enabled"]; has {
		b, ok := e.(bool)
		if !ok {
			im.skip(file, name, "enabled is not a boolean, a load error that drops the whole file")
			return nil
		}
		h.Enabled = b
	} else {
		// agy runs a named hook without the key; agyconf always writes
		// it, so the entry render writes is not the one on disk.
		// Reported once the harnesses are recognised: a hook a harness
		// block takes over is not rendered as imported.
		im.noEnabled = append(im.noEnabled, noEnabled{h, Item{Kind: KindConverted, Path: file, Unit: name,
			Reason: "has no \"enabled\"; render writes \"enabled\": true, so the first render over it asks for --adopt (a backup is kept)"}})
	}
	for _, k := range sortedKeys(m) {
		if k == "enabled" {
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
		unit := name + "." + k
		list, ok := m[k].([]any)
		if !ok {
			im.skip(file, unit, "is not a list; agy drops the whole file for this")
			continue
		}
		if e, _ := agy.EventNamed(string(ev)); e.Since.Known() {
			im.needs(e.Since)
		}
		if ev.Grouped() {
			for i, g := range list {
				if mg := im.group(file, fmt.Sprintf("%s[%d]", unit, i), g); mg != nil {
					if h.Groups == nil {
						h.Groups = map[model.Event][]*model.MatcherGroup{}
					}
					h.Groups[ev] = append(h.Groups[ev], mg)
				}
			}
			continue
		}
		for i, x := range list {
			u := fmt.Sprintf("%s[%d]", unit, i)
			if xm, ok := x.(map[string]any); ok {
				if _, grouped := xm["hooks"]; grouped {
					im.skip(file, u, "a matcher group on %s, which takes handlers directly; agy rejects the whole file for this", ev)
					continue
				}
			}
			if hd := im.handler(file, u, x, false); hd != nil {
				if h.Handlers == nil {
					h.Handlers = map[model.Event][]*model.Handler{}
				}
				h.Handlers[ev] = append(h.Handlers[ev], hd)
			}
		}
	}
	if len(h.Groups) == 0 && len(h.Handlers) == 0 {
		im.skip(file, name, "no event with a handler that can be imported; a hook block needs one")
		return nil
	}
	return h
}

func eventList() string {
	names := make([]string, len(agy.EventNames()))
	for i, ev := range agy.EventNames() {
		names[i] = string(ev)
	}
	return strings.Join(names, ", ")
}

func (im *importer) group(file, unit string, v any) *model.MatcherGroup {
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(file, unit, "a matcher group is an object {matcher, hooks}; agy drops the whole file for this")
		return nil
	}
	g := &model.MatcherGroup{}
	for _, k := range sortedKeys(m) {
		if k != "matcher" && k != "hooks" {
			im.skip(file, unit+"."+k, "unknown key in a matcher group; agy discards it")
		}
	}
	if mv, has := m["matcher"]; has {
		s, ok := mv.(string)
		if !ok {
			im.skip(file, unit, "matcher is not a string; agy drops the whole file for this")
			return nil
		}
		if p := matcherProblem(s); p != "" {
			im.skip(file, unit, "%s", p)
			return nil
		}
		g.Matcher = s
	} else {
		im.conv(file, unit+".matcher", "missing; written as \"\", the catch-all")
	}
	hs, ok := m["hooks"].([]any)
	if !ok {
		im.skip(file, unit, "hooks is missing or not a list; agy drops the whole file for this")
		return nil
	}
	for i, x := range hs {
		if hd := im.handler(file, fmt.Sprintf("%s.hooks[%d]", unit, i), x, true); hd != nil {
			g.Handlers = append(g.Handlers, hd)
		}
	}
	if len(g.Handlers) == 0 {
		im.skip(file, unit, "no handler that can be imported")
		return nil
	}
	return g
}

func (im *importer) handler(file, unit string, v any, grouped bool) *model.Handler {
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(file, unit, "a handler is an object; agy drops the whole file for this")
		return nil
	}
	h := &model.Handler{Type: model.HandlerCommand, Timeout: model.DefaultTimeout}
	if t, has := m["type"]; has {
		s, _ := t.(string)
		switch model.HandlerType(s) {
		case model.HandlerCommand:
		case model.HandlerPrompt:
			h.Type = model.HandlerPrompt
			im.needs(agy.BehaviourOf(agy.PromptHandlers).Since)
		default:
			im.skip(file, unit, "type %s: agy knows only \"command\" and \"prompt\" (case-sensitive) and drops the whole file", jsonText(t))
			return nil
		}
	}
	if t, has := m["timeout"]; has {
		n, ok := t.(json.Number)
		if !ok {
			im.skip(file, unit, "timeout %s is not a number; agy drops the whole file for this", jsonText(t))
			return nil
		}
		i, err := strconv.ParseInt(n.String(), 10, 32)
		if err != nil {
			im.skip(file, unit, "timeout %s is not a whole number of seconds; agy drops the whole file for this", n)
			return nil
		}
		if i < 1 {
			im.skip(file, unit, "timeout %d has no documented meaning in agy and agyconf refuses it", i)
			return nil
		}
		h.Timeout = int(i)
	} else {
		im.conv(file, unit+".timeout", "missing; written as %d (the sources disagree on agy's default, 30 or 60 s)", model.DefaultTimeout)
	}
	str := func(k string) (string, bool, bool) {
		x, has := m[k]
		if !has {
			return "", false, true
		}
		s, ok := x.(string)
		return s, true, ok
	}
	for _, k := range sortedKeys(m) {
		switch k {
		case "type", "timeout", "command", "prompt", "model":
		case "env", "cwd", "name", "background":
			im.skip(file, unit+"."+k, "agy discards %s on a handler silently; pass what the command needs in the command line", k)
		case "matcher":
			if !grouped {
				im.skip(file, unit+"."+k, "a matcher on a flat event; agy ignores it")
				continue
			}
			fallthrough
		default:
			im.skip(file, unit+"."+k, "unknown handler key; agy discards it")
		}
	}
	switch h.Type {
	case model.HandlerCommand:
		c, has, ok := str("command")
		if !has || !ok || strings.TrimSpace(c) == "" {
			im.skip(file, unit, "a command handler without a command (or with an empty one) runs nothing; agyconf refuses it")
			return nil
		}
		for _, k := range []string{"prompt", "model"} {
			if _, has := m[k]; has {
				im.skip(file, unit, "a command handler carrying %s is refused by agy", k)
				return nil
			}
		}
		if commandSays(c) {
			// The config would print it, and a hook's command has no
			// secret_file(): it stays in hooks.json, the user's.
			im.skip(file, unit, "the command holds what looks like a credential, which import never prints; have the command read it from a file (or a script hold it), then import again")
			return nil
		}
		h.Command = c
	case model.HandlerPrompt:
		p, has, ok := str("prompt")
		if !has || !ok || p == "" {
			im.skip(file, unit, "a prompt handler without a prompt")
			return nil
		}
		if _, has := m["command"]; has {
			im.skip(file, unit, "a prompt handler carrying command is refused by agy")
			return nil
		}
		h.Prompt = p
		if md, has, ok := str("model"); has {
			if !ok || md == "" {
				im.skip(file, unit, "model is not a non-empty string")
				return nil
			}
			h.Model = md
		}
	}
	return h
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
