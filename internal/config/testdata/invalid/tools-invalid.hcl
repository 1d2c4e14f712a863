# Tool paths are clean absolute paths: agy runs hooks from changing folders.
tools {
  agyhook   = "bin/agyhook"         # ERROR @15: Invalid path
  xmsg      = "/usr/local/../bin/x" # ERROR @15: Invalid path
  mempalace = ""                    # ERROR @15: Empty value
}

tools {
  mempalace-mcp = "/opt/mempalace/bin/mempalace-mcp"
}

tools {
  mempalace-mcp = "/usr/bin/mempalace-mcp" # ERROR @3: Duplicate tool
}
