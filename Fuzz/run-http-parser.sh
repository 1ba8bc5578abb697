#!/usr/bin/env bash
# Builds the HTTPParser libFuzzer target and runs it.
#   Fuzz/run-http-parser.sh [SECONDS]        fuzz for SECONDS (default 60), corpus grows in .build-fuzz/corpus
#   Fuzz/run-http-parser.sh --replay         replay the committed seed corpus only
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/.."
out="$here/.build-fuzz"
mkdir -p "$out/corpus"
src="$root/Sources/FormdHTTP"
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name formd \
  -module-name FuzzHTTPParser \
  -I "$root/Sources/CZlib" -lz \
  "$src/HTTP1/HTTPParser.swift" "$src/HTTP1/HTTPParser+HeaderNames.swift" "$src/HTTP1/HTTPRequest.swift" "$src/HTTP1/HTTPHeaders.swift" \
  "$src/HTTP1/HTTPResponse.swift" "$src/Server/DeferredResponse.swift" "$src/HTTP1/HTTPError.swift" "$src/HTTP1/HTTPStatus.swift" "$src/Compression/Gzip.swift" "$here/HTTPParser/main.swift" \
  -o "$out/http-parser-fuzzer"
if [[ "${1:-}" == "--replay" ]]; then
  exec "$out/http-parser-fuzzer" -runs=0 "$here/corpus/http-parser"
fi
secs="${1:-60}"
exec "$out/http-parser-fuzzer" -max_total_time="$secs" -max_len=4096 -timeout=5 \
  -dict="$here/http.dict" "$out/corpus" "$here/corpus/http-parser"
