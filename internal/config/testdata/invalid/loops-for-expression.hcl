# Loops: a config has no variables, so a loop runs over values written
# beside it, and nested loops multiply without bound.
mcp_server "a" {
  command = "/usr/bin/a"
  args    = [for x in ["a", "b"] : "--${x}"] # ERROR @13: Loops are not supported
}
