package codec

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// Member is one key of a frontmatter or object, with its value as render
// writes it.
type Member struct {
	Key   string
	Value any
}

// Members returns x's members in the order render writes frontmatter:
// the rows' in table order, then extra's, sorted.
func (e Entry[T]) Members(x *T) []Member {
	var out []Member
	set := map[string]bool{}
	for _, f := range e.Fields {
		if v, ok := f.Get(x); ok {
			out = append(out, Member{f.Key, v})
			set[f.Key] = true
		}
	}
	if e.Extra != nil {
		extra := *e.Extra(x)
		for _, k := range sortedKeys(extra) {
			if !set[k] {
				out = append(out, Member{k, extra[k]})
			}
		}
	}
	return out
}

// Rule is a rule's frontmatter (rulesync): trigger (none for a rule
// written without one), globs as one comma-separated string, description.
var Rule = sync.OnceValue(func() Entry[model.Rule] {
	return Entry[model.Rule]{
		Fields: []Field[model.Rule]{
			{Key: "trigger", Arg: "trigger",
				Get: func(r *model.Rule) (any, bool) { return r.Trigger, r.Trigger != "" },
				Set: func(r *model.Rule, v any) error {
					t, err := asString(v)
					if err != nil {
						return err
					}
					switch t {
					case model.TriggerAlwaysOn, model.TriggerGlob, model.TriggerModelDecision, model.TriggerManual:
						r.Trigger = t
						return nil
					}
					return fmt.Errorf("%q is not one of always_on, glob, model_decision, manual", t)
				}},
			{Key: "globs", Arg: "globs",
				Get: func(r *model.Rule) (any, bool) { return strings.Join(r.Globs, ","), r.Globs != nil },
				Set: func(r *model.Rule, v any) error {
					s, err := asString(v)
					if err != nil {
						return fmt.Errorf("is not one comma-separated string")
					}
					r.Globs = []string{}
					for _, g := range strings.Split(s, ",") {
						if g = strings.TrimSpace(g); g != "" {
							r.Globs = append(r.Globs, g)
						}
					}
					return nil
				}},
			{Key: "description", Arg: "description",
				Get: func(r *model.Rule) (any, bool) { return r.Description, r.Description != "" },
				Set: func(r *model.Rule, v any) (err error) { r.Description, err = asNonEmpty(v); return }},
		},
		Extra: func(r *model.Rule) *map[string]json.RawMessage { return &r.Extra },
	}
})

// Workflow is a workflow's frontmatter (rulesync): description.
var Workflow = sync.OnceValue(func() Entry[model.Workflow] {
	return Entry[model.Workflow]{
		Fields: []Field[model.Workflow]{
			{Key: "description", Arg: "description",
				Get: func(w *model.Workflow) (any, bool) { return w.Description, w.Description != "" },
				Set: func(w *model.Workflow, v any) (err error) { w.Description, err = asNonEmpty(v); return }},
		},
		Extra: func(w *model.Workflow) *map[string]json.RawMessage { return &w.Extra },
	}
})

// Agent is a subagent's frontmatter: every key of agy's table
// (agy.AgentFields), in its order.
var Agent = sync.OnceValue(func() Entry[model.Agent] {
	var fields []Field[model.Agent]
	for _, f := range agy.AgentFields() {
		key, arg := f.Key, f.Arg
		if arg == "" {
			arg = "the block's label"
		}
		// name and description are always written, as the model holds
		// them: read back as written, empty or not.
		always := key == "name" || key == "description"
		fields = append(fields, Field[model.Agent]{Key: key, Arg: arg,
			Get: func(a *model.Agent) (any, bool) { return get(a.Value(key), always) },
			Set: func(a *model.Agent, v any) error {
				if always {
					s, err := asString(v)
					*a.Value(key).(*string) = s
					return err
				}
				return set(a.Value(key), v)
			}})
	}
	return Entry[model.Agent]{Fields: fields, Extra: func(a *model.Agent) *map[string]json.RawMessage { return &a.Extra }}
})

// Skill is a SKILL.md's frontmatter a skill block writes (MemPalace's reading of the docs):
// name, description, and the keys of agy.SkillFields, nested ones
// (metadata.icon) under their parent. A metadata with more than an icon
// is not a skill block's: copied with the folder (source).
var Skill = sync.OnceValue(func() Entry[model.Skill] {
	fields := []Field[model.Skill]{
		{Key: "name", Arg: "the block's label",
			Get: func(s *model.Skill) (any, bool) { return s.Name, true },
			Set: func(s *model.Skill, v any) (err error) { s.Name, err = asString(v); return }},
		{Key: "description", Arg: "description",
			Get: func(s *model.Skill) (any, bool) { return s.Description, true },
			Set: func(s *model.Skill, v any) (err error) { s.Description, err = asString(v); return }},
	}
	parents := map[string][]agy.SkillField{}
	var order []string
	for _, f := range agy.SkillFields() {
		if len(parents[f.Path[0]]) == 0 {
			order = append(order, f.Path[0])
		}
		parents[f.Path[0]] = append(parents[f.Path[0]], f)
	}
	for _, top := range order {
		fs := parents[top]
		if len(fs) == 1 && len(fs[0].Path) == 1 {
			key := fs[0].Key()
			fields = append(fields, Field[model.Skill]{Key: top, Arg: fs[0].Arg,
				Get: func(s *model.Skill) (any, bool) { return get(s.Value(key), false) },
				Set: func(s *model.Skill, v any) error { return set(s.Value(key), v) }})
			continue
		}
		// A mapping of nested keys (metadata: {icon: …}).
		arg := fs[0].Arg
		fields = append(fields, Field[model.Skill]{Key: top, Arg: arg,
			Get: func(s *model.Skill) (any, bool) {
				var out []Member
				for _, f := range fs {
					if v, ok := get(s.Value(f.Key()), false); ok {
						out = append(out, Member{f.Path[1], v})
					}
				}
				return out, len(out) > 0
			},
			Set: func(s *model.Skill, v any) error {
				m, ok := v.(map[string]any)
				if !ok {
					return fmt.Errorf("is not a mapping")
				}
				for k, x := range m {
					found := false
					for _, f := range fs {
						if f.Path[1] == k {
							found = true
							if err := set(s.Value(f.Key()), x); err != nil {
								return fmt.Errorf("%s %v", k, err)
							}
						}
					}
					if !found {
						return fmt.Errorf("holds %s, which a skill block does not write", k)
					}
				}
				return nil
			}})
	}
	return Entry[model.Skill]{Fields: fields, Extra: func(s *model.Skill) *map[string]json.RawMessage { return &s.Extra }}
})

// get reads a model field by pointer (*string, *[]string, **bool): its
// value and whether it is set; a string is set when not empty, unless
// always.
func get(p any, always bool) (any, bool) {
	switch x := p.(type) {
	case *string:
		return *x, *x != "" || always
	case *[]string:
		return *x, *x != nil
	case **bool:
		if *x == nil {
			return nil, false
		}
		return **x, true
	}
	panic(fmt.Sprintf("codec: a field of type %T", p))
}

// set writes a value as read into a model field by pointer.
func set(p any, v any) error {
	switch x := p.(type) {
	case *string:
		s, err := asNonEmpty(v)
		if err != nil {
			return fmt.Errorf("is not a non-empty string")
		}
		*x = s
	case *[]string:
		xs, err := asStrings(v)
		if err != nil {
			return err
		}
		*x = xs
	case **bool:
		b, err := asBool(v)
		if err != nil {
			return err
		}
		*x = &b
	default:
		panic(fmt.Sprintf("codec: a field of type %T", p))
	}
	return nil
}
