package codec

import (
	"encoding/json"
	"sync"

	"github.com/agyconf/agyconf/internal/model"
)

// Permissions is a permissions object: the CLI's settings.json
// permissions, or the grants shared with Antigravity 2.0 in config.json
// (rulesync; sigil, CLI 1.2.0). An empty list is kept as written.
var Permissions = sync.OnceValue(func() Entry[model.Permissions] {
	list := func(key string, of func(p *model.Permissions) *[]string) Field[model.Permissions] {
		return Field[model.Permissions]{Key: key, Arg: key,
			Get: func(p *model.Permissions) (any, bool) { xs := *of(p); return strings2any(xs), xs != nil },
			Set: func(p *model.Permissions, v any) (err error) { *of(p), err = asStrings(v); return }}
	}
	return Entry[model.Permissions]{
		Fields: []Field[model.Permissions]{
			list("allow", func(p *model.Permissions) *[]string { return &p.Allow }),
			list("ask", func(p *model.Permissions) *[]string { return &p.Ask }),
			list("deny", func(p *model.Permissions) *[]string { return &p.Deny }),
		},
	}
})

// SettingsFile is what a config holds of the CLI's settings.json:
// permissions, and every other key as written (model.Config.Settings).
type SettingsFile struct {
	Permissions *model.Permissions
	Keys        map[string]json.RawMessage
}

// Settings is the CLI's settings.json (the CLI docs' reference.md). agy does not read
// hooks there (dotai): refused, the input language's hook blocks
// write hooks.json.
var Settings = sync.OnceValue(func() Entry[SettingsFile] {
	return Entry[SettingsFile]{
		Fields: []Field[SettingsFile]{
			{Key: "permissions", Arg: "the permissions block",
				Get: func(f *SettingsFile) (any, bool) {
					if f.Permissions == nil {
						return nil, false
					}
					return Permissions().Encode(f.Permissions), true
				},
				Set: func(f *SettingsFile, v any) error {
					m, ok := v.(map[string]any)
					if !ok {
						return errString("is not an object")
					}
					p := &model.Permissions{}
					ps := Permissions().Decode(m, p)
					f.Permissions = p
					if ps != nil {
						return Problems(ps)
					}
					return nil
				}},
		},
		Refused: []Refused{{"hooks", "hook blocks (agy reads hooks from hooks.json, not settings.json)"}},
		Extra:   func(f *SettingsFile) *map[string]json.RawMessage { return &f.Keys },
	}
})

type errString string

func (e errString) Error() string { return string(e) }
