# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    agents = "shared"
    workflows = "shared/x"
  }
}
agent "x" {
  description = "d"
  body = "b"
}
workflow "agent" {
  description = "d"
  body = "b"
}
