# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    agents = "shared"
    workflows = "shared"
  }
}
agent "x" {
  description = "d"
  body = "b"
}
workflow "x" {
  description = "d"
  body = "b"
}
