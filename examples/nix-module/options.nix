# The programs.agyconf values of home.nix (`cfg`), which adds the harness
# packages: the module then writes their profile paths (agyhook from
# hookPackage, xmsg and mempalace from the harnesses' packages) into the
# model's tools, here for a user whose profile is /home/me/.nix-profile.
#
# agyconf.json beside this file is what the module generates from home.nix
# (and validates at `home-manager build`); regenerate it with
#   AGYCONF_UPDATE_EXAMPLES=1 go test ./examples/
# which evaluates home.nix with tests/nix's stand-ins for Home Manager
# (tests/nix/scenarios.nix, scenario example-nix-module).
{
  cfg = {
    enable = true;
    product = "both";
    agyVersion = "1.5.0";

    mcpServers.github = {
      command = "github-mcp-server";
      args = [ "stdio" ];
      # A string, never a Nix path (that would copy the secret into the
      # store). With sops-nix: { file = config.sops.secrets.github-token.path; }
      env.GITHUB_PERSONAL_ACCESS_TOKEN = {
        file = "/run/secrets/github-token";
      };
    };

    hooks.audit.preToolUse = [
      {
        matcher = "run_command";
        handlers = [
          {
            command = "/usr/local/bin/audit-cmd";
            timeout = 5;
          }
        ];
      }
    ];

    rules.house-style.body = "Answer briefly. Quote file:line when pointing at code.";

    skills.release-notes = {
      description = "Write release notes from the pull requests merged since the last tag";
      body = "Read the pull requests merged since the last tag, group them by area, write one line each.";
    };

    permissions = {
      allow = [
        "command(git *)"
        "mcp(github/*)"
      ];
      deny = [ "command(rm -rf *)" ];
    };

    settings.toolPermission = "request-review";

    harnesses.xmsg.enable = true;
    harnesses.mempalace = {
      enable = true;
      saveInterval = 15;
    };
  };
}
