{
  description = "agyconf: declarative config for Google Antigravity";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs =
    { self, nixpkgs }:
    let
      inherit (nixpkgs) lib;

      # The one place the version is written. It is linked into both binaries
      # (`agyconf version`, `agyhook version`).
      version = "0.1.0";

      systems = [
        "x86_64-linux"
        "aarch64-linux"
        "x86_64-darwin"
        "aarch64-darwin"
      ];

      forAllSystems = f: lib.genAttrs systems (system: f system nixpkgs.legacyPackages.${system});

      # Only what the Go build reads: the module files and the package trees.
      # schema/ and templates/ hold //go:embed files. scripts/vendor-hash.sh
      # vendors exactly this list (SRC_PATHS); tests/nix/flake_test.go checks
      # that the two agree.
      src = lib.fileset.toSource {
        root = ./.;
        fileset = lib.fileset.unions [
          ./go.mod
          ./go.sum
          ./cmd
          ./internal
          ./schema
          ./templates
        ];
      };

      # Recompute with scripts/vendor-hash.sh --write after changing go.mod,
      # go.sum or the imports.
      vendorHash = lib.fileContents ./nix/vendor-hash;

      # Both binaries from one builder; `pkgs` is nixpkgs' package set for the
      # flake's packages and the overlay's `final` for overlays.default.
      mkPackages =
        pkgs:
        let
          build =
            {
              pname,
              versionVar,
              description,
            }:
            pkgs.buildGoModule {
              inherit
                pname
                version
                src
                vendorHash
                ;
              subPackages = [ "cmd/${pname}" ];
              env.CGO_ENABLED = 0;
              ldflags = [
                "-s"
                "-w"
                "-X ${versionVar}=${version}"
              ];
              # `go test` runs in CI. cmd/agyhook's end-to-end tests are
              # timing-sensitive and spawn shells with a PATH of
              # /usr/local/bin:/usr/bin:/bin, which the build sandbox lacks.
              doCheck = false;
              meta = {
                inherit description;
                homepage = "https://github.com/agyconf/agyconf";
                license = lib.licenses.mit; # LICENSE
                mainProgram = pname;
              };
            };
        in
        {
          agyconf = build {
            pname = "agyconf";
            versionVar = "github.com/agyconf/agyconf/internal/cli.version";
            description = "Declarative config for Google Antigravity";
          };
          agyhook = build {
            pname = "agyhook";
            versionVar = "main.version";
            description = "Hook handler agyconf renders into Google Antigravity's hooks";
          };
        };

      # A Home Manager module: `imports` plus package defaults from this flake.
      mkHomeManagerModule =
        imports:
        { pkgs, lib, ... }:
        let
          system = pkgs.stdenv.hostPlatform.system;
          packages =
            self.packages.${system} or (throw (
              "agyconf: the flake has no packages for ${system} (it builds for "
              + lib.concatStringsSep ", " systems
              + "); set programs.agyconf.package and programs.agyconf.hookPackage yourself"
            ));
        in
        {
          inherit imports;
          config.programs.agyconf.package = lib.mkDefault packages.agyconf;
          config.programs.agyconf.hookPackage = lib.mkDefault packages.agyhook;
        };
    in
    {
      packages = forAllSystems (
        _system: pkgs:
        let
          p = mkPackages pkgs;
        in
        p // { default = p.agyconf; }
      );

      overlays.default = final: _prev: mkPackages final;

      homeManagerModules = {
        # module.nix, with the compatibility option names.
        default = mkHomeManagerModule [ ./module.nix ];
        # Without them, for use beside xmsg's own Home Manager module.
        agyconf = mkHomeManagerModule [ ./nix/module/agyconf.nix ];
      };

      checks = forAllSystems (
        system: pkgs:
        let
          p = self.packages.${system};
        in
        {
          inherit (p) agyconf agyhook;
          validate-example =
            pkgs.runCommand "agyconf-validate-example" { nativeBuildInputs = [ p.agyconf ]; }
              ''
                agyconf validate --config ${./examples/nix-json}
                touch $out
              '';
        }
      );

      devShells = forAllSystems (
        _system: pkgs: {
          default = pkgs.mkShell {
            packages = [
              pkgs.go
              pkgs.gopls
              pkgs.nixfmt
              pkgs.nil
            ];
          };
        }
      );

      formatter = forAllSystems (_system: pkgs: pkgs.nixfmt);
    };
}
