# A builtins-only stand-in for the nixpkgs flake input, just big enough to
# evaluate flake.nix's outputs without nixpkgs or a network: `lib` has the
# functions flake.nix calls, with nixpkgs' semantics where it matters
# (fileContents, mkDefault, genAttrs); builders record their arguments
# instead of producing derivations. Paths are recorded with toString so
# that printing the result as JSON copies nothing into a store.
#
# `builder` tags each package set, so a test can tell which set's
# buildGoModule built a package (legacyPackages.<system> vs an overlay's
# final).
let
  systems = [
    "x86_64-linux"
    "aarch64-linux"
    "x86_64-darwin"
    "aarch64-darwin"
  ];

  lib = rec {
    genAttrs =
      names: f:
      builtins.listToAttrs (
        map (name: {
          inherit name;
          value = f name;
        }) names
      );

    removeSuffix =
      suffix: s:
      let
        ls = builtins.stringLength s;
        lx = builtins.stringLength suffix;
      in
      if lx <= ls && builtins.substring (ls - lx) lx s == suffix then
        builtins.substring 0 (ls - lx) s
      else
        s;

    # nixpkgs: fileContents = file: removeSuffix "\n" (readFile file)
    fileContents = file: removeSuffix "\n" (builtins.readFile file);

    concatStringsSep = builtins.concatStringsSep;
    attrNames = builtins.attrNames;

    # nixpkgs: lib.licenses.mit is an attrset; spdxId is what the test reads.
    licenses.mit = {
      spdxId = "MIT";
      shortName = "mit";
    };

    mkOverride = priority: content: {
      _type = "override";
      inherit priority content;
    };
    mkDefault = mkOverride 1000;

    fileset = {
      unions = paths: {
        _type = "fileset";
        paths = map (
          p:
          assert builtins.isPath p;
          assert builtins.pathExists p;
          toString p
        ) paths;
      };
      toSource =
        { root, fileset }:
        assert builtins.isPath root;
        assert fileset._type or null == "fileset";
        {
          _type = "toSource";
          root = toString root;
          inherit (fileset) paths;
          outPath = "/nix/store/00000000000000000000000000000000-source";
        };
    };
  };

  # A package set for one system. `tag` names it in what its builders record.
  mkPkgs =
    system: tag:
    let
      fake = pname: {
        inherit pname;
        outPath = "/nix/store/00000000000000000000000000000000-${pname}";
      };
    in
    rec {
      stdenv.hostPlatform.system = system;

      # nixpkgs: callPackage fills a function's arguments from the set.
      callPackage =
        f: args:
        let
          fn = import f;
        in
        fn (builtins.intersectAttrs (builtins.functionArgs fn) { inherit lib buildGoModule; } // args);

      buildGoModule =
        args:
        args
        // {
          _builder = "buildGoModule";
          _set = tag;
          outPath = "/nix/store/00000000000000000000000000000000-${args.pname}-${args.version}";
        };

      runCommand = name: env: command: {
        _builder = "runCommand";
        _set = tag;
        inherit name env command;
        outPath = "/nix/store/00000000000000000000000000000000-${name}";
      };

      mkShell = args: {
        _builder = "mkShell";
        _set = tag;
        packages = map (p: p.pname) (args.packages or [ ]);
        outPath = "/nix/store/00000000000000000000000000000000-shell";
      };

      go = fake "go";
      gopls = fake "gopls";
      nixfmt = fake "nixfmt";
      nil = fake "nil";
    };
in
{
  inherit lib mkPkgs systems;
  legacyPackages = lib.genAttrs systems (system: mkPkgs system "legacyPackages.${system}");
}
