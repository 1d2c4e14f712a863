# Local-only arguments on a remote server and remote-only ones on a local
# server are refused rather than silently dropped.
mcp_server "remote" {
  server_url = "https://example.com/mcp"
  args       = ["x"]         # ERROR @3: Conflicting arguments
  env        = { A = "b" }   # ERROR @3: Conflicting arguments
  cwd        = "/tmp"        # ERROR @3: Conflicting arguments
}

mcp_server "local" {
  command            = "x"
  headers            = { A = "b" }          # ERROR @3: Conflicting arguments
  auth_provider_type = "google_credentials" # ERROR @3: Conflicting arguments
  oauth { # ERROR @3: Conflicting arguments
    client_id = "id"
  }
}

mcp_server "oauth" {
  server_url = "https://example.com/mcp"
  oauth { # ERROR @9: Missing required argument # WARNING @3: mcp/oauth-secret-inline
    client_secret = "s"
  }
  oauth { # ERROR @3: Duplicate oauth
    client_id = "id"
  }
}
