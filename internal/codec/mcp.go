package codec

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agyconf/agyconf/internal/model"
)

// MCPServer is an entry of mcp_config.json's mcpServers (MemPalace's reading of the docs; skillsaw, agy 1.1.25),
// without its name (the key it stands under). A string that may hold a
// secret is a model.Str: render's encoder writes its parts, and what is
// read is literal text until import judges it.
var MCPServer = sync.OnceValue(func() Entry[model.MCPServer] {
	return Entry[model.MCPServer]{
		Fields: []Field[model.MCPServer]{
			{Key: "command", Arg: "command", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return s.Command, s.Command != "" },
				Set: func(s *model.MCPServer, v any) (err error) { s.Command, err = asNonEmpty(v); return }},
			{Key: "args", Arg: "args", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return strList(s.Args), s.Args != nil },
				Set: func(s *model.MCPServer, v any) error {
					xs, err := asStrings(v)
					if err == nil {
						s.Args = make([]model.Str, len(xs))
						for i, x := range xs {
							s.Args[i] = Lit(x)
						}
					}
					return err
				}},
			{Key: "env", Arg: "env", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return strMap(s.Env), s.Env != nil },
				Set: func(s *model.MCPServer, v any) (err error) { s.Env, err = litMap(v); return }},
			{Key: "cwd", Arg: "cwd", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return s.Cwd, s.Cwd != "" },
				Set: func(s *model.MCPServer, v any) (err error) { s.Cwd, err = asNonEmpty(v); return }},
			{Key: "serverUrl", Arg: "server_url", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return s.ServerURL, s.ServerURL != "" },
				Set: func(s *model.MCPServer, v any) (err error) { s.ServerURL, err = asNonEmpty(v); return }},
			{Key: "headers", Arg: "headers", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return strMap(s.Headers), s.Headers != nil },
				Set: func(s *model.MCPServer, v any) (err error) { s.Headers, err = litMap(v); return }},
			{Key: "authProviderType", Arg: "auth_provider_type", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return s.AuthProviderType, s.AuthProviderType != "" },
				Set: func(s *model.MCPServer, v any) error {
					a, err := asString(v)
					if err == nil && a != "google_credentials" {
						err = fmt.Errorf("%q: agy accepts only \"google_credentials\" and drops the server", a)
					}
					s.AuthProviderType = a
					return err
				}},
			{Key: "oauth", Arg: "an oauth block",
				Get: func(s *model.MCPServer) (any, bool) {
					if s.OAuth == nil {
						return nil, false
					}
					return OAuth().Encode(s.OAuth), true
				},
				Set: func(s *model.MCPServer, v any) error {
					m, ok := v.(map[string]any)
					if !ok {
						return fmt.Errorf("is not an object")
					}
					o := &model.OAuth{}
					ps := OAuth().Decode(m, o)
					s.OAuth = o
					if ps != nil {
						return Problems(ps)
					}
					return nil
				}},
			{Key: "disabled", Arg: "disabled",
				Get: func(s *model.MCPServer) (any, bool) { return true, s.Disabled },
				Set: func(s *model.MCPServer, v any) (err error) { s.Disabled, err = asBool(v); return }},
			{Key: "disabledTools", Arg: "disabled_tools", Drops: true,
				Get: func(s *model.MCPServer) (any, bool) { return strings2any(s.DisabledTools), s.DisabledTools != nil },
				Set: func(s *model.MCPServer, v any) (err error) { s.DisabledTools, err = asStrings(v); return }},
			{Key: "enabledTools", Arg: "enabled_tools",
				Get: func(s *model.MCPServer) (any, bool) { return strings2any(s.EnabledTools), s.EnabledTools != nil },
				Set: func(s *model.MCPServer, v any) (err error) { s.EnabledTools, err = asStrings(v); return }},
			{Key: "timeoutSeconds", Arg: "timeout_seconds",
				Get: func(s *model.MCPServer) (any, bool) {
					if s.TimeoutSeconds == nil {
						return nil, false
					}
					return *s.TimeoutSeconds, true
				},
				Set: func(s *model.MCPServer, v any) error {
					n, err := asInt(v, -1, 1<<31-1)
					if err == nil && n == 0 {
						err = fmt.Errorf("0 is not a number of seconds or -1")
					}
					if err != nil {
						return err
					}
					s.TimeoutSeconds = &n
					return nil
				}},
			{Key: "tools", Arg: "tool blocks",
				Get: func(s *model.MCPServer) (any, bool) {
					if s.Tools == nil {
						return nil, false
					}
					out := map[string]any{}
					for name, t := range s.Tools {
						out[name] = MCPTool().Encode(t)
					}
					return out, true
				},
				Set: func(s *model.MCPServer, v any) error {
					m, ok := v.(map[string]any)
					if !ok {
						return fmt.Errorf("is not an object of tools")
					}
					tools := map[string]*model.MCPTool{}
					var bad Problems
					for _, name := range sortedKeys(m) {
						tm, ok := m[name].(map[string]any)
						if !ok {
							why := "is not an object of the tool's settings"
							if _, isBool := m[name].(bool); isBool && name == "eager" {
								why = "the server-wide reading of tools.eager; agyconf writes the per-tool one, tools.<tool>.eager (the only reading under which writing it cannot cost the server)"
							}
							bad = append(bad, Problem{Key: name, Reason: why})
							continue
						}
						t := &model.MCPTool{}
						if ps := MCPTool().Decode(tm, t); len(ps) > 0 {
							bad = append(bad, Problems(ps).at(name)...)
						}
						tools[name] = t
					}
					s.Tools = tools
					if bad != nil {
						return bad
					}
					return nil
				}},
		},
		// What agy reads under another name, or does not read.
		Refused: []Refused{{"url", "server_url"}, {"httpUrl", "server_url"}, {"enabled", "disabled"}},
		Extra:   func(s *model.MCPServer) *map[string]json.RawMessage { return &s.Extra },
	}
})

