agyconf {
  product     = "cli"
  agy_version = "1.1.26"
}
