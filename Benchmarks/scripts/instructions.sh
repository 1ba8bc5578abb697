#!/usr/bin/env bash
# Instructions per operation, measured with callgrind: load-independent figures for a shared
# machine, where wall-clock numbers move with whatever else is running.
#
#   Benchmarks/scripts/instructions.sh [scenario] [iterations]     (default: employment 1000)
#
# Runs formd-bench --profile twice (1 and 1+N iterations) and divides the difference by N, so
# setup (fixture loading, generation) cancels out. Needs valgrind (apt-get install -y valgrind).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
scenario="${1:-employment}"
n="${2:-1000}"
swift build -c release --package-path "$here" --product formd-bench >/dev/null
bin="$here/.build/release/formd-bench"
out="$(mktemp -d)"
count() {
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1" "$bin" --profile "$scenario" --iterations "$1" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
base="$(count 1)"
total="$(count $((n + 1)))"
echo "$scenario: $(( (total - base) / n )) instructions/op (callgrind, $n iterations; profile in $out/cg.$((n + 1)))"
