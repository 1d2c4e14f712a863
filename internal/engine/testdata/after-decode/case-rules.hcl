# WANT: Paths differ only in case
agyconf {
  scope = "workspace"
}
rule "Foo" {
  body = "a"
}
rule "foo" {
  body = "b"
}
