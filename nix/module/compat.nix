# The names xmsg's and MemPalace's own documentation use
# (docs/nix.md, "Compatibility names"): programs.xmsg.harnesses.agy and
# programs.mempalace.harnesses.agy, which enable programs.agyconf and its
# harness. Not beside xmsg's own Home Manager module, which declares
# programs.xmsg.harnesses.agy itself (import nix/module/agyconf.nix alone).
#
# As xmsg documents it, `programs.xmsg.harnesses.agy.enable = true` (with
# programs.antigravity-cli.enable = true) gives agy xmsg's MCP server,
# skill and hooks, installs xmsg and runs `xmsg serve --agy-exe`.
{
  config,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) mkOption types;
  opt = type: default: description: mkOption { inherit type default description; };
  same = what: "As {option}`programs.agyconf.harnesses.${what}`.";
  package =
    name:
    mkOption {
      type = types.nullOr types.package;
      default = pkgs.${name} or null;
      defaultText = lib.literalExpression "pkgs.${name} or null";
      description = same "${name}.package";
    };
  forward =
    name: from: names:
    lib.mkIf from.enable {
      programs.agyconf.enable = true;
      programs.agyconf.harnesses.${name} = {
        enable = true;
      }
      // lib.genAttrs names (n: lib.mkDefault from.${n});
    };
  xmsg = config.programs.xmsg.harnesses.agy;
  mempalace = config.programs.mempalace.harnesses.agy;
in
{
  key = "agyconf:nix/module/compat.nix";

  options.programs.xmsg.harnesses.agy = {
    enable = lib.mkEnableOption "xmsg in agy (its MCP server, hooks and skill, xmsg installed, and `xmsg serve --agy-exe` as a user service)";
    package = package "xmsg" // {
      description = "The xmsg package. xmsg ships from its own flake, so there may be no `pkgs.xmsg`: pass `inputs.xmsg.packages.\${pkgs.stdenv.hostPlatform.system}.default`.";
    };
    replyOnly = opt types.bool false (same "xmsg.replyOnly");
    legacyHooks = opt types.bool false (same "xmsg.legacyHooks");
    service.enable = opt types.bool true "A user service running `xmsg serve --agy-exe <agy>`; on by default, since xmsg's hooks need it.";
  };

  options.programs.mempalace.harnesses.agy = {
    enable = lib.mkEnableOption "MemPalace in agy (its MCP server, wake and save hooks, and skill), for the Antigravity IDE and any agy";
    package = package "mempalace";
    saveInterval = opt types.ints.positive 15 (same "mempalace.saveInterval");
    wake = opt types.bool true (same "mempalace.wake");
    save = opt types.bool true (same "mempalace.save");
  };

  config = lib.mkMerge [
    (forward "xmsg" xmsg [ "package" "replyOnly" "legacyHooks" "service" ])
    { programs.agyconf.harnesses.xmsg.via = lib.mkIf xmsg.enable "programs.xmsg.harnesses.agy"; }
    (forward "mempalace" mempalace [ "package" "saveInterval" "wake" "save" ])
  ];
}
