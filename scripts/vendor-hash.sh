#!/usr/bin/env bash
# vendor-hash.sh: recompute the flake's buildGoModule vendorHash offline.
#
#   scripts/vendor-hash.sh           print the hash
#   scripts/vendor-hash.sh --write   write it to nix/vendor-hash
#   scripts/vendor-hash.sh --check   exit 1 if nix/vendor-hash is stale (CI)
#
# How: copy the files the flake's `src` holds (SRC_PATHS, the same list as
# the lib.fileset in package.nix) to a temporary folder, run `go mod vendor -o`
# there from the local module cache (GOPROXY=off unless GOPROXY is set in the
# environment; nothing else is downloaded), and take the NAR hash of the
# result with `nix hash path`, which prints SRI (sha256-…).
#
# Assumption, not verifiable here without nixpkgs: buildGoModule's goModules
# derivation (proxyVendor = false) runs `go mod vendor` on the same tree and
# stores the resulting vendor folder, modules.txt included, as a
# recursive-sha256 fixed output, so its hash equals this one as long as the
# Go releases agree on vendor's output (stable since Go 1.17's modules.txt
# annotations). If `nix build` ever reports a hash mismatch, the "got:" hash
# is authoritative: put it in nix/vendor-hash and tell us.
#
# The working tree is hashed, untracked files included; a flake evaluated
# from git sees only tracked files, so commit new Go files first.
set -euo pipefail

# Keep in step with the fileset in package.nix (tests/nix/flake_test.go checks).
SRC_PATHS=(go.mod go.sum cmd internal schema templates)

usage() {
	echo "usage: $0 [--write | --check]" >&2
	exit 2
}

mode=print
case $# in
0) ;;
1)
	case $1 in
	--write) mode=write ;;
	--check) mode=check ;;
	-h | --help)
		sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) usage ;;
	esac
	;;
*) usage ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
hash_file=$root/nix/vendor-hash

for tool in go nix; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "vendor-hash.sh: $tool is not on PATH" >&2
		exit 2
	fi
done

tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT

mkdir "$tmp/src"
for p in "${SRC_PATHS[@]}"; do
	cp -R "$root/$p" "$tmp/src/$p"
done

(
	cd "$tmp/src"
	export GOFLAGS=-mod=mod GOWORK=off GOTOOLCHAIN=local
	export GOPROXY=${GOPROXY:-off}
	go mod vendor -o "$tmp/vendor"
) || {
	echo "vendor-hash.sh: go mod vendor failed; with GOPROXY=off the module cache must hold every module (run 'go mod download' first)" >&2
	exit 2
}

hash=$(nix --extra-experimental-features nix-command hash path --type sha256 "$tmp/vendor")
case $hash in
sha256-*) ;;
*)
	# Older or newer nix printing another base: convert to SRI.
	hash=$(nix --extra-experimental-features nix-command hash to-sri --type sha256 "$hash")
	;;
esac

case $mode in
print)
	echo "$hash"
	;;
write)
	printf '%s\n' "$hash" >"$hash_file"
	echo "nix/vendor-hash: $hash"
	;;
check)
	if [ ! -f "$hash_file" ]; then
		echo "nix/vendor-hash is missing; the Go dependencies hash to '${hash}'." >&2
		echo "Run scripts/vendor-hash.sh --write and commit nix/vendor-hash." >&2
		exit 1
	fi
	current=$(tr -d '[:space:]' <"$hash_file")
	if [ "$current" != "$hash" ]; then
		echo "nix/vendor-hash is stale: it says '${current}', the Go dependencies hash to '${hash}'." >&2
		echo "Run scripts/vendor-hash.sh --write and commit nix/vendor-hash." >&2
		exit 1
	fi
	echo "nix/vendor-hash is up to date ($hash)"
	;;
esac
