# agyconf and agyhook, for pkgs.callPackage: what the flake's packages and
# overlay build, and what the Home Manager module builds when pkgs has no
# agyconf, so that importing module.nix alone is enough (as sops-nix does):
#
#   pkgs.callPackage ./package.nix { }                         # agyconf
#   pkgs.callPackage ./package.nix { component = "agyhook"; }  # agyhook
{
  lib,
  buildGoModule,
  component ? "agyconf",
}:
let
  # The one place the version is written. It is linked into both binaries
  # (`agyconf version`, `agyhook version`).
  version = "0.1.0";

  components = {
    agyconf = {
      versionVar = "github.com/agyconf/agyconf/internal/cli.version";
      description = "Declarative config for Google Antigravity";
      packages = [ "cmd/agyconf" ];
    };
    agyhook = {
      versionVar = "main.version";
      description = "Hook handler agyconf renders into Google Antigravity's hooks";
      # agyhook-bridge, the MCP bridge of remote servers whose headers hold
      # a secret, is a program of its own so that the hooks load no HTTP
      # client; agyconf renders it from beside agyhook (docs/agyhook.md).
      packages = [
        "cmd/agyhook"
        "cmd/agyhook-bridge"
      ];
    };
  };
  c =
    components.${component}
      or (throw "agyconf's package.nix builds ${lib.concatStringsSep " or " (lib.attrNames components)}, not ${component}");
in
buildGoModule {
  pname = component;
  inherit version;

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

  subPackages = c.packages;
  # urfave/cli's markdown and man page writers (docs.go) are not used:
  # agyconf writes its own man page (internal/cli/man.go). Without them
  # blackfriday and its package init (0.7-1.3 ms a start) are not linked
  # (the seventh pass in docs/benchmarks.md's history).
  tags = [ "urfave_cli_no_docs" ];
  env.CGO_ENABLED = 0;
  ldflags = [
    "-s"
    "-w"
    "-X ${c.versionVar}=${version}"
  ];
  # `go test` runs in CI. cmd/agyhook's end-to-end tests are
  # timing-sensitive and spawn shells with a PATH of
  # /usr/local/bin:/usr/bin:/bin, which the build sandbox lacks.
  doCheck = false;
  meta = {
    inherit (c) description;
    homepage = "https://github.com/agyconf/agyconf";
    license = lib.licenses.mit; # LICENSE
    mainProgram = component;
  };
}
