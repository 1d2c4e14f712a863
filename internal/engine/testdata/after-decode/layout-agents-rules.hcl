# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    agents = "shared"
    rules = "shared"
  }
}
agent "x" {
  description = "d"
  body = "b"
}
rule "x" {
  description = "d"
  body = "b"
}
