# file() reads UTF-8 text that exists; a path is never a secret.
rule "missing" {
  body = file("assets/no-such-file.md") # ERROR @10: Error in function call
}

rule "binary" {
  body = file("assets/latin1.md") # ERROR @10: Error in function call
}

rule "folder" {
  body = file("assets") # ERROR @10: Error in function call
}

rule "empty-path" {
  body = file("") # ERROR @10: Error in function call
}

rule "secret-path" {
  body = file(secret_file("/run/secrets/p")) # ERROR @10: Error in function call
}
