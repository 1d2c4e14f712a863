# Both harnesses agyconf knows, wired into the agy CLI: MemPalace (memory:
# its MCP server, skill, and the wake-up and save hooks run by agyhook) and
# xmsg (messages between sessions: its MCP server, registration hook and
# skill). Each expands into ordinary blocks before render, so validate,
# diff and status treat them like hand-written ones.
# Guides: docs/harness-mempalace.md, docs/harness-xmsg.md.
# Try it:  agyconf render --config examples/harnesses --root "$(mktemp -d)"
#          agyconf hook test stop --config examples/harnesses
# What it writes is committed in expected/ (a fake $HOME); check it with
#          agyconf render --config examples/harnesses --root examples/harnesses/expected --check

agyconf {
  scope       = "global"
  product     = "cli"
  agy_version = "1.5.0"
  instance    = "example-harnesses"
}

# The absolute paths written into hooks.json and mcp_config.json. Without
# them agyconf writes bare names (agyhook, xmsg, mempalace-mcp), which agy
# finds on its PATH — or not, since hooks run under `sh -c` with agy's
# environment. The Home Manager module fills these in from the packages.
tools {
  agyhook       = "/home/me/.nix-profile/bin/agyhook"
  mempalace     = "/home/me/.nix-profile/bin/mempalace"
  mempalace-mcp = "/home/me/.nix-profile/bin/mempalace-mcp"
  xmsg          = "/home/me/.nix-profile/bin/xmsg"
}

harness "mempalace" {
  mode          = "plugin"                           # the default: one plugin tree, as MemPalace installs it; "loose" for plain entries
  save_interval = 15                                 # save every 15th Stop
  state_dir     = "/home/me/.mempalace/hook_state"   # passed to agyhook as --state-dir
}

harness "xmsg" {
  reply_only = false                        # true: `xmsg mcp --reply-only`
  agy_exe    = "/home/me/.nix-profile/bin/agy" # the agy `xmsg serve --agy-exe` trusts (used by the Nix module's service)
}
