# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "mempalace" {
  mode = "loose"
}
skill "mempalace" {
  description = "d"
  body = "b"
}
