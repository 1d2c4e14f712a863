# Plugins cannot declare permissions, as an argument or as a block.
plugin "p" {
  permissions = ["command(git *)"] # ERROR @3: Plugins cannot declare permissions
  permissions { # ERROR @3: Plugins cannot declare permissions
    allow = ["command(git *)"]
  }
  rule "r" { body = "x" }
}
