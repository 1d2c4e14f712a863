# Evaluates flake.nix's outputs against the nixpkgs stand-in (fake-pkgs.nix)
# and returns a JSON-printable summary for tests/nix/flake_test.go:
#
#   nix-instantiate --eval --strict --json --store dummy:// \
#     tests/nix/flake/eval.nix --argstr root "$PWD"
#
# `self` is the fixpoint of the outputs, as Nix's flake machinery makes it
# (plus outPath; no rev, as for a dirty tree). With `unsupported = true` it
# instead forces the Home Manager module's package default on a system the
# flake does not build for, which must fail with the flake's own message.
{
  root,
  unsupported ? false,
}:
let
  rootPath = /. + root;
  nixpkgs = import ./fake-pkgs.nix;
  flake = import (rootPath + "/flake.nix");
  outputs = flake.outputs { inherit self nixpkgs; };
  self = outputs // {
    outPath = root;
  };

  # What Home Manager passes a module, reduced to what the wrapper reads.
  hmArgs = system: {
    pkgs = nixpkgs.legacyPackages.${system} or (nixpkgs.mkPkgs system "hm");
    inherit (nixpkgs) lib;
  };
  hm =
    name: system:
    let
      m = outputs.homeManagerModules.${name};
      r = m (hmArgs system);
    in
    {
      isFunction = builtins.isFunction m;
      attrNames = builtins.attrNames r;
      imports = map toString r.imports;
      inherit (r.config.programs.agyconf) package hookPackage;
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
if unsupported then
  (hm "default" "riscv64-linux").package.content.pname
else
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
    hm = {
      default = hm "default" "x86_64-linux";
      agyconf = hm "agyconf" "aarch64-darwin";
    };
  }
