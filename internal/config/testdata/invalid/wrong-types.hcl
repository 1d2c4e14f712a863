# A value of the wrong type, in every kind of argument, all in one pass.
agyconf {
  agy_version = "1.1.6"
}
mcp_server "a" {
  command        = ["x"]  # ERROR @20: Wrong type
  args           = "stdio" # ERROR @20: Wrong type
  env            = ["A=b"] # ERROR @20: Wrong type
  disabled       = "true" # ERROR @20: Wrong type
  disabled_tools = "x"    # ERROR @20: Wrong type
}

hook "h" {
  enabled = 1 # ERROR @13: Wrong type
  stop {
    command = { a = 1 } # ERROR @15: Wrong type
  }
}

rule "r" {
  trigger = "glob"
  globs   = ["ok", ["x"]] # ERROR @20: Wrong type
  body    = "b"
}

agent "a" {
  description = "d"
  body        = "b"
  main_agent  = "yes"       # ERROR @17: Wrong type
  tools       = "view_file" # ERROR @17: Wrong type
}

harness "mempalace" {
  save_interval = "15" # ERROR @19: Wrong type
}
