package harness

import (
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/shellquote"
)

// The timeouts MemPalace ships (MemPalace pull request #1633, hooks.json.tmpl; its tests
// bound them to 10–60 s for Stop and 1–10 s for PreInvocation).
const (
	mempalaceSaveTimeout = 30
	mempalaceWakeTimeout = 5
)

// expandMemPalace wires MemPalace as its Antigravity integration does
// (MemPalace pull request #1633): the `mempalace` MCP server running mempalace-mcp, the
// mempalace skill, and the mempalace-save (Stop) and mempalace-wake
// (PreInvocation) hooks — run by agyhook instead of bash and Python. In
// plugin mode (the default, as MemPalace installs it) they form the
// plugin "mempalace"; in loose mode they are ordinary global entries.
func expandMemPalace(cfg *model.Config, h *model.Harness) hcl.Diagnostics {
	o := h.MemPalace
	server := &model.MCPServer{Name: "mempalace", Command: "mempalace-mcp", Range: h.Range}
	skill := &model.Skill{Name: "mempalace", Description: mempalaceSkillDescription, Body: mempalaceSkillBody(o), Range: h.Range}
	var hooks []*model.Hook
	if o.Save {
		args := []string{"mempalace-save", "--interval", strconv.Itoa(o.SaveInterval)}
		hooks = append(hooks, mempalaceHook(cfg, h, "mempalace-save", agy.Stop, mempalaceSaveTimeout, args))
	}
	if o.Wake {
		hooks = append(hooks, mempalaceHook(cfg, h, "mempalace-wake", agy.PreInvocation, mempalaceWakeTimeout, []string{"mempalace-wake"}))
	}

	var diags hcl.Diagnostics
	// agy merges a plugin's servers into the user's (MemPalace, quoting the docs), so a
	// hand-written "mempalace" server clashes in plugin mode too.
	for _, s := range cfg.MCPServers {
		if s.Name == server.Name {
			diags = append(diags, clash(h, "MCP server", s.Name, s.Range))
		}
	}
	if o.Mode == "plugin" {
		for _, p := range cfg.Plugins {
			if p.Name == "mempalace" {
				diags = append(diags, clash(h, "plugin", p.Name, p.Range))
			}
		}
		if diags.HasErrors() {
			return diags
		}
		cfg.Plugins = insertSorted(cfg.Plugins, &model.Plugin{
			Name:       "mempalace",
			MCPServers: []*model.MCPServer{server},
			Hooks:      hooks,
			Skills:     []*model.Skill{skill},
			Range:      h.Range,
		}, func(p *model.Plugin) string { return p.Name })
		return nil
	}

	for _, want := range hooks {
		for _, x := range cfg.Hooks {
			if x.Name == want.Name {
				diags = append(diags, clash(h, "hook", x.Name, x.Range))
			}
		}
	}
	for _, s := range cfg.Skills {
		if s.Name == skill.Name {
			diags = append(diags, clash(h, "skill", s.Name, s.Range))
		}
	}
	if diags.HasErrors() {
		return diags
	}
	cfg.MCPServers = insertSorted(cfg.MCPServers, server, func(s *model.MCPServer) string { return s.Name })
	for _, x := range hooks {
		cfg.Hooks = insertSorted(cfg.Hooks, x, func(x *model.Hook) string { return x.Name })
	}
	cfg.Skills = insertSorted(cfg.Skills, skill, func(s *model.Skill) string { return s.Name })
	return nil
}

// mempalaceHook builds one named hook running `agyhook <args…>`. Options
// travel as argv flags because agy discards a handler's env and cwd
// (skillsaw, agy 1.1.25); render turns the leading `agyhook` into the tools
// block's path.
func mempalaceHook(cfg *model.Config, h *model.Harness, name string, ev model.Event, timeout int, args []string) *model.Hook {
	if d := h.MemPalace.StateDir; d != "" {
		args = append(args, "--state-dir", d)
	}
	if t, ok := cfg.Tools["mempalace"]; ok {
		args = append(args, "--mempalace", t.Path)
	}
	cmd := "agyhook " + shellquote.Join(args...)
	return &model.Hook{
		Name:    name,
		Enabled: true,
		Range:   h.Range,
		Handlers: map[model.Event][]*model.Handler{
			ev: {{Type: model.HandlerCommand, Command: cmd, Timeout: timeout, Range: h.Range}},
		},
	}
}

const mempalaceSkillDescription = "Long-term memory with MemPalace: recall earlier conversations and mined notes, search them, and save what matters. Use when the user refers to past work, asks to remember or recall something, or asks about MemPalace."

// mempalaceSkillBody tells the agent what the hooks do, so it neither
// mines its own transcript twice nor expects a wake-up that is off.
func mempalaceSkillBody(o *model.MemPalaceOptions) string {
	b := mempalaceSkillIntro
	if o.Save {
		every := "every " + strconv.Itoa(o.SaveInterval) + " stops"
		if o.SaveInterval == 1 {
			every = "at every stop"
		}
		b += "\nThis conversation is saved to MemPalace automatically when the agent\nstops (" + every + ", in the background): do not mine the current\ntranscript by hand.\n"
	}
	if o.Wake {
		b += "\nThe first model call of a conversation receives a short wake-up summary\nof the workspace's wing; search for more when it is not enough.\n"
	}
	return b
}

const mempalaceSkillIntro = `# MemPalace: long-term memory

MemPalace keeps a searchable memory of past conversations and mined
folders, grouped into wings (one per workspace, ` + "`wing_<folder>`" + `).

Prefer the tools of the ` + "`mempalace`" + ` MCP server: they search and file
memories without leaving the conversation. When a tool is missing or you
need the full procedure, read MemPalace's own instructions:

## Common operations

- ` + "`mempalace instructions help`" + `: what MemPalace can do.
- ` + "`mempalace instructions init`" + `: set up a palace for this user.
- ` + "`mempalace instructions search`" + `: find earlier work before redoing it.
- ` + "`mempalace instructions mine`" + `: file a folder or transcript into a wing.
- ` + "`mempalace instructions status`" + `: what the palace holds.
`
