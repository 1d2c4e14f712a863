package importer

import (
	"path"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
)

// recognise replaces the wiring of MemPalace and xmsg by harness blocks:
// exactly the entries `harness "mempalace"` and `harness "xmsg"` expand
// to, whatever wrote them (MemPalace's installer with its bash hooks,
// agyconf with agyhook, xmsg's docs, a hand edit of either).
func (im *importer) recognise() {
	im.recogniseMemPalacePlugin()
	im.recogniseMemPalaceLoose()
	im.recogniseXmsg()
}

// tool returns the bare command name for cmd and records its path in the
// tools block when cmd is a path ending in want; false when it is another
// program or its path clashes with one already recorded.
func (im *importer) tool(cmd, want string, tools map[string]string) bool {
	if cmd == want {
		return true
	}
	if path.Base(cmd) != want || !strings.HasPrefix(cmd, "/") {
		return false
	}
	if p, ok := tools[want]; ok && p != cmd {
		return false
	}
	if p, ok := im.tools[want]; ok && p != cmd {
		return false
	}
	tools[want] = cmd
	return true
}

func plainServer(s *model.MCPServer) bool {
	return s.ServerURL == "" && len(s.Env) == 0 && s.Cwd == "" && !s.Disabled && len(s.DisabledTools) == 0
}

// mempalaceHooks checks the hooks MemPalace installs and returns the
// harness options they say; false when a hook is anything else.
func (im *importer) mempalaceHooks(hooks []*model.Hook, tools map[string]string) (*model.MemPalaceOptions, bool) {
	o := &model.MemPalaceOptions{Mode: "plugin", SaveInterval: 15}
	for _, h := range hooks {
		var ev model.Event
		switch h.Name {
		case "mempalace-save":
			ev, o.Save = agy.Stop, true
		case "mempalace-wake":
			ev, o.Wake = agy.PreInvocation, true
		default:
			return nil, false
		}
		if !h.Enabled || len(h.Groups) > 0 || len(h.Handlers) != 1 || len(h.Handlers[ev]) != 1 {
			return nil, false
		}
		hd := h.Handlers[ev][0]
		if hd.Type != model.HandlerCommand {
			return nil, false
		}
		words := strings.Fields(hd.Command)
		script := map[string]string{"mempalace-save": "mempal_save_hook_antigravity.sh", "mempalace-wake": "mempal_wake_hook_antigravity.sh"}[h.Name]
		switch {
		case len(words) == 1 && path.Base(words[0]) == script:
			// MemPalace's own bash hook: its interval comes from
			// MEMPAL_SAVE_INTERVAL (default 15), which agy does not pass.
		case len(words) >= 2 && im.tool(words[0], "agyhook", tools) && words[1] == h.Name:
			rest := words[2:]
			for i := 0; i < len(rest); i++ {
				if i+1 >= len(rest) {
					return nil, false
				}
				v := rest[i+1]
				switch rest[i] {
				case "--interval":
					n, err := strconv.Atoi(v)
					if err != nil || n < 1 || h.Name != "mempalace-save" {
						return nil, false
					}
					o.SaveInterval = n
				case "--state-dir":
					if o.StateDir != "" && o.StateDir != v || !strings.HasPrefix(v, "/") {
						return nil, false
					}
					o.StateDir = v
				case "--mempalace":
					if !im.tool(v, "mempalace", tools) || v == "mempalace" {
						return nil, false
					}
				default:
					return nil, false
				}
				i++
			}
		default:
			return nil, false
		}
	}
	return o, o.Save || o.Wake
}

func (im *importer) recogniseMemPalacePlugin() {
	for i, p := range im.cfg.Plugins {
		if p.Name != "mempalace" || p.Folder != "" || p.Description != "" || len(p.Extra) > 0 || (p.Enabled != nil && !*p.Enabled) || len(p.Rules) > 0 || len(p.Agents) > 0 {
			continue
		}
		tools := map[string]string{}
		if len(p.MCPServers) != 1 || p.MCPServers[0].Name != "mempalace" || !plainServer(p.MCPServers[0]) || len(p.MCPServers[0].Args) > 0 || !im.tool(p.MCPServers[0].Command, "mempalace-mcp", tools) {
			continue
		}
		if len(p.Skills) > 1 || (len(p.Skills) == 1 && p.Skills[0].Name != "mempalace") {
			continue
		}
		o, ok := im.mempalaceHooks(p.Hooks, tools)
		if !ok || im.hasServer("mempalace") {
			continue
		}
		im.cfg.Plugins = append(im.cfg.Plugins[:i], im.cfg.Plugins[i+1:]...)
		im.adopt(tools)
		dir, _ := im.l.Path(agy.Plugins)
		im.add(KindHarness, join(dir, "mempalace"), "", "MemPalace's plugin: imported as harness \"mempalace\" (mode plugin); the diff below shows what switching changes")
		im.cfg.Harnesses = append(im.cfg.Harnesses, &model.Harness{Kind: "mempalace", MemPalace: o})
		return
	}
}

func (im *importer) hasServer(name string) bool {
	for _, s := range im.cfg.MCPServers {
		if s.Name == name {
			return true
		}
	}
	return false
}

