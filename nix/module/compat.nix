# Compatibility names (docs/nix.md "Compatibility names"):
# programs.xmsg.harnesses.agy and programs.mempalace.harnesses.agy, as xmsg's
# and MemPalace's own documentation spell them, forwarding to
# programs.agyconf.harnesses.*. Do not import this next to xmsg's own Home
# Manager module, which declares programs.xmsg.harnesses.agy itself.
#
# xmsg documents `programs.xmsg.harnesses.agy.enable = true` (with
# programs.antigravity-cli.enable = true) as giving agy "the MCP server,
# skill, --agy-exe, and ~/.gemini/config/hooks.json": that one line does,
# with xmsg installed and `xmsg serve --agy-exe` running as a user service
# (opt out with service.enable = false).
{
  config,
  lib,
  options,
  pkgs,
  ...
}:
let
  inherit (lib) mkOption types;

  xmsgAgy = config.programs.xmsg.harnesses.agy;
  mempalaceAgy = config.programs.mempalace.harnesses.agy;

  acliExists = options.programs ? antigravity-cli;
  acliEnabled = acliExists && config.programs.antigravity-cli.enable;

  bool =
    default: description:
    mkOption {
      type = types.bool;
      inherit default description;
    };
in
{
  key = "agyconf:nix/module/compat.nix";

  options.programs.xmsg.harnesses.agy = {
    enable = lib.mkEnableOption "xmsg in agy (MCP server, registration hooks, skill, and `xmsg serve --agy-exe` as a user service) through programs.agyconf.harnesses.xmsg, which this enables together with programs.agyconf";
    package = mkOption {
      type = types.nullOr types.package;
      default = pkgs.xmsg or null;
      defaultText = lib.literalExpression "pkgs.xmsg or null";
      description = ''
        The xmsg package: installed, its profile path written as `tools.xmsg`,
        and run by the service. xmsg ships from its own flake, so nixpkgs may
        have no `pkgs.xmsg`: pass `inputs.xmsg.packages.''${pkgs.stdenv.hostPlatform.system}.default`.
      '';
    };
    replyOnly = bool false "Forwarded to {option}`programs.agyconf.harnesses.xmsg.replyOnly`: run the xmsg MCP server with `--reply-only`.";
    legacyHooks = bool false "Forwarded to {option}`programs.agyconf.harnesses.xmsg.legacyHooks`: write the one published registration hook instead of the per-event ones.";
    service.enable = bool true "Forwarded to {option}`programs.agyconf.harnesses.xmsg.service.enable`: a user service running `xmsg serve --agy-exe <agy>` (systemd on Linux, launchd on darwin). On by default: the registration hooks need it.";
  };

  options.programs.mempalace.harnesses.agy = {
    enable = lib.mkEnableOption "MemPalace in agy (MCP server, wake and save hooks, skill) through programs.agyconf.harnesses.mempalace, which this enables together with programs.agyconf";
    package = mkOption {
      type = types.nullOr types.package;
      default = pkgs.mempalace or null;
      defaultText = lib.literalExpression "pkgs.mempalace or null";
      description = "Forwarded to {option}`programs.agyconf.harnesses.mempalace.package`; null runs `mempalace` and `mempalace-mcp` from agy's `PATH` (MemPalace's own installer puts them there).";
    };
    saveInterval = mkOption {
      type = types.ints.positive;
      default = 15;
      description = "Forwarded to {option}`programs.agyconf.harnesses.mempalace.saveInterval`: save every this many exchanges.";
    };
    wake = bool true "Forwarded to {option}`programs.agyconf.harnesses.mempalace.wake`: wake-up hook on the first invocation.";
    save = bool true "Forwarded to {option}`programs.agyconf.harnesses.mempalace.save`: save hook on Stop.";
  };

  config = lib.mkMerge [
    (lib.mkIf xmsgAgy.enable {
      programs.agyconf.enable = true;
      programs.agyconf.harnesses.xmsg = {
        enable = true;
        package = lib.mkDefault xmsgAgy.package;
        replyOnly = lib.mkDefault xmsgAgy.replyOnly;
        legacyHooks = lib.mkDefault xmsgAgy.legacyHooks;
        service.enable = lib.mkDefault xmsgAgy.service.enable;
      };
      assertions = [
        {
          assertion = config.programs.agyconf.harnesses.xmsg.package != null;
          message = ''
            programs.xmsg.harnesses.agy.package is null: there is no pkgs.xmsg, and xmsg ships
            from its own flake. Pass its package, e.g. with inputs.xmsg in your flake:
              programs.xmsg.harnesses.agy.package = inputs.xmsg.packages.''${pkgs.stdenv.hostPlatform.system}.default;
            (or add xmsg's overlay to nixpkgs.overlays, so that pkgs.xmsg exists).
          '';
        }
        {
          assertion =
            !config.programs.agyconf.harnesses.xmsg.service.enable
            || config.programs.agyconf.harnesses.xmsg.agyExe != null;
          message =
            if acliExists then
              ''
                programs.xmsg.harnesses.agy runs `xmsg serve --agy-exe <agy>`, and no agy is known:
                programs.antigravity-cli.enable is false. Set programs.antigravity-cli.enable = true
                (which installs agy), or programs.agyconf.harnesses.xmsg.agyExe to the agy executable,
                or programs.xmsg.harnesses.agy.service.enable = false to run xmsg serve yourself.
              ''
            else
              ''
                programs.xmsg.harnesses.agy runs `xmsg serve --agy-exe <agy>`, and no agy is known:
                this Home Manager has no programs.antigravity-cli module (it is too old). Set
                programs.agyconf.harnesses.xmsg.agyExe to the agy executable, or
                programs.xmsg.harnesses.agy.service.enable = false to run xmsg serve yourself.
              '';
        }
      ];
    })
    (lib.mkIf mempalaceAgy.enable {
      programs.agyconf.enable = true;
      programs.agyconf.harnesses.mempalace = {
        enable = true;
        package = lib.mkDefault mempalaceAgy.package;
        saveInterval = lib.mkDefault mempalaceAgy.saveInterval;
        wake = lib.mkDefault mempalaceAgy.wake;
        save = lib.mkDefault mempalaceAgy.save;
      };
      # MemPalace's plugin is for Antigravity (the IDE and agy), wherever
      # it comes from: Home Manager's agy is not needed, only worth saying.
      warnings = lib.optional (!acliEnabled) ''
        programs.mempalace.harnesses.agy: no agy is known to Home Manager (programs.antigravity-cli.enable
        is ${if acliExists then "false" else "not an option of this Home Manager"}): the MemPalace plugin is written for the
        Antigravity IDE and for any agy installed otherwise.'';
    })
  ];
}
