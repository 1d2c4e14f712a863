# Known settings keys are checked; a near miss of one is refused with a
# suggestion; other keys pass through for newer agy builds.
settings {
  toolPermision         = "strict"     # ERROR @3: Unknown settings key
  ToolPermission        = "strict"     # ERROR @3: Unknown settings key
  artifactReviewPolicy  = "sometimes"  # ERROR @27: Invalid value
  enableTerminalSandbox = "true"       # ERROR @27: Wrong type
  agentMode             = 1            # ERROR @27: Invalid value
  brandNewKey           = { any = "thing" }
}
