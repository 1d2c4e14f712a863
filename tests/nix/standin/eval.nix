# Evaluates one scenario of tests/nix/scenarios.nix with the stand-ins of
# this folder — module system, Home Manager options, pkgs — and prints the
# summary tests/nix/module_test.go checks (../summary.nix). Failed
# assertions throw, as Home Manager's do.
#
#   nix-instantiate --eval --strict --json --store dummy:// \
#     tests/nix/standin/eval.nix --arg scenarios ./tests/nix/scenarios.nix --argstr name plain
{ scenarios, name }:
let
  lib = import ./lib.nix;
  s = (import scenarios).${name};
  system = s.system or "x86_64-linux";
  darwin = lib.hasSuffix "-darwin" system;
  base = {
    home.username = "demo";
    home.homeDirectory = if darwin then "/Users/demo" else "/home/demo";
    home.stateVersion = "25.05";
    nixpkgs.overlays = [ (import ../packages.nix (lib.optionalAttrs (s ? packages) { names = s.packages; })) ];
  };
  res = lib.evalModules {
    modules = [
      ./home.nix
      ./programs/mcp.nix
      ./programs/antigravity-cli.nix
      ../../../module.nix
      base
      {
        _file = "${toString scenarios}#${name}";
        imports = [ s.module ];
      }
    ];
    specialArgs = {
      pkgsFrom = config: import ./pkgs.nix {
        inherit lib system;
        inherit (config.nixpkgs) overlays;
      };
      secretModules = {
        sops = ./programs/sops-nix.nix;
        agenix = ./programs/agenix.nix;
      };
    };
  };
  failed = map (a: a.message) (lib.filter (a: !a.assertion) res.config.assertions);
in
if failed != [ ] then
  throw "\nFailed assertions:\n${lib.concatMapStringsSep "\n" (m: "- ${m}") failed}"
else
  import ../summary.nix {
    inherit lib;
    inherit (res) config options;
  }
