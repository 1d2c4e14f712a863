# WANT: Two documents on one path
agyconf {
  scope = "workspace"
  layout {
    agents = ".agents/skills"
    rules  = ".agents/skills/x"
  }
}
agent "x" {
  description = "d"
  body = "b"
}
rule "agent" {
  body = "b"
}
