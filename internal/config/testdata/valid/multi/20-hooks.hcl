# Uses session_start, allowed by agy_version in 90-agyconf.hcl: the agyconf
# block is read first whichever file holds it.
hook "banner" {
  session_start {
    command = "/usr/local/bin/banner"
  }
}

rule "from-hcl" {
  body = file("prompts/hcl-rule.md")
}
