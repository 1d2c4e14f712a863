# Names become file names: a slash or backslash would name a path.
mcp_server "a/b" { # ERROR @12: Invalid name
  command = "x"
}

rule "..\\x" { # ERROR @6: Invalid name
  body = "x"
}

plugin "team/tools" { # ERROR @8: Invalid name
  rule "r" { body = "x" }
}
