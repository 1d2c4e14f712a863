# Secrets with sops-nix (docs/nix.md quotes this file; tests/nix evaluates
# it with sops-nix's own Home Manager module): only paths reach the store.
{ config, ... }:
{
  sops = {
    age.keyFile = "${config.home.homeDirectory}/.config/sops/age/keys.txt";
    defaultSopsFile = ./secrets.yaml;
    secrets.github-token = { }; # ~/.config/sops-nix/secrets/github-token
    secrets.linear-header.path = "%r/linear-header"; # in the runtime folder
  };

  programs.agyconf = {
    enable = true;
    mcpServers.github = {
      command = "github-mcp-server";
      args = [ "stdio" ];
      env.GITHUB_PERSONAL_ACCESS_TOKEN.file = config.sops.secrets.github-token.path;
    };
    mcpServers.linear = {
      url = "https://mcp.linear.app/sse";
      headers.Authorization.file = config.sops.secrets.linear-header.path;
    };
  };
}
