// Package model holds the typed, validated form of an agyconf input: one Go
// type per Antigravity concept, independent of the syntax it was written in.
//
// Every declared thing carries the source range it came from (Range fields,
// excluded from JSON) so that later stages — schema validation, render,
// apply — can point back at the line a user wrote. Collections keyed by name
// are kept sorted by name so that the HCL and the JSON form of one config
// produce identical models; lists whose order is meaning (hook groups,
// handlers, arguments) keep declaration order.
package model

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
)

// Scope and Product are agy's (internal/agy owns the facts about them).
type (
	Scope   = agy.Scope
	Product = agy.Product
)

const (
	ScopeGlobal    = agy.ScopeGlobal
	ScopeWorkspace = agy.ScopeWorkspace
	ProductCLI     = agy.ProductCLI
	ProductIDE     = agy.ProductIDE
	ProductBoth    = agy.ProductBoth
)

// Config is a whole decoded input: one file or every file of a directory.
type Config struct {
	Agyconf     Agyconf         `json:"agyconf"`
	Tools       map[string]Tool `json:"tools,omitempty"`
	MCPServers  []*MCPServer    `json:"mcp_servers,omitempty"`
	Hooks       []*Hook         `json:"hooks,omitempty"`
	Skills      []*Skill        `json:"skills,omitempty"`
	Rules       []*Rule         `json:"rules,omitempty"`
	Agents      []*Agent        `json:"agents,omitempty"`
	Workflows   []*Workflow     `json:"workflows,omitempty"`
	Permissions *Permissions    `json:"permissions,omitempty"`
	// SharedPermissions are the grants shared with Antigravity 2.0, kept
	// in ~/.gemini/config/config.json (the shared_permissions block).
	SharedPermissions *Permissions        `json:"shared_permissions,omitempty"`
	Settings          map[string]*Setting `json:"settings,omitempty"`
	Plugins           []*Plugin           `json:"plugins,omitempty"`
	Harnesses         []*Harness          `json:"harnesses,omitempty"`
	ACP               *ACP                `json:"acp,omitempty"`
	Ignore            *Ignore             `json:"ignore,omitempty"`
	// Contexts are whole files of global rules (agy.ContextFiles).
	Contexts []*Context `json:"contexts,omitempty"`
	// Files lists the files decoded, in load order.
	Files []string `json:"-"`
	// Inputs is everything outside the config's text that decoding
	// depended on, for telling cheaply whether decoding again could give
	// another model.
	Inputs []Input `json:"-"`
	// SecretRefs are the secret_file() calls, each with the range of the
	// value it appears in: a secret that cannot be read is reported
	// there, not as a bare path.
	SecretRefs []SecretRef `json:"-"`
}

// SecretRef is one use of a secret file.
type SecretRef struct {
	Path  string
	Range hcl.Range
}

// Secret delivery modes of an MCP server's secrets.
const (
	// SecretExec keeps secrets out of every file: a local server's command
	// becomes `agyhook exec-env … -- command`, a remote server whose
	// headers hold one becomes `agyhook-bridge … -- URL`; either reads the
	// files when agy starts the server.
	SecretExec = "exec"
	// SecretInline writes the values into the file, mode 0600: the only
	// way for a server agy authenticates itself (OAuth, Google
	// credentials).
	SecretInline = "inline"
)

// Input is one thing decoding read or looked at.
type Input struct {
	// Kind is "file" (a file's content), "dir" (the config files a folder
	// lists), "tree" (a skill source folder), "env" (a variable) or "stat"
	// (a secret file: size, time and inode only, never its content).
	Kind string `json:"kind"`
	Name string `json:"name"`
	Sum  string `json:"sum"`
}

// Agyconf is the `agyconf` block: settings about the render itself.
type Agyconf struct {
	Scope   Scope   `json:"scope"`
	Product Product `json:"product"`
	// AgyVersion is the oldest agy build the output must load on. Features
	// the sources disagree on (prompt handlers, SessionStart) are accepted
	// only when it says the build supports them. Empty means "unknown".
	AgyVersion string `json:"agy_version,omitempty"`
	// Instance names the config's state, whatever path the config is read
	// from (a Nix store folder, a link to it, a built generation); empty
	// means derived from the path. --instance overrides it.
	Instance string `json:"instance,omitempty"`
	// SecretMode is the default delivery of MCP servers' secrets,
	// SecretExec unless set.
	SecretMode string `json:"secret_mode,omitempty"`
	// Layout overrides default paths, keyed by artifact (internal/layout).
	Layout map[string]string `json:"layout,omitempty"`
	Range  hcl.Range         `json:"-"`
}

