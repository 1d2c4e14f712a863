# An extra config file placed beside the generated agyconf.json (scenario plain).
tools {
  node = "/run/current-system/sw/bin/node"
}