func (im *importer) adopt(tools map[string]string) {
	for k, v := range tools {
		im.tools[k] = v
	}
}

func (im *importer) recogniseMemPalaceLoose() {
	tools := map[string]string{}
	var srv *model.MCPServer
	for _, s := range im.cfg.MCPServers {
		if s.Name == "mempalace" {
			srv = s
		}
	}
	if srv == nil || !plainServer(srv) || len(srv.Args) > 0 || !im.tool(srv.Command, "mempalace-mcp", tools) {
		return
	}
	for _, p := range im.cfg.Plugins {
		if p.Name == "mempalace" {
			return
		}
	}
	var hooks []*model.Hook
	for _, h := range im.cfg.Hooks {
		if h.Name == "mempalace-save" || h.Name == "mempalace-wake" {
			hooks = append(hooks, h)
		}
	}
	o, ok := im.mempalaceHooks(hooks, tools)
	if !ok {
		return
	}
	o.Mode = "loose"
	im.adopt(tools)
	im.cfg.MCPServers = without(im.cfg.MCPServers, func(s *model.MCPServer) bool { return s.Name == "mempalace" })
	im.cfg.Hooks = without(im.cfg.Hooks, func(h *model.Hook) bool { return h.Name == "mempalace-save" || h.Name == "mempalace-wake" })
	im.cfg.Skills = without(im.cfg.Skills, func(s *model.Skill) bool { return s.Name == "mempalace" })
	mcp, _ := im.l.Path(agy.MCPConfig)
	im.add(KindHarness, mcp, "mcpServers.mempalace", "MemPalace's server, hooks and skill: imported as harness \"mempalace\" (mode loose); the diff below shows what switching changes")
	im.cfg.Harnesses = append(im.cfg.Harnesses, &model.Harness{Kind: "mempalace", MemPalace: o})
}

func without[T any](xs []T, drop func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if !drop(x) {
			out = append(out, x)
		}
	}
	return out
}

func (im *importer) recogniseXmsg() {
	tools := map[string]string{}
	var srv *model.MCPServer
	var hook *model.Hook
	for _, s := range im.cfg.MCPServers {
		if s.Name == "xmsg" {
			srv = s
		}
	}
	for _, h := range im.cfg.Hooks {
		if h.Name == "xmsg-register" {
			hook = h
		}
	}
	if srv == nil || hook == nil || !plainServer(srv) || !im.tool(srv.Command, "xmsg", tools) {
		return
	}
	o := &model.XmsgOptions{}
	var args []string
	for _, a := range srv.Args {
		lit, ok := a.Literal()
		if !ok {
			return
		}
		args = append(args, lit)
	}
	switch strings.Join(args, " ") {
	case "mcp":
	case "mcp --reply-only":
		o.ReplyOnly = true
	default:
		return
	}
	exe := srv.Command
	one := func(hs []*model.Handler, event string) bool {
		if len(hs) != 1 || hs[0].Type != model.HandlerCommand {
			return false
		}
		words := strings.Fields(hs[0].Command)
		if len(words) < 3 || words[0] != exe || words[1] != "register" || words[2] != "agy" {
			return false
		}
		want := []string{"--hook"}
		if event != "" {
			want = append(want, "--event", event)
		}
		return strings.Join(words[3:], " ") == strings.Join(want, " ") || (event == "" && len(words) == 3)
	}
	if !hook.Enabled {
		return
	}
	switch {
	case len(hook.Groups) == 0 && len(hook.Handlers) == 1 && one(hook.Handlers[agy.PreInvocation], ""):
		o.LegacyHooks = true
	case len(hook.Handlers) == 2 && len(hook.Groups) == 1 &&
		one(hook.Handlers[agy.PreInvocation], "pre-invocation") && one(hook.Handlers[agy.Stop], "stop") &&
		len(hook.Groups[agy.PreToolUse]) == 1 && hook.Groups[agy.PreToolUse][0].Matcher == "call_mcp_tool|mcp_xmsg_.*" &&
		one(hook.Groups[agy.PreToolUse][0].Handlers, "pre-tool-use"):
	default:
		return
	}
	im.adopt(tools)
	im.cfg.MCPServers = without(im.cfg.MCPServers, func(s *model.MCPServer) bool { return s.Name == "xmsg" })
	im.cfg.Hooks = without(im.cfg.Hooks, func(h *model.Hook) bool { return h.Name == "xmsg-register" })
	im.cfg.Skills = without(im.cfg.Skills, func(s *model.Skill) bool { return s.Name == "xmsg" })
	mcp, _ := im.l.Path(agy.MCPConfig)
	form := "the --event hooks"
	if o.LegacyHooks {
		form = "the legacy hook, legacy_hooks = true"
	}
	im.add(KindHarness, mcp, "mcpServers.xmsg", "%s", "xmsg's server, xmsg-register hook and skill ("+form+"): imported as harness \"xmsg\"; the diff below shows what switching changes")
	im.cfg.Harnesses = append(im.cfg.Harnesses, &model.Harness{Kind: "xmsg", Xmsg: o})
}
