# A stand-in for the pkgs Home Manager hands its modules, for CI (no
# nixpkgs here; tests/nix/lab/ uses the nixlab's stub pkgs with the real
# nixpkgs lib, and the same package stubs as below). Nothing builds:
# derivations are records with placeholder store paths, builders keep their
# inputs (env, text) for the scenarios to look at.
#
#   import ./pkgs.nix { lib; system; overlays; }
{
  lib,
  system ? "x86_64-linux",
  overlays ? [ ],
}:
let
  isDarwin = lib.hasSuffix "-darwin" system;
  fakeDrv =
    name: extra:
    let
      drv = {
        type = "derivation";
        inherit name;
        pname = (builtins.parseDrvName name).name;
        outPath = "/nix/store/00000000000000000000000000000000-${name}";
        drvPath = "/nix/store/00000000000000000000000000000000-${name}.drv";
        meta.mainProgram = (builtins.parseDrvName name).name;
      }
      // extra;
    in
    drv // { out = drv; };
  nameOf = a: a.name or "${a.pname}-${a.version or "0"}";
  withText = name: text: fakeDrv name { inherit text; };

  base = self: {
    inherit lib;
    stdenv = {
      hostPlatform = {
        inherit system isDarwin;
        isLinux = !isDarwin;
      };
      inherit isDarwin;
      isLinux = !isDarwin;
    };
    stub = { inherit fakeDrv; };
    formats.json = _: {
      type = lib.types.json;
      generate = name: value: fakeDrv name { json = builtins.toJSON value; };
    };
    runCommand = name: env: cmd: fakeDrv name { inherit env cmd; };
    writeText = withText;
    writeTextDir = p: withText (baseNameOf p);
    writeShellScript = withText;
    writeShellScriptBin = withText;
    symlinkJoin = a: fakeDrv a.name { inherit (a) paths; };
    buildGoModule = a: fakeDrv (nameOf a) { drvAttrs = a; };
    callPackage =
      f: args:
      let
        fn = if builtins.isFunction f then f else import f;
      in
      fn (builtins.intersectAttrs (builtins.functionArgs fn) self // args);
    coreutils = fakeDrv "coreutils-9.5" { };
  };
  fix = f: let x = f x; in x;
in
fix (self: builtins.foldl' (acc: ov: acc // ov self acc) (base self) overlays)
