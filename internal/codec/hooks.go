package codec

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// Hook is a named hook of hooks.json (skillsaw, agy 1.1.25), without its name:
// enabled, and one member per event of agy's table — matcher groups for
// the grouped events, handlers for the others. A member that is no event
// is an event agy never fires: not kept.
var Hook = sync.OnceValue(func() Entry[model.Hook] {
	fields := []Field[model.Hook]{
		{Key: "enabled", Arg: "enabled", Drops: true,
			// agyconf always writes it; agy runs a hook without it.
			Get: func(h *model.Hook) (any, bool) { return h.Enabled, true },
			Set: func(h *model.Hook, v any) (err error) { h.Enabled, err = asBool(v); return }},
	}
	for _, e := range agy.Events() {
		ev := e.Name
		if e.Grouped {
			fields = append(fields, Field[model.Hook]{Key: string(ev), Arg: e.Block() + " blocks", Drops: true,
				Get: func(h *model.Hook) (any, bool) {
					gs := h.Groups[ev]
					out := make([]any, len(gs))
					for i, g := range gs {
						out[i] = Group().Encode(g)
					}
					return out, len(gs) > 0
				},
				Set: func(h *model.Hook, v any) error {
					list, ok := v.([]any)
					if !ok {
						return fmt.Errorf("is not a list")
					}
					var gs []*model.MatcherGroup
					var bad Problems
					for i, x := range list {
						at := fmt.Sprintf("[%d]", i)
						m, ok := x.(map[string]any)
						if !ok {
							bad = append(bad, Problem{Key: at, Reason: "is not a matcher group {matcher, hooks}", Drops: true})
							continue
						}
						g := &model.MatcherGroup{}
						if ps := Group().Decode(m, g); len(ps) > 0 {
							bad = append(bad, Problems(ps).at(at)...)
							if dropsAll(ps) || g.Handlers == nil {
								continue
							}
						}
						gs = append(gs, g)
					}
					if len(gs) > 0 {
						if h.Groups == nil {
							h.Groups = map[model.Event][]*model.MatcherGroup{}
						}
						h.Groups[ev] = gs
					}
					if bad != nil {
						return bad
					}
					return nil
				}})
			continue
		}
		fields = append(fields, Field[model.Hook]{Key: string(ev), Arg: e.Block() + " blocks", Drops: true,
			Get: func(h *model.Hook) (any, bool) {
				hs := h.Handlers[ev]
				return handlers(hs), len(hs) > 0
			},
			Set: func(h *model.Hook, v any) error {
				hs, err := decodeHandlers(v)
				if len(hs) > 0 {
					if h.Handlers == nil {
						h.Handlers = map[model.Event][]*model.Handler{}
					}
					h.Handlers[ev] = hs
				}
				return err
			}})
	}
	return Entry[model.Hook]{Fields: fields}
})

// Group is a grouped event's {matcher, hooks} (skillsaw, agy 1.1.25).
var Group = sync.OnceValue(func() Entry[model.MatcherGroup] {
	return Entry[model.MatcherGroup]{
		Fields: []Field[model.MatcherGroup]{
			{Key: "matcher", Arg: "matcher", Drops: true,
				// Always written: "" is the catch-all.
				Get: func(g *model.MatcherGroup) (any, bool) { return g.Matcher, true },
				Set: func(g *model.MatcherGroup, v any) (err error) { g.Matcher, err = asString(v); return }},
			{Key: "hooks", Arg: "handler blocks", Drops: true,
				Get: func(g *model.MatcherGroup) (any, bool) { return handlers(g.Handlers), true },
				Set: func(g *model.MatcherGroup, v any) (err error) { g.Handlers, err = decodeHandlers(v); return }},
		},
	}
})

// Handler is one hook handler (skillsaw, agy 1.1.25): agy discards a key it
// does not read, which extra keeps as it stands.
var Handler = sync.OnceValue(func() Entry[model.Handler] {
	return Entry[model.Handler]{
		Fields: []Field[model.Handler]{
			{Key: "type", Arg: "type", Drops: true,
				// Always written; command is the default.
				Get: func(h *model.Handler) (any, bool) { return string(h.Type), true },
				Set: func(h *model.Handler, v any) error {
					s, _ := v.(string)
					switch t := model.HandlerType(s); t {
					case model.HandlerCommand, model.HandlerPrompt:
						h.Type = t
						return nil
					}
					b, _ := json.Marshal(v)
					return fmt.Errorf("%s: agy knows only \"command\" and \"prompt\" (case-sensitive)", b)
				}},
			{Key: "command", Arg: "command", Drops: true,
				Get: func(h *model.Handler) (any, bool) { return h.Command, h.Type != model.HandlerPrompt },
				Set: func(h *model.Handler, v any) (err error) { h.Command, err = asString(v); return }},
			{Key: "prompt", Arg: "prompt", Drops: true,
				Get: func(h *model.Handler) (any, bool) { return h.Prompt, h.Type == model.HandlerPrompt },
				Set: func(h *model.Handler, v any) (err error) { h.Prompt, err = asString(v); return }},
			{Key: "model", Arg: "model", Drops: true,
				Get: func(h *model.Handler) (any, bool) { return h.Model, h.Type == model.HandlerPrompt && h.Model != "" },
				Set: func(h *model.Handler, v any) (err error) { h.Model, err = asNonEmpty(v); return }},
			{Key: "timeout", Arg: "timeout", Drops: true,
				// Always written: the sources disagree on agy's default.
				Get: func(h *model.Handler) (any, bool) { return h.Timeout, true },
				Set: func(h *model.Handler, v any) (err error) { h.Timeout, err = asInt(v, 1, 1<<31-1); return }},
		},
		Extra: func(h *model.Handler) *map[string]json.RawMessage { return &h.Extra },
	}
})

func handlers(hs []*model.Handler) []any {
	out := make([]any, len(hs))
	for i, h := range hs {
		out[i] = Handler().Encode(h)
	}
	return out
}

// decodeHandlers reads a list of handlers; a handler without type is a
// command handler, one without timeout gets model.DefaultTimeout, which
// render writes (the sources disagree on agy's own default). A handler
// that cannot be held is left out, its problems returned (Problems).
func decodeHandlers(v any) ([]*model.Handler, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("is not a list")
	}
	var out []*model.Handler
	var bad Problems
	for i, x := range list {
		at := fmt.Sprintf("[%d]", i)
		m, ok := x.(map[string]any)
		if !ok {
			bad = append(bad, Problem{Key: at, Reason: "is not a handler object", Drops: true})
			continue
		}
		h := &model.Handler{Type: model.HandlerCommand, Timeout: model.DefaultTimeout}
		if ps := Handler().Decode(m, h); len(ps) > 0 {
			bad = append(bad, Problems(ps).at(at)...)
			if dropsAll(ps) {
				continue
			}
		}
		out = append(out, h)
	}
	if bad != nil {
		return out, bad
	}
	return out, nil
}

// dropsAll reports whether any of ps costs its whole entry.
func dropsAll(ps []Problem) bool {
	for _, p := range ps {
		if p.Drops {
			return true
		}
	}
	return false
}
