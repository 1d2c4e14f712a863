# WANT: Two documents on one path
agyconf {
  scope = "global"
  layout {
    skills = ".gemini/config/plugins/p/skills"
  }
}
skill "s" {
  description = "d"
  body = "b"
}
plugin "p" {
  description = "d"
  skill "s" {
    description = "d"
    body = "b"
  }
}
