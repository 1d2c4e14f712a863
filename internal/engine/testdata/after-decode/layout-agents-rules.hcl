# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    agents = "shared"
    rules = "shared/x"
  }
}
agent "x" {
  description = "d"
  body = "b"
}
rule "agent" {
  description = "d"
  body = "b"
}
