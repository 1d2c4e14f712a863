# The programs.agyconf values of home.nix, as nix/model.nix takes them:
# `cfg` is the option set, `tools` the profile paths the module adds for
# the packages (agyhook from hookPackage, xmsg and mempalace from the
# harnesses' packages), here for a user whose profile is
# /home/me/.nix-profile.
#
# agyconf.json beside this file is what the module generates from these
# values (and validates at `home-manager build`); regenerate it with
#   AGYCONF_UPDATE_EXAMPLES=1 go test ./examples/
# which evaluates
#   nix-instantiate --eval --strict --json --store dummy:// \
#     -E 'import ../../nix/model.nix (import ./options.nix)'
# in this folder.
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

  tools = {
    agyhook = "/home/me/.nix-profile/bin/agyhook";
    mempalace = "/home/me/.nix-profile/bin/mempalace";
    mempalace-mcp = "/home/me/.nix-profile/bin/mempalace-mcp";
    xmsg = "/home/me/.nix-profile/bin/xmsg";
  };
}
