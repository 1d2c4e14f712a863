# secret_file() takes a clean absolute path: the secret is read at render
# time from wherever agyconf runs.
mcp_server "a" {
  command = "x"
  env = {
    A = secret_file("secrets/a")         # ERROR @9: Error in function call
    B = secret_file("/run/secrets/../b") # ERROR @9: Error in function call
  }
}
