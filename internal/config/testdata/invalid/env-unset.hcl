# An unset variable is an error unless a default is given.
mcp_server "a" {
  command = env("AGYCONF_TEST_SURELY_UNSET_VARIABLE") # ERROR @13: Error in function call
  cwd     = env("AGYCONF_TEST_SURELY_UNSET_VARIABLE", "/tmp")
  args    = [env("A", "b", "c")] # ERROR @14: Error in function call
}
