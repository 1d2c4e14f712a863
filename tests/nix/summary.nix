# What a scenario's evaluation is checked on (tests/nix/module_test.go):
# the same summary of the configuration, whether the module system and
# Home Manager are the stand-ins of ./standin (CI) or the real ones
# (./lab, the nixlab).
{
  lib,
  config,
  options,
}:
let
  cfg = config.programs.agyconf;
  # agyconf's and agyhook's store paths, and where the configuration
  # names them: a module never enabled must name neither (it would build
  # them).
  stores = lib.filter (p: p != "") (map (p: if p == null then "" else toString p) [ cfg.package cfg.hookPackage ]);
  names = text: lib.any (p: lib.hasInfix p text) stores;
  # Home Manager's steps and the module's, in activation order.
  known = [
    "checkLinkTargets"
    "agyconfCheck"
    "writeBoundary"
    "checkFilesChanged"
    "linkGeneration"
    "agyconf"
    "agyconfDoctor"
    "agyconfClean"
    "installPackages"
    "onFilesChange"
    "reloadSystemd"
    "setupLaunchAgents"
  ];
  byInfix = xs: lib.filterAttrs (n: _: lib.any (x: lib.hasInfix x n) xs);
  nonNull = lib.filterAttrs (_: v: v != null);
  drvName = p: if p == null then null else p.name;
in
{
  inherit (cfg) enable generated;
  package = drvName cfg.package;
  hookPackage = drvName cfg.hookPackage;
  activation = lib.mapAttrs (_: e: { inherit (e) after before data; }) (byInfix [ "agyconf" ] config.home.activation);
  order = lib.filter (n: lib.elem n known) (map (e: e.name) (lib.hm.dag.topoSort config.home.activation).result);
  files = lib.mapAttrs (_: f: { inherit (f) enable; }) (byInfix [ ".gemini" ] config.home.file);
  configFile = lib.mapAttrs (_: f: {
    source = toString f.source;
    cmd = f.source.cmd or null;
  }) (byInfix [ "agyconf" ] config.xdg.configFile);
  services = byInfix [ "agyconf" "xmsg" ] config.systemd.user.services;
  paths = byInfix [ "agyconf" ] config.systemd.user.paths;
  agents = lib.mapAttrs (_: a: {
    inherit (a) enable;
    config = nonNull a.config;
  }) (byInfix [ "agyconf" "xmsg" ] config.launchd.agents);
  packages = map lib.getName config.home.packages;
  inherit (config) warnings;
  mentions =
    lib.attrNames (lib.filterAttrs (_: e: names e.data) (byInfix [ "agyconf" ] config.home.activation))
    ++ lib.optional (lib.any (p: lib.elem (toString p) stores) config.home.packages) "home.packages"
    ++ lib.optional (names (builtins.toJSON (lib.mapAttrs (_: f: toString f.source) config.xdg.configFile))) "xdg.configFile"
    ++ lib.optional (names (builtins.toJSON config.systemd.user.services)) "systemd.user.services";
  descriptions = lib.mapAttrs (_: o: o.description) { inherit (options.programs.agyconf) watchSecrets cleanOnDisable; };
}
