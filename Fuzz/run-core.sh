#!/usr/bin/env bash
# Builds the FormdCore libFuzzer binary (ASan + coverage) and runs one target.
#   Fuzz/run-core.sh TARGET [SECONDS]     fuzz TARGET (submission | expression | definition)
#   Fuzz/run-core.sh TARGET --replay      replay the committed seed corpus of TARGET only
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
out="$here/.build-fuzz"
target="${1:?usage: run-core.sh submission|expression|definition [SECONDS|--replay]}"
mkdir -p "$out/corpus-$target"
bin="$out/formdcore-fuzzer"
srcs=$(find "$root/Sources/FormdCore" -name '*.swift' | sort)
# sed reads all of ls's output: with `head -1`, ls can die of SIGPIPE and pipefail + set -e
# would end this script with status 141 before anything ran.
newest=$(ls -t $srcs "$here/FormdCore/main.swift" | sed -n 1p)
if [[ ! -x "$bin" || "$newest" -nt "$bin" ]]; then
  # The library's sources plus the entry, as one module (no Package.swift involvement).
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name FormdCoreFuzz \
    -l_FoundationICU $srcs "$here/FormdCore/main.swift" -o "$bin"
fi
export FORMD_FUZZ_TARGET="$target"
# LeakSanitizer is off: Swift stores enum tags in pointer spare bits, so objects held by
# multi-payload enums (parsed expression trees in a global) look unreachable to it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
if [[ "${2:-}" == "--replay" ]]; then
  exec "$bin" -runs=0 "$here/corpus/$target"
fi
exec "$bin" -max_total_time="${2:-60}" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  "$out/corpus-$target" "$here/corpus/$target"
