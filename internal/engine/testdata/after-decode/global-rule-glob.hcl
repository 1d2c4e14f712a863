# WANT: Trigger not possible here
agyconf {
  scope = "global"
}
rule "go" {
  trigger = "glob"
  globs   = ["**/*.go"]
  body    = "Run gofmt."
}
