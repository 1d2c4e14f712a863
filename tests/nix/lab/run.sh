#!/bin/sh
# Evaluate module.nix (programs.agyconf and the compatibility names) in every
# scenario of tests/nix/module/scenarios.nix, inside the real Home Manager module
# system, with the nixlab harness (an evaluation-only lab: real home-manager
# and nixpkgs lib, stub packages; see its README.md). Runs only where the lab
# is set up; prints one PASS/FAIL line per scenario and exits 1 on any FAIL.
#   NIXLAB=/path/to/nixlab  the lab's scripts   [../shared/nixlab beside the repository]
#   NIXLAB_DIR              the lab's work dir  [/tmp/nixlab-run]
#   ONLY="plain coexist"    run only these scenarios; NIXFLAGS=--show-trace for traces
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
lab=${NIXLAB:-$(cd "$repo/.." && pwd)/shared/nixlab}
NIXLAB_DIR=${NIXLAB_DIR:-/tmp/nixlab-run}
export NIXLAB_DIR

if [ ! -x "$lab/run-checks.sh" ]; then
  echo "tests/nix/module/run.sh: no nixlab at $lab (set NIXLAB=/path/to/nixlab)" >&2
  exit 2
fi
if [ ! -d "$NIXLAB_DIR/hm/modules" ]; then
  echo "tests/nix/module/run.sh: NIXLAB_DIR=$NIXLAB_DIR is not set up (no hm/modules);" >&2
  echo "  run HM_GIT=... LIB_GIT=... NIXLAB_DIR=$NIXLAB_DIR $lab/setup.sh first" >&2
  exit 2
fi
command -v nix-instantiate >/dev/null 2>&1 || {
  echo "tests/nix/module/run.sh: nix-instantiate is not on PATH (the lab needs Nix 2.8 or newer)" >&2
  exit 2
}

PREFIX=programs.agyconf PKG=agyconf EXTRA_PKGS="agyhook antigravity-cli xmsg mempalace" \
  exec "$lab/run-checks.sh" "$repo/module.nix" "$here/scenarios.nix"
