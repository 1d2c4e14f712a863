# null is refused: leave an argument out instead.
mcp_server "a" {
  command  = "x"
  cwd      = null # ERROR @14: Invalid value
  disabled = null # ERROR @14: Invalid value
}

rule "r" {
  trigger = null # ERROR @13: Invalid value
  body    = "x"
}
