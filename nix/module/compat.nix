# Compatibility names (docs/nix.md "Compatibility names"):
# programs.xmsg.harnesses.agy and programs.mempalace.harnesses.agy, as xmsg's
# and MemPalace's own documentation spell them, forwarding to
# programs.agyconf.harnesses.*. Do not import this next to xmsg's own Home
# Manager module, which declares programs.xmsg.harnesses.agy itself.
{
  config,
  lib,
  options,
  ...
}:
let
  inherit (lib) mkOption types;

  xmsgAgy = config.programs.xmsg.harnesses.agy;
  mempalaceAgy = config.programs.mempalace.harnesses.agy;
  anyEnabled = xmsgAgy.enable || mempalaceAgy.enable;

  acliExists = options.programs ? antigravity-cli;
  acliEnabled = acliExists && config.programs.antigravity-cli.enable;

  enabledNames =
    lib.optional xmsgAgy.enable "programs.xmsg.harnesses.agy.enable"
    ++ lib.optional mempalaceAgy.enable "programs.mempalace.harnesses.agy.enable";

  bool =
    default: description:
    mkOption {
      type = types.bool;
      inherit default description;
    };
in
{
  options.programs.xmsg.harnesses.agy = {
    enable = lib.mkEnableOption "xmsg in agy (MCP server, registration hooks, skill) through programs.agyconf.harnesses.xmsg, which this enables together with programs.agyconf; needs programs.antigravity-cli.enable";
    replyOnly = bool false "Forwarded to {option}`programs.agyconf.harnesses.xmsg.replyOnly`: run the xmsg MCP server with `--reply-only`.";
    legacyHooks = bool false "Forwarded to {option}`programs.agyconf.harnesses.xmsg.legacyHooks`: write the one published registration hook instead of the per-event ones.";
    service.enable = bool false "Forwarded to {option}`programs.agyconf.harnesses.xmsg.service.enable`: a systemd user service running `xmsg serve --agy-exe <agy>`.";
  };

  options.programs.mempalace.harnesses.agy = {
    enable = lib.mkEnableOption "MemPalace in agy (MCP server, wake and save hooks, skill) through programs.agyconf.harnesses.mempalace, which this enables together with programs.agyconf; needs programs.antigravity-cli.enable";
    saveInterval = mkOption {
      type = types.ints.positive;
      default = 15;
      description = "Forwarded to {option}`programs.agyconf.harnesses.mempalace.saveInterval`: save every this many exchanges.";
    };
    wake = bool true "Forwarded to {option}`programs.agyconf.harnesses.mempalace.wake`: wake-up hook on the first invocation.";
    save = bool true "Forwarded to {option}`programs.agyconf.harnesses.mempalace.save`: save hook on Stop.";
  };

  config = lib.mkIf anyEnabled (
    lib.mkMerge [
      {
        programs.agyconf.enable = true;
        assertions = [
          {
            assertion = acliEnabled;
            message =
              if acliExists then
                ''
                  ${lib.concatStringsSep " and " enabledNames}: these names promise to wire the
                  harness into agy, which programs.antigravity-cli installs, but
                  programs.antigravity-cli.enable is false.
                  Set programs.antigravity-cli.enable = true, or use programs.agyconf.harnesses.*
                  directly if agy comes from elsewhere.
                ''
              else
                ''
                  ${lib.concatStringsSep " and " enabledNames}: these names promise to wire the
                  harness into agy, which programs.antigravity-cli installs, but this Home Manager
                  has no programs.antigravity-cli module (it is too old). Update Home Manager, or use
                  programs.agyconf.harnesses.* directly if agy comes from elsewhere.
                '';
          }
        ];
      }
      (lib.mkIf xmsgAgy.enable {
        programs.agyconf.harnesses.xmsg = {
          enable = true;
          replyOnly = lib.mkDefault xmsgAgy.replyOnly;
          legacyHooks = lib.mkDefault xmsgAgy.legacyHooks;
          service.enable = lib.mkDefault xmsgAgy.service.enable;
        };
      })
      (lib.mkIf mempalaceAgy.enable {
        programs.agyconf.harnesses.mempalace = {
          enable = true;
          saveInterval = lib.mkDefault mempalaceAgy.saveInterval;
          wake = lib.mkDefault mempalaceAgy.wake;
          save = lib.mkDefault mempalaceAgy.save;
        };
      })
    ]
  );
}
