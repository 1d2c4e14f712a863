# A stand-in for agenix's Home Manager module, for CI: the paths it hands
# out as its module defines them (modules/age-home.nix), a secret's `path`
# defaulting to "<secretsDir>/<name>", secretsDir being
# "${XDG_RUNTIME_DIR}/agenix" on Linux and
# "$(<getconf>/bin/getconf DARWIN_USER_TEMP_DIR)/agenix" on darwin, text a
# shell expands. It decrypts nothing here.
{
  config,
  lib,
  pkgs,
  ...
}:
let
  inherit (lib) mkOption types;
  base =
    if pkgs.stdenv.hostPlatform.isDarwin then
      "$(${lib.getExe pkgs.getconf} DARWIN_USER_TEMP_DIR)"
    else
      "\${XDG_RUNTIME_DIR}";
in
{
  key = "standin/programs/agenix.nix";
  options.age = {
    identityPaths = mkOption {
      type = types.listOf types.str;
      default = [ "${config.home.homeDirectory}/.ssh/id_ed25519" ];
    };
    secretsDir = mkOption {
      type = types.str;
      default = "${base}/agenix";
    };
    secrets = mkOption {
      type = types.attrsOf (
        types.submodule (
          { name, ... }:
          {
            options.file = mkOption { type = types.path; };
            options.path = mkOption {
              type = types.str;
              default = "${config.age.secretsDir}/${name}";
            };
          }
        )
      );
      default = { };
    };
  };
}
