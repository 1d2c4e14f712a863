# Plugin names follow `agy plugin install`; a plugin needs components and
# carries no workflows.
plugin "with.dot" { # ERROR @8: Invalid name
  rule "r" { body = "x" }
}

plugin "empty" { # ERROR @1: Empty plugin
  description = "Nothing inside"
}

plugin "workflows" {
  workflow "w" { body = "x" } # ERROR @3: Plugins have no workflows
  skill "s" {
    description = "d"
    body        = "b"
  }
}
