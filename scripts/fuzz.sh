#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fuzzes every parser that reads outside bytes, each for a fixed time, with libFuzzer
# (swiftc -sanitize=fuzzer,address). Each target compiles its harness in scripts/fuzz/
# together with the source files it exercises, straight from Sources/.
#   scripts/fuzz.sh                 every target, 60 s each
#   scripts/fuzz.sh 10              every target, 10 s each
#   scripts/fuzz.sh 300 chunked     one target for 5 minutes
# A crash or hang stops with the input saved in .build/fuzz/artifacts/; turn it into a
# regression test (Tests/HTTPServerTests/FuzzRegressionTests.swift) before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
out=.build/fuzz
export SWIFT_BACKTRACE=enable=no  # libFuzzer reports crashes; Swift's backtracer confuses ASan
mkdir -p "$out/artifacts"

# The HTTP types with the thread helpers they use (DispatchTime.after), in one module.
types=(Sources/TabServerHTTP/*.swift Sources/TabServerThreads/*.swift Sources/TabServerJSON/*.swift)
declare -A sources=(
  [request-head]="scripts/fuzz/RequestHeadFuzz.swift $(echo Sources/TabServerHTTP1/*.swift) ${types[*]}"
  [chunked]="scripts/fuzz/ChunkedDecoderFuzz.swift $(echo Sources/TabServerHTTP1/*.swift) ${types[*]}"
  [form]="scripts/fuzz/FormBodyFuzz.swift $(echo Sources/TabServerWeb/Bodies/*.swift) Sources/TabServerWeb/HTTPRequest+Body.swift $(echo Sources/TabServerWeb/Errors/*.swift) ${types[*]}"
  [cookies]="scripts/fuzz/CookiesFuzz.swift Sources/TabServerWeb/HTTPRequest+Cookies.swift ${types[*]}"
  [forwarded]="scripts/fuzz/ForwardedFuzz.swift Sources/TabServerWeb/Proxy/*.swift $(echo Sources/TabServerWeb/Errors/*.swift) ${types[*]}"
  [quality]="scripts/fuzz/QualityValueFuzz.swift ${types[*]}"
  [mustache]="scripts/fuzz/MustacheFuzz.swift $(echo Sources/TabServerMustache/*.swift)"
  [tabs-json]="scripts/fuzz/TabsJSONFuzz.swift $(echo Sources/TabServerTabBar/*.swift)"
  [http2]="scripts/fuzz/HTTP2SessionFuzz.swift $(echo Sources/TabServerHTTP2/*.swift)"
)
# Every file goes into one module named after the library most of them import, so
# their `import TabServerHTTP` is satisfied by the module itself.
declare -A module=([mustache]=TabServerMustache [tabs-json]=TabServerTabBar [http2]=TabServerHTTP2)
declare -A seeds=(
  [request-head]=$'GET /tabs/music?q=1 HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\n'
  [chunked]=$'3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\n'
  [form]=$'\x01--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--XyZ--\r\n'
  [cookies]='a=1; tabserver_session="xyz"; b'
  [forwarded]=$'for="[2001:db8::1]:80";proto=https;host=a, for=10.0.0.1\n203.0.113.7, 10.0.0.2\nhttps'
  [quality]=$'de-CH, de;q=0.9, en;q=0.8, *;q=0.1'
  [mustache]='{{#list}}{{x}}{{/list}}{{^empty}}{{{html}}}{{/empty}}{{! c }}{{=<% %>=}}<% name %>'
  [tabs-json]=$(cat tabs.json)
  # SETTINGS, then HEADERS of GET / (HPACK static entries, :authority "a"), ending the
  # stream: a printf format (bash strings cannot hold the NUL bytes of frame headers).
  [http2]='\000\000\000\004\000\000\000\000\000\000\000\006\001\005\000\000\000\001\202\207\204\001\001a'
)
declare -A seedIsFormat=([http2]=1)

targets=("$@")
if ((${#targets[@]} == 0)); then targets=(request-head chunked form cookies forwarded quality mustache tabs-json http2); fi
for target in "${targets[@]}"; do
  binary="$out/fuzz-$target"
  rm -f "$binary"
  echo "== fuzz $target (${seconds}s)"
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -package-name TabServer \
    -module-name "${module[$target]:-TabServerHTTP}" -I Sources/CPicoHTTPParser -lh2o-evloop -I Sources/CNGHTTP2 -lnghttp2 \
    ${sources[$target]} -o "$binary" 2>&1 | grep -E "error:" || true
  [[ -x "$binary" ]] || { echo "fuzz: $target did not build" >&2; exit 1; }
  corpus="$out/corpus-$target"
  mkdir -p "$corpus"
  if [[ -n "${seedIsFormat[$target]:-}" ]]; then
    # shellcheck disable=SC2059
    printf "${seeds[$target]}" >"$corpus/seed"
  else
    printf '%s' "${seeds[$target]}" >"$corpus/seed"
  fi
  "$binary" "$corpus" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="$out/artifacts/$target-" -print_final_stats=1 2>&1 | grep -E "^(#[0-9]+ +DONE|Done|stat::number_of_executed_units|==.*ERROR|SUMMARY)|crash-|timeout-|leak-" || true
  if ls "$out/artifacts/$target-"* >/dev/null 2>&1; then
    echo "fuzz: $target found an input: $(ls "$out/artifacts/$target-"*)" >&2
    exit 1
  fi
done
echo "fuzz: no crash, no hang"
