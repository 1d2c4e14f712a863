# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    skills = "shared"
    rules  = "shared/x"
  }
}
skill "x" {
  description = "d"
  body = "b"
}
rule "SKILL" {
  body = "b"
}
