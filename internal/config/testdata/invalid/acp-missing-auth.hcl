acp { # ERROR @5: Missing required argument
  gcp_project = "p"
}

acp { # ERROR @1: Duplicate acp
  auth_type = "api-key"
}
