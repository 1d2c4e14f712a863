# A block left open reports where it was opened, not where the file ends.
mcp_server "a" { # ERROR @16: Unclosed configuration block
  command = "x"