// Tool is an executable path that render may write into hooks.json or
// mcp_config.json in place of a bare command name.
type Tool struct {
	Path  string    `json:"path"`
	Range hcl.Range `json:"-"`
}

// Str is a string that may embed references to secret files. Secrets are
// never read while decoding: the reference travels to the stage that writes
// the file, and every stage before it can redact exactly these parts.
type Str []Part

// Part is one piece of a Str: literal text, or the contents of a secret
// file named by an absolute path.
type Part struct {
	Text       string `json:"text,omitempty"`
	SecretFile string `json:"secret_file,omitempty"`
	// JSONEscape is how many jsonencode() calls were around the secret:
	// its value is escaped that many times as the inside of a JSON
	// string when it is substituted (jsonesc.String), as the literal text
	// beside it was when it was encoded.
	JSONEscape int `json:"json_escape,omitempty"`
}

// MarshalJSON writes a Str without secrets as a plain JSON string, and one
// with secrets as its list of parts, so model dumps stay readable.
func (s Str) MarshalJSON() ([]byte, error) {
	if lit, ok := s.Literal(); ok {
		return json.Marshal(lit)
	}
	return json.Marshal([]Part(s))
}

// HasSecret reports whether any part of s is a secret reference.
func (s Str) HasSecret() bool {
	for _, p := range s {
		if p.SecretFile != "" {
			return true
		}
	}
	return false
}

// Redacted returns s with every secret shown as placeholder.
func (s Str) Redacted(placeholder string) string {
	var out []byte
	for _, p := range s {
		if p.SecretFile != "" {
			out = append(out, placeholder...)
			continue
		}
		out = append(out, p.Text...)
	}
	return string(out)
}

// Literal returns s as plain text and true when s holds no secret.
func (s Str) Literal() (string, bool) {
	if s.HasSecret() {
		return "", false
	}
	var out []byte
	for _, p := range s {
		out = append(out, p.Text...)
	}
	return string(out), true
}

// MCPServer is one entry of mcp_config.json's mcpServers map.
type MCPServer struct {
	Name string `json:"name"`
	// Local (stdio) servers.
	Command string         `json:"command,omitempty"`
	Args    []Str          `json:"args,omitempty"`
	Env     map[string]Str `json:"env,omitempty"`
	Cwd     string         `json:"cwd,omitempty"`
	// Remote servers. Written as serverUrl, the field agy reads first.
	ServerURL        string         `json:"server_url,omitempty"`
	Headers          map[string]Str `json:"headers,omitempty"`
	AuthProviderType string         `json:"auth_provider_type,omitempty"`
	OAuth            *OAuth         `json:"oauth,omitempty"`
	Disabled         bool           `json:"disabled,omitempty"`
	DisabledTools    []string       `json:"disabled_tools,omitempty"`
	// EnabledTools, when set, are the only tools agy offers (agy 1.1.16).
	EnabledTools []string `json:"enabled_tools,omitempty"`
	// TimeoutSeconds is how long agy waits for the server to launch; -1
	// waits for ever (agy 1.0.7). Nil leaves agy's default.
	TimeoutSeconds *int `json:"timeout_seconds,omitempty"`
	// Tools are per-tool settings, by tool name (agy 1.1.16).
	Tools map[string]*MCPTool `json:"tools,omitempty"`
	// Extra are more members of the server's entry, written as given:
	// fields agy reads that agyconf does not know yet (never one it
	// writes itself, never a secret).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	// SecretMode is how the server's secrets reach it: SecretExec or
	// SecretInline, already resolved against the agyconf block's default.
	SecretMode string    `json:"secret_mode,omitempty"`
	Range      hcl.Range `json:"-"`
	Attrs      Ranges    `json:"-"`
}

