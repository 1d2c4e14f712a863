# Evaluates flake.nix's outputs against the nixpkgs stand-in (fake-pkgs.nix)
# and returns a JSON-printable summary for tests/nix/flake_test.go:
#
#   nix-instantiate --eval --strict --json --store dummy:// \
#     tests/nix/flake/eval.nix --argstr root "$PWD"
#
# `self` is the fixpoint of the outputs, as Nix's flake machinery makes it
# (plus outPath; no rev, as for a dirty tree).
{ root }:
let
  rootPath = /. + root;
  nixpkgs = import ./fake-pkgs.nix;
  flake = import (rootPath + "/flake.nix");
  outputs = flake.outputs { inherit self nixpkgs; };
  self = outputs // {
    outPath = root;
  };

  # The stand-in's records carry an outPath so that they interpolate like
  # derivations; toJSON would print only that, so drop it (recursively).
  show =
    v:
    if builtins.isAttrs v then
      builtins.mapAttrs (_: show) (builtins.removeAttrs v [ "outPath" ])
    else if builtins.isList v then
      map show v
    else
      v;

  overlay = outputs.overlays.default (nixpkgs.mkPkgs "x86_64-linux" "final") (
    nixpkgs.mkPkgs "x86_64-linux" "prev"
  );
in
show {
  inherit (flake) description inputs;
  outputArgs = builtins.functionArgs flake.outputs;
  outputNames = builtins.attrNames outputs;
  inherit (nixpkgs) systems;
  inherit (outputs)
    packages
    checks
    devShells
    formatter
    ;
  overlayIsFunction = builtins.isFunction outputs.overlays.default;
  inherit overlay;
  # Home Manager modules are paths (imported twice, they are one module).
  homeManagerModules = builtins.mapAttrs (_: toString) outputs.homeManagerModules;
  homeModules = builtins.mapAttrs (_: toString) outputs.homeModules;
}
