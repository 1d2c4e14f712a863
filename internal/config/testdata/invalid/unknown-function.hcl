# Only agyconf's functions exist, and there are no variables.
mcp_server "a" {
  command = upper("x")   # ERROR @13: Call to unknown function
  cwd     = var.dir      # ERROR @13: Variables not allowed
  args    = [local.x]    # ERROR @14: Variables not allowed
}
