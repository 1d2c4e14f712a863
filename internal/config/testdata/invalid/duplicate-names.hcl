# A second declaration of a name is reported at its label; the detail
# names the first declaration's line.
mcp_server "github" {
  command = "a"
}

mcp_server "github" { # ERROR @12: Duplicate mcp_server
  command = "b"
}

hook "h" {
  stop { command = "a" }
}

skill "s" {
  description = "d"
  body        = "b"
}

hook "h" { # ERROR @6: Duplicate hook
  stop { command = "b" }
}

skill "s" { # ERROR @7: Duplicate skill
  description = "d"
  body        = "b"
}

agyconf {}
agyconf {} # ERROR @1: Duplicate agyconf

permissions {}
permissions {} # ERROR @1: Duplicate permissions

acp { auth_type = "gemini-api-key" }
acp { auth_type = "gemini-api-key" } # ERROR @1: Duplicate acp

harness "xmsg" {}
harness "xmsg" {} # ERROR @9: Duplicate harness

plugin "p" {
  rule "r" { body = "x" }
  rule "r" { body = "y" } # ERROR @8: Duplicate rule
}
plugin "p" { # ERROR @8: Duplicate plugin
  rule "r" { body = "x" }
}
