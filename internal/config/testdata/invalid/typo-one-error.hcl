# One typo, one error: a misspelt block or argument that a required one is
# missing for is reported with the name it likely meant, and the missing
# one is not reported a second time. Without a typo, missing is missing.
hook "event" {
  pre_tool_usee { # ERROR @3: Unsupported block type
    matcher = "*"
    command = "/bin/true"
  }
}
hook "inline-command" {
  pre_tool_use {
    matcher = "*"
    comand  = "/bin/true" # ERROR @5: Unsupported argument
  }
}
hook "handler-block" {
  post_tool_use {
    matcher = "*"
    handlr { # ERROR @5: Unsupported block type
      command = "/bin/true"
    }
  }
}
hook "handler-command" {
  pre_tool_use {
    matcher = "*"
    handler {
      comand = "/bin/true" # ERROR @7: Unsupported argument
    }
  }
}
hook "matcher" {
  pre_tool_use {
    matchr  = "*" # ERROR @5: Unsupported argument
    command = "/bin/true"
  }
}
hook "none" { # ERROR @1: Hook without events
}
hook "unrelated-typo" { # ERROR @1: Hook without events
  enabledd = true # ERROR @3: Unsupported argument
}
mcp_server "gh" {
  comand = "gh-mcp" # ERROR @3: Unsupported argument
}
mcp_server "remote" {
  server_ur = "https://example.com/mcp" # ERROR @3: Unsupported argument
}
skill "s" {
  descripton = "Notes." # ERROR @3: Unsupported argument
  body       = "Take notes."
}
agent "a" {
  description = "Reviews."
  bdy         = "Review." # ERROR @3: Unsupported argument
}
