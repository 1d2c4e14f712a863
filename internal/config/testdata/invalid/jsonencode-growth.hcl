# Each jsonencode() around another doubles the escapes of the one inside:
# 30 of them on "x" would ask for gigabytes. A result larger than a config
# file (8 MiB) is refused, here at the 23rd call from the inside.
settings {
  k = jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode(jsonencode("x")))))))))))))))))))))))) # ERROR @18: Error in function call
}
