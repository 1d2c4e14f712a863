# A stand-in for sops-nix's Home Manager module, for CI: the paths it hands
# out as its module defines them (modules/home-manager/sops.nix), a
# secret's `path` defaulting to "<defaultSymlinkPath>/<name>", which is
# "$XDG_CONFIG_HOME/sops-nix/secrets"; "%r/…" when a user names the
# runtime folder (its README's own example). It decrypts nothing here.
{ config, lib, ... }:
let
  inherit (lib) mkOption types;
  cfg = config.sops;
in
{
  key = "standin/programs/sops-nix.nix";
  options.sops = {
    defaultSopsFile = mkOption {
      type = types.nullOr types.path;
      default = null;
    };
    age.keyFile = mkOption {
      type = types.nullOr types.str;
      default = null;
    };
    defaultSymlinkPath = mkOption {
      type = types.str;
      default = "${config.xdg.configHome}/sops-nix/secrets";
    };
    secrets = mkOption {
      type = types.attrsOf (
        types.submodule (
          { name, ... }:
          {
            options.path = mkOption {
              type = types.str;
              default = "${cfg.defaultSymlinkPath}/${name}";
            };
            options.key = mkOption {
              type = types.str;
              default = name;
            };
          }
        )
      );
      default = { };
    };
  };
}
