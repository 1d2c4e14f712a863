# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "mempalace" {}
plugin "mempalace" {
  description = "mine"
  skill "s" {
    description = "d"
    body = "b"
  }
}
