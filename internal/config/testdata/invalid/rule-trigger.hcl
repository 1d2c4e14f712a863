# Each trigger takes what it needs.
rule "bad-trigger" {
  trigger = "sometimes" # ERROR @13: Invalid trigger
  body    = "x"
}

rule "globs-without-glob" {
  trigger = "always_on"
  globs   = ["*.go"] # agy does not read them: the rendered file's check warns (rule/globs-ignored)
  body    = "x"
}

rule "glob-without-globs" { # ERROR @27: Missing required argument
  trigger = "glob"
  body    = "x"
}

rule "empty-globs" {
  trigger = "glob"
  globs   = [] # ERROR @13: Invalid glob
  body    = "x"
}

rule "blank-glob" {
  trigger = "glob"
  globs   = [" "] # ERROR @14: Invalid glob
  body    = "x"
}

rule "model-decision" { # ERROR @23: Missing required argument
  trigger = "model_decision"
  body    = "x"
}

rule "no-body" { # ERROR @16: Missing required argument
  trigger = "manual"
}
