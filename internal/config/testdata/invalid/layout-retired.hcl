# A retired layout key is refused with the reason, not as an unknown one.
agyconf {
  scope   = "workspace"
  product = "ide"
  layout {
    ide_settings = ".antigravity/settings.json" # ERROR @5: Retired layout key
  }
}
