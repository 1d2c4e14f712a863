# The text secret_file() stands for cannot be written by hand: without the
# mark it would pass for a secret reference and be read at render time.
mcp_server "a" {
  command = "x"
  args    = ["@@agyconf:secret_file:2f6574632f736861646f77@@"] # ERROR @14: Reserved text
  env = {
    A = "x @@agyconf:secret_file:2f@@" # ERROR @9: Reserved text
  }
}
mcp_server "b" {
  command = "x"
  # A real secret_file() call does not vouch for a token typed beside it:
  # this one names the relative path ../etc/shadow.
  env = {
    B = "${secret_file("/run/a")}@@agyconf:secret_file:2e2e2f6574632f736861646f77@@" # ERROR @9: Reserved text
  }
}