// Remote reports whether the server is reached over the network.
func (s *MCPServer) Remote() bool { return s.ServerURL != "" }

// MCPTool is one tool's settings under a server's tools.
type MCPTool struct {
	// Eager loads the tool's declaration into the prompt at startup
	// instead of on demand.
	Eager *bool     `json:"eager,omitempty"`
	Range hcl.Range `json:"-"`
}

// OAuth holds a remote server's OAuth client.
type OAuth struct {
	ClientID     Str `json:"client_id,omitempty"`
	ClientSecret Str `json:"client_secret,omitempty"`
	// Enabled is what agy itself records after an /mcp sign-in; nil
	// leaves it out.
	Enabled *bool `json:"enabled,omitempty"`
}

// Event is a hook event as agy spells it in hooks.json; the events and
// what is known of each are internal/agy's table (agy.Events).
type Event = agy.EventName

// Hook is one named hook of hooks.json.
type Hook struct {
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
	// Groups holds the matcher groups of PreToolUse and PostToolUse, in
	// declaration order (agy runs them in order).
	Groups map[Event][]*MatcherGroup `json:"groups,omitempty"`
	// Handlers holds the flat events' handlers, in declaration order.
	Handlers map[Event][]*Handler `json:"handlers,omitempty"`
	Range    hcl.Range            `json:"-"`
}

// MatcherGroup is `{matcher, hooks: [...]}` of a grouped event.
type MatcherGroup struct {
	Matcher  string     `json:"matcher"`
	Handlers []*Handler `json:"handlers"`
	Range    hcl.Range  `json:"-"`
	Attrs    Ranges     `json:"-"`
}

// Ranges locates a block's arguments, by their name in the input: a
// problem found in one rendered value points at the argument that wrote
// it (command = …), not at the block.
type Ranges map[string]hcl.Range

// Of is the range of the argument name, the zero range when it was not
// written (or the value came from elsewhere, a harness).
func (r Ranges) Of(name string) hcl.Range { return r[name] }

// RangesOf records where each argument of a block is.
func RangesOf(attrs hcl.Attributes) Ranges {
	r := make(Ranges, len(attrs))
	for n, a := range attrs {
		r[n] = a.Range
	}
	return r
}

// HandlerType is a hook handler's `type`.
type HandlerType string

const (
	HandlerCommand HandlerType = "command"
	HandlerPrompt  HandlerType = "prompt"
)

// DefaultTimeout is written when a handler sets none: the sources disagree
// on agy's own default (30 s or 60 s), so the value is always explicit.
const DefaultTimeout = 30

// Handler is one hook handler.
type Handler struct {
	Type    HandlerType `json:"type"`
	Command string      `json:"command,omitempty"`
	Prompt  string      `json:"prompt,omitempty"`
	Model   string      `json:"model,omitempty"`
	Timeout int         `json:"timeout"`
	// Extra are more members of the handler, written as given: agy
	// discards what it does not read (a description).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	Range hcl.Range                  `json:"-"`
	Attrs Ranges                     `json:"-"`
}

// Skill is a skill folder: <name>/SKILL.md, or a whole folder copied.
type Skill struct {
	Name string `json:"name"`
	// Folder is the skill's folder name when it is not Name: agy names a
	// skill by its frontmatter and finds it by any folder below skills/
	// (git_gh_workflow holding name: git-gh-workflow).
	Folder      string `json:"folder,omitempty"`
	Description string `json:"description,omitempty"`
	Body        string `json:"body,omitempty"`
	// Source is an absolute folder whose contents become the skill folder;
	// its SKILL.md carries the frontmatter.
	Source string `json:"source,omitempty"`
	// Files are the source folder's files, read while decoding so that
	// render stays a pure function of the model.
	Files []File `json:"files,omitempty"`
	// Icon and DisableSlashCommand are the SKILL.md keys metadata.icon
	// and disable-slash-command (agy.SkillFields), written with body.
	Icon                string `json:"icon,omitempty"`
	DisableSlashCommand *bool  `json:"disable_slash_command,omitempty"`
	// Extra are more frontmatter keys, written as given (another tool's,
	// such as license or allowed-tools; never one agyconf writes).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	Range hcl.Range                  `json:"-"`
}

