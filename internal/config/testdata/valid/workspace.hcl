# A workspace config: relative file() and skill sources are allowed (they
# travel with the committed tree); nothing machine-specific is used.

agyconf {
  scope    = "workspace"
  product  = "ide"
  instance = "team-rules"
}

rule "lint" {
  trigger = "always_on"
  body    = file("assets/workspace/lint.md")
}

skill "lint" {
  source = "assets/workspace/skills/lint"
}

mcp_server "local-docs" {
  command = "docs-mcp"
  args    = ["--root", "."]
}

permissions {
  allow = ["command(make *)"]
}

# Lines of agyconf's block in .antigravityignore, written in order.
ignore {
  patterns = ["dist/", "*.log", "!keep.log"]
}
