# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    hooks = ".gemini/antigravity-cli/settings.json"
  }
}
hook "h" {
  stop {
    command = "/bin/true"
  }
}
settings {
  model = "gemini-3-pro"
}
