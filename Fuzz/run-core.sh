#!/usr/bin/env bash
# Builds the FormdCore libFuzzer binary (ASan + coverage) and runs one target.
#   Fuzz/run-core.sh TARGET [SECONDS]     fuzz TARGET (submission | expression | definition | format | inplace)
#   Fuzz/run-core.sh TARGET --replay      replay the committed seed corpus of TARGET only
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
out="$here/.build-fuzz"
target="${1:?usage: run-core.sh submission|expression|definition|format|inplace [SECONDS|--replay]}"
mkdir -p "$out/corpus-$target"
bin="$out/formdcore-fuzzer"
srcs=$(find "$root/Sources/FormdCore" -name '*.swift' | sort)
# Rebuild when any source is newer than the binary (find, not `ls | head`: under pipefail the
# SIGPIPE that head gives ls would fail the script).
if [[ ! -x "$bin" ]] || [[ -n "$(find "$root/Sources/FormdCore" "$here/FormdCore" -name '*.swift' -newer "$bin" -print -quit)" ]]; then
  # The library's sources plus the entry, as one module (no Package.swift involvement).
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name FormdCoreFuzz -package-name formd \
    -l_FoundationICU $srcs "$here/FormdCore/main.swift" -o "$bin"
fi
export FORMD_FUZZ_TARGET="$target"
# LeakSanitizer is off: Swift stores enum tags in pointer spare bits, so objects held by
# multi-payload enums (parsed expression trees in a global) look unreachable to it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
if [[ "${2:-}" == "--replay" ]]; then
  exec "$bin" -runs=0 "$here/corpus/$target"
fi
# Expressions are short in real definitions and the parsers are linear: 1 KiB inputs keep the
# expression target's executions per second up (at 8 KiB it fell from 5k to 1.5k per second).
max_len=8192
[[ "$target" == expression || "$target" == format ]] && max_len=1024
exec "$bin" -max_total_time="${2:-60}" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
  "$out/corpus-$target" "$here/corpus/$target"
