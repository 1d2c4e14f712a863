# extra adds members agyconf does not know; it never overrides one agyconf
# writes, and never carries a secret.
mcp_server "s" {
  command = "s"
  extra = {
    command       = "other" # ERROR @5: Known field in extra
    disabledTools = [] # ERROR @5: Known field in extra
    enabled       = true # ERROR @5: Known field in extra
    url           = "https://x" # ERROR @5: Known field in extra
    token         = "Bearer ${secret_file("/run/secrets/t")}" # ERROR @21: Secret not allowed here
    ok            = { nested = [1, 2] }
  }
}

mcp_server "not-an-object" {
  command = "s"
  extra   = ["trust"] # ERROR @13: Wrong type
}

agent "a" {
  description = "d"
  body        = "b"
  extra = {
    model      = "pro" # ERROR @5: Known field in extra
    mcpServers = [] # ERROR @5: Known field in extra
    name       = "other" # ERROR @5: Known field in extra
    effort     = "high"
    nothing    = null # ERROR @18: Invalid value
  }
}
