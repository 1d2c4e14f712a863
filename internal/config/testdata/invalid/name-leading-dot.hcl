# A leading dot would make a hidden file or folder that Antigravity skips.
agent ".hidden" { # ERROR @7: Invalid name
  description = "d"
  body        = "b"
}

plugin ".p" { # ERROR @8: Invalid name
  rule "r" { body = "x" }
}

mcp_server ".dot" { # ERROR @12: Invalid name
  command = "x"
}