// Value is the field that holds a SKILL.md key of agy.SkillFields, by its
// dotted key: a *string or a **bool, or nil.
func (s *Skill) Value(key string) any {
	switch key {
	case "metadata.icon":
		return &s.Icon
	case "disable-slash-command":
		return &s.DisableSlashCommand
	}
	return nil
}

// File is one file of a skill's source folder.
type File struct {
	// Path is relative to the folder, with forward slashes.
	Path       string `json:"path"`
	Data       []byte `json:"-"`
	Executable bool   `json:"executable,omitempty"`
	// SHA256 of Data, so model dumps show what was read without the bytes.
	SHA256 string `json:"sha256"`
}

// Rule triggers as agy spells them.
const (
	TriggerAlwaysOn      = "always_on"
	TriggerGlob          = "glob"
	TriggerModelDecision = "model_decision"
	TriggerManual        = "manual"
)

// Rule is a markdown rule with activation frontmatter.
type Rule struct {
	Name string `json:"name"`
	// Trigger is "" for a rule written without one (trigger = null): the
	// sources contest whether agy loads it (lint's rule/no-trigger).
	Trigger     string   `json:"trigger"`
	Globs       []string `json:"globs,omitempty"`
	Description string   `json:"description,omitempty"`
	Body        string   `json:"body"`
	// Extra are more frontmatter keys, written as given (another tool's,
	// such as name; never one agyconf writes).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	Range hcl.Range                  `json:"-"`
}

// Agent is a subagent: markdown whose body is the system prompt. Its
// frontmatter fields are agy's table (agy.AgentFields); Value maps each
// key to its field here, so that decode, render and import name each key
// once.
type Agent struct {
	Name                     string   `json:"name"`
	Description              string   `json:"description"`
	Body                     string   `json:"body"`
	Model                    string   `json:"model,omitempty"`
	Tools                    []string `json:"tools,omitempty"`
	MCPServers               []string `json:"mcp_servers,omitempty"`
	Skills                   []string `json:"skills,omitempty"`
	Plugins                  []string `json:"plugins,omitempty"`
	Rules                    []string `json:"rules,omitempty"`
	Agents                   []string `json:"agents,omitempty"`
	Hooks                    []string `json:"hooks,omitempty"`
	MainAgent                *bool    `json:"main_agent,omitempty"`
	Subagent                 *bool    `json:"subagent,omitempty"`
	CommandExecutionPolicy   string   `json:"command_execution_policy,omitempty"`
	Hidden                   *bool    `json:"hidden,omitempty"`
	InheritMCP               *bool    `json:"inherit_mcp,omitempty"`
	InheritCustomizations    *bool    `json:"inherit_customizations,omitempty"`
	ExcludeDefaultComponents *bool    `json:"exclude_default_components,omitempty"`
	// Extra are more frontmatter keys, written as given (never one
	// agyconf writes itself, never a secret).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	Range hcl.Range                  `json:"-"`
}

// Value is the field that holds a frontmatter key (agy.AgentFields): a
// *string, a *[]string or a **bool, or nil for a key the table does not
// have. A test checks that every key of the table has one, of its type.
func (a *Agent) Value(key string) any {
	switch key {
	case "name":
		return &a.Name
	case "description":
		return &a.Description
	case "model":
		return &a.Model
	case "tools":
		return &a.Tools
	case "mcpServers":
		return &a.MCPServers
	case "skills":
		return &a.Skills
	case "plugins":
		return &a.Plugins
	case "rules":
		return &a.Rules
	case "agents":
		return &a.Agents
	case "hooks":
		return &a.Hooks
	case "commandExecutionPolicy":
		return &a.CommandExecutionPolicy
	case "mainAgent":
		return &a.MainAgent
	case "subagent":
		return &a.Subagent
	case "hidden":
		return &a.Hidden
	case "inheritMcp":
		return &a.InheritMCP
	case "inheritCustomizations":
		return &a.InheritCustomizations
	case "excludeDefaultComponents":
		return &a.ExcludeDefaultComponents
	}
	return nil
}

