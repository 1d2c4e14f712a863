# secret_mode: exec or inline; exec cannot carry a remote server's headers,
# nor a secret in args.
agyconf {
  secret_mode = "vault" # ERROR @17: Invalid secret_mode
}
mcp_server "remote" {
  server_url  = "https://example.com/mcp"
  headers     = { Authorization = secret_file("/run/secrets/h") }
  secret_mode = "exec" # ERROR @17: Invalid secret_mode
}
mcp_server "args" {
  command = "x"
  args    = ["--token", secret_file("/run/secrets/t")] # ERROR @13: Secret in args
}
mcp_server "bad" {
  command     = "x"
  secret_mode = 1 # ERROR @17: Invalid secret_mode
}
