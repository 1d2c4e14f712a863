# Misspelt arguments, each with HCL's "Did you mean". The arguments they
# were meant to be are not said to be missing as well: one typo, one error.
mcp_server "github" {
  comand = "github-mcp-server" # ERROR @3: Unsupported argument
  envs   = { A = "b" }         # ERROR @3: Unsupported argument
}

agent "a" {
  descripton = "x" # ERROR @3: Unsupported argument
  body       = "z"
}
