# secret_mode: exec or inline; exec cannot serve a server agy authenticates
# itself (oauth, auth_provider_type), nor a secret in args. A remote server
# with secrets in its headers takes exec (agyhook bridge) like any other.
agyconf {
  secret_mode = "vault" # ERROR @17: Invalid secret_mode
}
mcp_server "remote" {
  server_url  = "https://example.com/mcp"
  headers     = { Authorization = secret_file("/run/secrets/h") }
  secret_mode = "exec"
}
mcp_server "oauth" {
  server_url  = "https://example.com/mcp"
  headers     = { Authorization = secret_file("/run/secrets/h") }
  secret_mode = "exec" # ERROR @17: Invalid secret_mode
  oauth {
    client_id = "id"
  }
}
mcp_server "google" {
  server_url         = "https://example.com/mcp"
  auth_provider_type = "google_credentials"
  secret_mode        = "exec" # ERROR @24: Invalid secret_mode
}
mcp_server "args" {
  command = "x"
  args    = ["--token", secret_file("/run/secrets/t")] # ERROR @13: Secret in args
}
mcp_server "bad" {
  command     = "x"
  secret_mode = 1 # ERROR @17: Invalid secret_mode
}
