# Entries are action or action(target); one entry belongs to one list.
permissions {
  allow = ["command(git *)", "shell(ls)", "command"] # ERROR @30: Invalid permission
  ask   = ["read_url(https://*)", "Command(x)"]     # ERROR @35: Invalid permission
  deny  = ["command(git *)"]                         # ERROR @12: Duplicate permission
  maybe = []                                          # ERROR @3: Unsupported argument
}
