# Control characters (written as escapes) and the empty name.
mcp_server "tab\there" { # ERROR @12: Invalid name
  command = "x"
}

rule "nl\nline" { # ERROR @6: Invalid name
  body = "x"
}

skill "" { # ERROR @7: Invalid name
  description = "d"
  body        = "b"
}

hook "bell\u0007" { # ERROR @6: Invalid name
  stop { command = "x" }
}
