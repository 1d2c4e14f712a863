# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "xmsg" {}
skill "xmsg" {
  description = "d"
  body = "b"
}
