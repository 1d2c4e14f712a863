# Secrets with agenix (docs/nix.md quotes this file; tests/nix evaluates it
# with agenix's own Home Manager module): only paths reach the store.
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
