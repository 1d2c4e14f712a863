# Plugin names follow `agy plugin install`; a plugin without components is a
# warning (agy loads one of plugin.json alone), and a plugin
# carries no workflows.
plugin "with.dot" { # ERROR @8: Invalid name
  rule "r" { body = "x" }
}

plugin "empty" { # WARNING @1: plugin/no-components
  description = "Nothing inside"
}

plugin "workflows" {
  workflow "w" { body = "x" } # ERROR @3: Plugins have no workflows
  skill "s" {
    description = "d"
    body        = "b"
  }
}
