# A project and location apply to business and platform auth only; the auth
# type is one of four.
acp {
  auth_type    = "gemini-api-key"
  gcp_project  = "p" # ERROR @3: Conflicting arguments
  gcp_location = "l" # ERROR @3: Conflicting arguments
}
