# A plugin's folder is a portable folder name below the plugins folder.
plugin "memlin" { # WARNING @1: plugin/no-components
  folder = "../memlin" # ERROR @12: Invalid folder
}

plugin "other" { # WARNING @1: plugin/no-components
  folder = ".hidden" # ERROR @12: Invalid folder
}
