# A stand-in for Home Manager's programs.antigravity-cli, as its
# documentation describes it: agy installed, its MCP servers, settings,
# permissions, context files and skills written as read-only links, and
# enableMcpIntegration folding programs.mcp in — a server with secret files
# through a wrapper script (a derivation), each field a default.
{ config, lib, pkgs, ... }:
let
  inherit (lib) mkOption types;
  cfg = config.programs.antigravity-cli;
  json = types.json;
  legacy = cfg.useLegacyGeminiConfig || lib.getName cfg.package == "gemini-cli";
  isFileRef = v: builtins.isAttrs v && v ? file;
  fromMcp =
    name: s:
    let
      files = lib.filterAttrs (_: isFileRef) s.env;
      literal = lib.filterAttrs (_: v: !(isFileRef v)) s.env;
      wrapped =
        s
        // lib.optionalAttrs (files != { } && s.command != null) {
          command = pkgs.writeShellScript "mcp-${name}-wrapper" "exec ${s.command}";
          args = [ ];
          env = literal;
        };
      typed = wrapped // { type = if s.url != null then "http" else "stdio"; };
    in
    lib.mapAttrs (_: lib.mkDefault) (lib.filterAttrs (_: v: v != null && v != [ ] && v != { }) typed);
  mcpServers = lib.recursiveUpdate (cfg.settings.mcpServers or { }) cfg.mcpServers;
  settings = lib.recursiveUpdate (lib.optionalAttrs (cfg.permissions != null) { inherit (cfg) permissions; }) (
    removeAttrs cfg.settings [ "mcpServers" ]
  );
in
{
  key = "standin/programs/antigravity-cli.nix";
  options.programs.antigravity-cli = {
    enable = lib.mkEnableOption "agy";
    package = mkOption {
      type = types.nullOr types.package;
      default = pkgs.antigravity-cli;
    };
    useLegacyGeminiConfig = mkOption {
      type = types.bool;
      default = false;
    };
    enableMcpIntegration = mkOption {
      type = types.bool;
      default = false;
    };
    mcpServers = mkOption {
      type = json;
      default = { };
    };
    settings = mkOption {
      type = json;
      default = { };
    };
    permissions = mkOption {
      type = types.nullOr json;
      default = null;
    };
    context = mkOption {
      type = types.attrsOf (types.either types.path types.lines);
      default = { };
    };
    skills = mkOption {
      type = types.attrsOf types.lines;
      default = { };
    };
  };
  config = lib.mkIf cfg.enable (
    lib.mkMerge [
      { home.packages = lib.optional (cfg.package != null) cfg.package; }
      {
        home.file = lib.mapAttrs' (
          n: v: lib.nameValuePair ".gemini/${n}.md" (if builtins.isPath v then { source = v; } else { text = v; })
        ) cfg.context;
      }
      (lib.mkIf legacy {
        home.file.".gemini/settings.json" = lib.mkIf (settings != { } || mcpServers != { }) {
          source = (pkgs.formats.json { }).generate "gemini-cli-settings.json" (settings // { inherit mcpServers; });
        };
      })
      (lib.mkIf (!legacy) {
        programs.antigravity-cli.mcpServers = lib.mkIf (cfg.enableMcpIntegration && config.programs.mcp.enable) (
          lib.mapAttrs fromMcp config.programs.mcp.servers
        );
        home.file =
          lib.optionalAttrs (settings != { }) {
            ".gemini/antigravity-cli/settings.json".source = (pkgs.formats.json { }).generate "antigravity-cli-settings.json" settings;
          }
          // lib.optionalAttrs (mcpServers != { }) {
            ".gemini/config/mcp_config.json".source = (pkgs.formats.json { }).generate "antigravity-cli-mcp-config.json" {
              inherit mcpServers;
            };
          }
          // lib.mapAttrs' (n: v: lib.nameValuePair ".gemini/antigravity-cli/skills/${n}/SKILL.md" { text = v; }) cfg.skills;
      })
    ]
  );
}
