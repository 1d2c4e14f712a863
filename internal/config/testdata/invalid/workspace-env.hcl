# A workspace tree is committed and checked on other machines, where the
# environment differs.
agyconf {
  scope = "workspace"
}

mcp_server "a" {
  command = env("HOME") # ERROR @13: Error in function call
}
