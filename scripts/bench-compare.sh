#!/usr/bin/env bash
# Compare this tree's agyconf with the one built at another commit: a fresh
# render of the 1,000-entry config (1,000 MCP servers + 200 skills + 100
# hooks, the config scripts/bench.sh generates), and a render that changes
# nothing, with the two binaries run alternately so that the machine's load
# lands on both alike. Prints a markdown table for docs/benchmarks.md.
#
#   scripts/bench-compare.sh [REV] [RUNS]   (default HEAD~1, 15 runs; medians)
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:-HEAD~1}
runs=${2:-15}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old-src" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

go build -o "$work/new" ./cmd/agyconf
git worktree add --detach "$work/old-src" "$rev" >/dev/null 2>&1
(cd "$work/old-src" && go build -o "$work/old" ./cmd/agyconf)

n=1000
cfg="$work/gen.hcl"
{
  echo 'agyconf {'
  echo '  scope = "global"'
  echo '}'
  for ((i = 0; i < n; i++)); do
    printf 'mcp_server "srv-%05d" {\n  command = "server-%d"\n  args    = ["--port", "%d", "--verbose"]\n}\n' "$i" "$i" "$((8000 + i))"
  done
  for ((i = 0; i < n / 5; i++)); do
    printf 'skill "skill-%05d" {\n  description = "Skill number %d"\n  body        = "Step one.\\nStep two.\\nStep three for skill %d.\\n"\n}\n' "$i" "$i" "$i"
  done
  for ((i = 0; i < n / 10; i++)); do
    printf 'hook "hook-%05d" {\n  pre_tool_use {\n    matcher = "run_command"\n    command = "/usr/local/bin/check-%d"\n    timeout = 5\n  }\n  stop {\n    command = "/usr/local/bin/stop-%d"\n  }\n}\n' "$i" "$i" "$i"
  done
} >"$cfg"

now_ns() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { awk -v ns="$1" 'BEGIN {printf "%.1f", ns / 1e6}'; }

# run BIN KIND: one timed run; KIND fresh renders into an empty root, noop
# renders again into the root the fresh run left (the cache is removed, so
# the run decodes and decides everything).
run() {
  local bin=$1 kind=$2 t0 t1
  if [ "$kind" = fresh ]; then
    rm -rf "$work/root-$bin"
    mkdir -p "$work/root-$bin"
  else
    rm -rf "$work/root-$bin/.local/state/agyconf/cache"
  fi
  t0=$(now_ns)
  "$work/$bin" render --config "$cfg" --root "$work/root-$bin" --instance bench >/dev/null
  t1=$(now_ns)
  echo $((t1 - t0))
}

echo "| render of 1,000 + 200 + 100 entries | $rev | this tree | ratio |"
echo "|---|---|---|---|"
for kind in fresh noop; do
  : >"$work/old.ns"
  : >"$work/new.ns"
  run old fresh >/dev/null
  run new fresh >/dev/null
  for ((i = 0; i < runs; i++)); do
    run old "$kind" >>"$work/old.ns"
    run new "$kind" >>"$work/new.ns"
  done
  o=$(median <"$work/old.ns")
  w=$(median <"$work/new.ns")
  echo "| $kind | $(ms "$o") ms | $(ms "$w") ms | $(awk -v a="$w" -v b="$o" 'BEGIN {printf "%.2f", a / b}')× |"
done
