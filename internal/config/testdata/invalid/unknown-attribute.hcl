# Misspelt arguments, each with HCL's "Did you mean". The arguments they
# were meant to be are then missing, and said so at the block.
mcp_server "github" { # ERROR @1: Missing connection
  comand = "github-mcp-server" # ERROR @3: Unsupported argument
  envs   = { A = "b" }         # ERROR @3: Unsupported argument
}

agent "a" { # ERROR @11: Missing required argument
  descripton = "x" # ERROR @3: Unsupported argument
  body       = "z"
}
