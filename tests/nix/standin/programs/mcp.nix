# A stand-in for Home Manager's programs.mcp: typed servers with freeform
# fields, as its documentation describes them.
{ config, lib, pkgs, ... }:
let
  inherit (lib) mkOption types;
  server = types.submodule {
    freeformType = types.json;
    options = {
      command = mkOption {
        type = types.nullOr types.str;
        default = null;
      };
      args = mkOption {
        type = types.listOf types.str;
        default = [ ];
      };
      env = mkOption {
        type = types.attrsOf (
          types.oneOf [
            types.str
            (types.submodule { options.file = mkOption { type = types.str; }; })
          ]
        );
        default = { };
      };
      url = mkOption {
        type = types.nullOr types.str;
        default = null;
      };
      headers = mkOption {
        type = types.attrsOf types.str;
        default = { };
      };
      enabled = mkOption {
        type = types.nullOr types.bool;
        default = null;
      };
    };
  };
in
{
  key = "standin/programs/mcp.nix";
  options.programs.mcp = {
    enable = lib.mkEnableOption "mcp";
    servers = mkOption {
      type = types.attrsOf server;
      default = { };
    };
  };
}
