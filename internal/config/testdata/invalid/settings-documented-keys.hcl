# The keys the CLI docs and changelog name are known: typed, and a near
# miss is refused; verbosity "medium" needs agy 1.2.10.
settings {
  verbosity         = "medium"   # ERROR @23: Needs a newer agy_version
  UseG1Credits      = true       # ERROR @3: Unknown settings key
  copyOnSelect      = "on"       # ERROR @23: Wrong type
  runningLightSpeed = "warp"     # ERROR @23: Invalid value
  altScreenMode     = "auto"     # ERROR @23: Invalid value
  pickerGrouping    = "workspace"
  modelProvider     = "gemini"
  queuedMessages    = { anything = true }
  editor            = 1          # ERROR @23: Wrong type
}
