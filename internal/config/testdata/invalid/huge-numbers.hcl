# Numbers past a 64-bit float's range are refused before anything prints
# or converts them: 1e600000000 would otherwise take minutes and gigabytes.
harness "mempalace" {
  save_interval = 1e600000000 # ERROR @19: Number out of range
}
hook "h" {
  stop {
    command = "x"
    timeout = 1e-10000000 # ERROR @15: Number out of range
  }
}
settings {
  someNewKey = 1e10000000 # ERROR @16: Number out of range
}
rule "r" {
  body = jsonencode(1e10000000) # ERROR @10: Error in function call
}
harness "xmsg" {
  reply_only = true
}
