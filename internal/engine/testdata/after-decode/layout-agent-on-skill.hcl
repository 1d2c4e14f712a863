# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    agents = ".agents/skills/x"
  }
}
skill "x" {
  description = "d"
  body = "b"
}
agent "SKILL" {
  description = "d"
  body = "b"
}
