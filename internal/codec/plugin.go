package codec

import (
	"encoding/json"
	"sync"

	"github.com/agyconf/agyconf/internal/model"
)

// Plugin is plugin.json (skillsaw, agy 1.1.25; the CLI docs' schema): name and description, what the
// CLI docs' schema allows; any other member in extra (the decoder takes
// one only with allow_extra) — displayName and logo, which Antigravity
// 2.22 shows (danicat's walkthrough of 2.22), included.
var Plugin = sync.OnceValue(func() Entry[model.Plugin] {
	return Entry[model.Plugin]{
		Fields: []Field[model.Plugin]{
			{Key: "name", Arg: "the block's label", Drops: true,
				Get: func(p *model.Plugin) (any, bool) { return p.Name, true },
				Set: func(p *model.Plugin, v any) (err error) { p.Name, err = asString(v); return }},
			{Key: "description", Arg: "description", Drops: true,
				Get: func(p *model.Plugin) (any, bool) { return p.Description, p.Description != "" },
				Set: func(p *model.Plugin, v any) (err error) { p.Description, err = asString(v); return }},
		},
		Refused: []Refused{
			// Enablement lives in config.json since 1.1.11; a manifest's
			// "disabled" only seeds it once.
			{"disabled", "enabled (kept in ~/.gemini/config/config.json)"},
			{"permissions", "the top-level permissions block (plugins cannot declare permissions)"},
		},
		Extra: func(p *model.Plugin) *map[string]json.RawMessage { return &p.Extra },
	}
})
