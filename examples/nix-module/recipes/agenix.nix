# Secrets with agenix (docs/nix.md quotes this file; tests/nix evaluates it
# with agenix's own Home Manager module). agenix decrypts in a user service
# (systemd on Linux, launchd on darwin) into the runtime folder; its paths
# name that folder as ${XDG_RUNTIME_DIR} (Linux) or $(getconf
# DARWIN_USER_TEMP_DIR) (darwin), which agyhook and agyhook-bridge expand
# where they read the secret, when agy starts the server: nothing secret is
# written into the home.
{ config, ... }:
{
  age.secrets.github-token.file = ./github-token.age;
  age.secrets.linear-header.file = ./linear-header.age;

  programs.agyconf = {
    enable = true;
    mcpServers.github = {
      command = "github-mcp-server";
      args = [ "stdio" ];
      env.GITHUB_PERSONAL_ACCESS_TOKEN.file = config.age.secrets.github-token.path;
    };
    mcpServers.linear = {
      url = "https://mcp.linear.app/sse";
      headers.Authorization.file = config.age.secrets.linear-header.path;
    };
  };
}
