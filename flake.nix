{
  description = "agyconf: declarative config for Google Antigravity";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs =
    { self, nixpkgs }:
    let
      inherit (nixpkgs) lib;

      systems = [
        "x86_64-linux"
        "aarch64-linux"
        "x86_64-darwin"
        "aarch64-darwin"
      ];

      forAllSystems = f: lib.genAttrs systems (system: f system nixpkgs.legacyPackages.${system});

      # Both binaries from package.nix; `pkgs` is nixpkgs' package set for
      # the flake's packages and the overlay's `final` for overlays.default.
      mkPackages = pkgs: {
        agyconf = pkgs.callPackage ./package.nix { };
        agyhook = pkgs.callPackage ./package.nix { component = "agyhook"; };
      };

      # Home Manager modules are exported as paths: importing one twice
      # (sharedModules and home.nix, or default beside agyconf) is
      # harmless, and their packages default to pkgs.agyconf (with the
      # overlay) or else package.nix through pkgs.callPackage.
      homeModules = {
        # module.nix, with the compatibility option names.
        default = ./module.nix;
        # Without them, for use beside xmsg's own Home Manager module.
        agyconf = ./nix/module/agyconf.nix;
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

      homeManagerModules = homeModules;
      # The name Home Manager's own flake uses for module outputs.
      inherit homeModules;

      checks = forAllSystems (
        system: pkgs:
        let
          p = self.packages.${system};
        in
        {
          inherit (p) agyconf agyhook;
          # --offline: the builder is not the machine that renders.
          validate-example =
            pkgs.runCommand "agyconf-validate-example" { nativeBuildInputs = [ p.agyconf ]; }
              ''
                agyconf validate --offline --config ${./examples/nix-json}
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
