# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "xmsg" {}
hook "xmsg-register" {
  stop {
    command = "/bin/true"
  }
}
