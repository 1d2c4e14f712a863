# WANT: Declared twice
agyconf {
  scope = "global"
}
harness "mempalace" {
  mode = "loose"
}
hook "mempalace-save" {
  stop {
    command = "/bin/true"
  }
}
