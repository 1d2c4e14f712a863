# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    hooks = ".gemini/config/plugins/p/hooks.json"
  }
}
hook "h" {
  stop {
    command = "/bin/true"
  }
}
plugin "p" {
  description = "d"
  hook "g" {
    stop {
      command = "/bin/true"
    }
  }
}
