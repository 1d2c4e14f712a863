# Loops: a %{for} directive in a template is a loop too.
mcp_server "a" {
  command = "/usr/bin/a"
  args    = ["%{for x in ["a", "b"]}${x}%{endfor}"] # ERROR @15: Loops are not supported
}
