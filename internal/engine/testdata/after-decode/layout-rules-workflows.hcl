# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    rules = "shared"
    workflows = "shared"
  }
}
rule "x" {
  description = "d"
  body = "b"
}
workflow "x" {
  description = "d"
  body = "b"
}
