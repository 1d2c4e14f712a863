# In workspace scope nothing machine-specific may reach the committed tree:
# no environment, no absolute paths, no secrets. Relative file() is fine.
agyconf {
  scope = "workspace"
}

mcp_server "a" {
  command = abspath("bin/server")          # ERROR @13: Error in function call
  args    = [file("/etc/hostname")]        # ERROR @14: Error in function call
  env     = { HOME = env("HOME", "/home") } # ERROR @22: Error in function call
}

skill "abs-source" {
  source = "/opt/skills/x" # ERROR @12: Invalid source
}

rule "fine" {
  body = file("assets/skill/SKILL.md")
}