// OAuth is a remote server's oauth object: the client agy uses, and the
// enabled agy itself records after an /mcp sign-in (seen in AdamMinton/cymbal_gadgets' .agents/mcp_config.json, a setup that loads).
var OAuth = sync.OnceValue(func() Entry[model.OAuth] {
	return Entry[model.OAuth]{
		Fields: []Field[model.OAuth]{
			{Key: "clientId", Arg: "client_id",
				Get: func(o *model.OAuth) (any, bool) { return o.ClientID, o.ClientID != nil },
				Set: func(o *model.OAuth, v any) error {
					s, err := asString(v)
					if err == nil {
						o.ClientID = Lit(s)
					}
					return err
				}},
			{Key: "clientSecret", Arg: "client_secret",
				Get: func(o *model.OAuth) (any, bool) { return o.ClientSecret, o.ClientSecret != nil },
				Set: func(o *model.OAuth, v any) error {
					s, err := asString(v)
					if err == nil {
						o.ClientSecret = Lit(s)
					}
					return err
				}},
			{Key: "enabled", Arg: "enabled",
				Get: func(o *model.OAuth) (any, bool) {
					if o.Enabled == nil {
						return nil, false
					}
					return *o.Enabled, true
				},
				Set: func(o *model.OAuth, v any) error {
					b, err := asBool(v)
					if err == nil {
						o.Enabled = &b
					}
					return err
				}},
		},
	}
})

// MCPTool is one tool's settings under a server's tools (agy 1.1.16).
var MCPTool = sync.OnceValue(func() Entry[model.MCPTool] {
	return Entry[model.MCPTool]{
		Fields: []Field[model.MCPTool]{
			{Key: "eager", Arg: "eager",
				Get: func(t *model.MCPTool) (any, bool) {
					if t.Eager == nil {
						return nil, false
					}
					return *t.Eager, true
				},
				Set: func(t *model.MCPTool, v any) error {
					b, err := asBool(v)
					if err == nil {
						t.Eager = &b
					}
					return err
				}},
		},
	}
})

// Lit is literal text as a model.Str.
func Lit(s string) model.Str { return model.Str{{Text: s}} }

func strList(xs []model.Str) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func strMap(m map[string]model.Str) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func litMap(v any) (map[string]model.Str, error) {
	m, err := asStringMap(v)
	if err != nil {
		return nil, err
	}
	out := make(map[string]model.Str, len(m))
	for k, s := range m {
		out[k] = Lit(s)
	}
	return out, nil
}
