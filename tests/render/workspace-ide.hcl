agyconf {
  scope   = "workspace"
  product = "ide"
}
permissions { deny = ["read_url(http://*)"] }
settings { agentMode = "default" }
