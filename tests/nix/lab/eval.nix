# Evaluates one scenario of tests/nix/scenarios.nix inside the real Home
# Manager module system, with the real nixpkgs lib and the nixlab's stub
# pkgs (../../../../shared/nixlab; its README says how to set it up), and
# prints the same summary as ../standin/eval.nix (../summary.nix), which
# tests/nix/module_test.go checks when NIXLAB_DIR is set. Nothing of Home
# Manager or nixpkgs is in this repository: labDir holds them.
#
#   nix-instantiate --eval --strict --json --store dummy:// tests/nix/lab/eval.nix \
#     --argstr labDir "$NIXLAB_DIR" --arg scenarios ./tests/nix/scenarios.nix --argstr name plain
{
  scenarios,
  name,
  labDir,
  # sops-nix's and agenix's trees, outside any git work tree: their real
  # Home Manager modules are what the recipes import here.
  sopsNix,
  agenix,
}:
let
  s = (import scenarios).${name};
  system = s.system or "x86_64-linux";
  darwin = builtins.match ".*-darwin" system != null;
  stubPkgs = import (/. + "${labDir}/sparse-nixpkgs/stub-pkgs.nix") { inherit system; };
  hm = /. + "${labDir}/hm";
  lib = import (hm + "/modules/lib/stdlib-extended.nix") stubPkgs.lib;
  res = import (hm + "/modules") {
    pkgs = stubPkgs;
    extraSpecialArgs.secretModules = {
      sops = /. + "${sopsNix}/modules/home-manager/sops.nix";
      agenix = /. + "${agenix}/modules/age-home.nix";
    };
    configuration.imports = [
      ../../../module.nix
      {
        home.username = "demo";
        home.homeDirectory = if darwin then "/Users/demo" else "/home/demo";
        home.stateVersion = "25.05";
        nixpkgs.system = system;
        nixpkgs.overlays = [ (import ../packages.nix (lib.optionalAttrs (s ? packages) { names = s.packages; })) ];
      }
      (lib.setDefaultModuleLocation "${toString scenarios}#${name}" s.module)
    ];
  };
in
import ../summary.nix {
  inherit lib;
  inherit (res) config options;
}