// Workflow is a markdown workflow invoked as /name.
type Workflow struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Body        string `json:"body"`
	// Extra are more frontmatter keys, written as given (another tool's,
	// such as name; never one agyconf writes).
	Extra map[string]json.RawMessage `json:"extra,omitempty"`
	Range hcl.Range                  `json:"-"`
}

// Permissions are allow/ask/deny entries: of the CLI's settings.json (the
// permissions block), or shared with Antigravity 2.0 (shared_permissions).
type Permissions struct {
	Allow []string  `json:"allow,omitempty"`
	Ask   []string  `json:"ask,omitempty"`
	Deny  []string  `json:"deny,omitempty"`
	Range hcl.Range `json:"-"`
}

// Setting is one other key of the CLI's settings.json.
type Setting struct {
	// Value is the canonical JSON of the value.
	Value json.RawMessage `json:"value"`
	Range hcl.Range       `json:"-"`
}

// Plugin is a plugin tree: plugin.json plus nested components.
type Plugin struct {
	Name string `json:"name"`
	// Folder is the plugin's folder name when it is not Name: agy names a
	// plugin by its plugin.json and finds it in any folder of the plugins
	// folder (a repository cloned there keeps the repository's name).
	Folder      string `json:"folder,omitempty"`
	Description string `json:"description,omitempty"`

	// Enabled, when set, is the plugin's entry in ~/.gemini/config/config.json,
	// where agy keeps enablement since 1.1.11; nil leaves it to agy, which
	// seeds it enabled when it first discovers the plugin.
	Enabled *bool `json:"enabled,omitempty"`
	// Extra are more plugin.json members, written as given: the official
	// schema allows only name and description, so the decoder takes them
	// only with allow_extra.
	Extra      map[string]json.RawMessage `json:"extra,omitempty"`
	MCPServers []*MCPServer               `json:"mcp_servers,omitempty"`
	Hooks      []*Hook                    `json:"hooks,omitempty"`
	Skills     []*Skill                   `json:"skills,omitempty"`
	Rules      []*Rule                    `json:"rules,omitempty"`
	Agents     []*Agent                   `json:"agents,omitempty"`
	Range      hcl.Range                  `json:"-"`
}

// Harness is a `harness` block, kept as declared; internal/harness expands
// it into ordinary model values before render.
type Harness struct {
	Kind      string            `json:"kind"`
	MemPalace *MemPalaceOptions `json:"mempalace,omitempty"`
	Xmsg      *XmsgOptions      `json:"xmsg,omitempty"`
	Range     hcl.Range         `json:"-"`
}

// MemPalaceOptions configure `harness "mempalace"`.
type MemPalaceOptions struct {
	// Mode is "plugin" (a plugin tree) or "loose" (global entries).
	Mode         string `json:"mode"`
	Wake         bool   `json:"wake"`
	Save         bool   `json:"save"`
	SaveInterval int    `json:"save_interval"`
	StateDir     string `json:"state_dir,omitempty"`
}

// XmsgOptions configure `harness "xmsg"`.
type XmsgOptions struct {
	ReplyOnly   bool `json:"reply_only"`
	LegacyHooks bool `json:"legacy_hooks"`
	// AgyExe is the agy executable `xmsg serve --agy-exe` trusts.
	AgyExe string `json:"agy_exe,omitempty"`
}

// Ignore is the block agyconf manages in a workspace's .antigravityignore:
// its lines, in order, each written as given.
type Ignore struct {
	Patterns []string  `json:"patterns"`
	Range    hcl.Range `json:"-"`
}

// Context is a file of global rules agyconf writes whole: its path below
// the render root (one of agy.ContextFiles) and its text.
type Context struct {
	Path  string    `json:"path"`
	Body  string    `json:"body"`
	Range hcl.Range `json:"-"`
}

// ACP configures the ACP server's settings.json.
type ACP struct {
	AuthType    string    `json:"auth_type"`
	GCPProject  string    `json:"gcp_project,omitempty"`
	GCPLocation string    `json:"gcp_location,omitempty"`
	ConfigRoot  string    `json:"config_root,omitempty"`
	Range       hcl.Range `json:"-"`
}
