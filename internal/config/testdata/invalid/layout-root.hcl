# A layout path names something below the render root, never the root.
agyconf {
  layout {
    skills = "." # ERROR @14: Invalid path
  }
}
