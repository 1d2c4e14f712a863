# Secrets may only reach the 0600 files: an MCP server's args, env, headers
# and oauth. Anywhere else they would land in a world-readable file.
mcp_server "a" {
  command = secret_file("/run/secrets/cmd") # ERROR @13: Secret not allowed here
  cwd     = "/srv/${secret_file("/run/secrets/dir")}" # ERROR @13: Secret not allowed here
}

rule "r" {
  body = "token: ${secret_file("/run/secrets/t")}" # ERROR @10: Secret not allowed here
}

hook "h" {
  stop {
    command = "notify --key ${secret_file("/run/secrets/k")}" # ERROR @15: Secret not allowed here
  }
}

settings {
  model = secret_file("/run/secrets/model") # ERROR @11: Secret not allowed here
}

tools {
  agyhook = secret_file("/run/secrets/path") # ERROR @13: Secret not allowed here
}
