# A workspace tree is committed, so a secret would be committed with it.
agyconf {
  scope   = "workspace"
  product = "ide"
}

mcp_server "a" {
  command = "x"
  env     = { TOKEN = secret_file("/run/secrets/t") } # ERROR @23: Error in function call
}
