#!/bin/sh
# Times agyhook's no-op hook paths against minhook, a Go program that only
# decodes stdin and prints {}: agy starts PreInvocation hooks before every
# model call, so these paths must cost about what any Go hook costs.
# Usage: scripts/bench-agyhook.sh [N [DIR]]   (N invocations per case, default
# 300; DIR holds the temporary home and state dir, default $TMPDIR)
set -eu
cd "$(dirname "$0")/.."
n=${1:-300}
under=${2:-${TMPDIR:-/tmp}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/agyhook" ./cmd/agyhook
go build -o "$tmp/minhook" ./internal/agyhook/testdata/minhook
go build -o "$tmp/benchdriver" ./internal/agyhook/testdata/benchdriver
echo "machine: $(nproc) cores, $(uname -sr), $(go version)"
echo "filesystem of $under: $(df -T "$under" | awk 'NR==2 {print $2}')"
ls -l "$tmp/agyhook" "$tmp/minhook" | awk '{print "binary size:", $5, $NF}'
"$tmp/benchdriver" -n "$n" -under "$under" -agyhook "$tmp/agyhook" -minhook "$tmp/minhook"
