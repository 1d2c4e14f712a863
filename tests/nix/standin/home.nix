# A stand-in for the Home Manager options nix/module/*.nix and the
# scenarios use, with Home Manager's defaults and activation entries, for CI
# (tests/nix/lab/ evaluates the same scenarios in the real Home Manager).
# Written here from Home Manager's documented behaviour; nothing in it is
# Home Manager's code.
{ config, lib, pkgs, ... }:
let
  inherit (lib) mkOption types;
  fileType = types.attrsOf (
    types.submodule (
      { name, ... }:
      {
        options = {
          enable = mkOption {
            type = types.bool;
            default = true;
          };
          target = mkOption {
            type = types.str;
            default = name;
          };
          text = mkOption {
            type = types.nullOr types.lines;
            default = null;
          };
          source = mkOption {
            type = types.nullOr types.path;
            default = null;
          };
          force = mkOption {
            type = types.bool;
            default = false;
          };
          onChange = mkOption {
            type = types.lines;
            default = "";
          };
          recursive = mkOption {
            type = types.bool;
            default = false;
          };
          executable = mkOption {
            type = types.nullOr types.bool;
            default = null;
          };
        };
      }
    )
  );
  dagEntry = types.attrs;
  unit = types.attrsOf types.attrs;
in
{
  key = "standin:home.nix";

  options = {
    assertions = mkOption {
      type = types.listOf types.attrs;
      default = [ ];
    };
    warnings = mkOption {
      type = types.listOf types.str;
      default = [ ];
    };
    nixpkgs.overlays = mkOption {
      type = types.listOf types.raw;
      default = [ ];
    };
    nixpkgs.system = mkOption {
      type = types.str;
      default = pkgs.stdenv.hostPlatform.system;
    };
    home = {
      username = mkOption { type = types.str; };
      homeDirectory = mkOption { type = types.str; };
      stateVersion = mkOption { type = types.str; };
      profileDirectory = mkOption {
        type = types.str;
        default = "${config.home.homeDirectory}/.nix-profile";
      };
      packages = mkOption {
        type = types.listOf types.package;
        default = [ ];
      };
      file = mkOption {
        type = fileType;
        default = { };
      };
      activation = mkOption {
        type = types.attrsOf dagEntry;
        default = { };
      };
    };
    xdg = {
      configHome = mkOption {
        type = types.str;
        default = "${config.home.homeDirectory}/.config";
      };
      configFile = mkOption {
        type = fileType;
        default = { };
      };
    };
    systemd.user = {
      services = mkOption {
        type = types.attrsOf unit;
        default = { };
      };
      paths = mkOption {
        type = types.attrsOf unit;
        default = { };
      };
    };
    launchd.agents = mkOption {
      type = types.attrsOf (
        types.submodule {
          options = {
            enable = mkOption {
              type = types.bool;
              default = false;
            };
            config = mkOption {
              type = types.attrs;
              default = { };
            };
          };
        }
      );
      default = { };
    };
  };

  config = {
    # Home Manager's own steps, in its order (modules/files.nix,
    # home-environment.nix, systemd.nix, launchd/).
    home.activation =
      {
        checkLinkTargets = lib.hm.dag.entryBefore [ "writeBoundary" ] "checkNewGenCollision";
        writeBoundary = lib.hm.dag.entryAnywhere "# write boundary";
        checkFilesChanged = lib.hm.dag.entryBefore [ "linkGeneration" ] "# changed files";
        linkGeneration = lib.hm.dag.entryAfter [ "writeBoundary" ] "cleanOldGen; linkNewGen";
        onFilesChange = lib.hm.dag.entryAfter [ "linkGeneration" ] "# onChange";
        installPackages = lib.hm.dag.entryAfter [ "writeBoundary" ] "nix-env -i";
      }
      // (
        if pkgs.stdenv.hostPlatform.isDarwin then
          { setupLaunchAgents = lib.hm.dag.entryAfter [ "writeBoundary" ] "# launchctl bootstrap"; }
        else
          { reloadSystemd = lib.hm.dag.entryAfter [ "linkGeneration" ] "# systemctl daemon-reload"; }
      );
    assertions = [
      {
        assertion = config.systemd.user.services == { } && config.systemd.user.paths == { } || !pkgs.stdenv.hostPlatform.isDarwin;
        message = "The module systemd does not support your platform. It only supports linux.";
      }
      {
        assertion = lib.filterAttrs (_: a: a.enable) config.launchd.agents == { } || pkgs.stdenv.hostPlatform.isDarwin;
        message = "The module launchd does not support your platform. It only supports darwin.";
      }
    ];
  };
}
