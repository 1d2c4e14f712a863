# A hook needs events; a group needs a matcher and a handler, written
# inline or as handler blocks but not both.
hook "empty" { # ERROR @1: Hook without events
  enabled = true
}

hook "groups" {
  pre_tool_use { # ERROR @16: Missing required argument
    command = "x"
  }
  pre_tool_use { # ERROR @16: Missing handler
    matcher = "*"
  }
  post_tool_use {
    matcher = "*"
    command = "x"
    handler { command = "y" } # ERROR @5: Conflicting handlers
  }
  stop { # ERROR @8: Missing required argument
    timeout = 5
  }
}
