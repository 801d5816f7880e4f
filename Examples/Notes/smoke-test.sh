#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the Notes example against the TabServer package and checks that it serves its
# own tabs, pages, search results and hook on a loopback port. Bounded; stops its server
# by pid. Exit 0 only if every check passed; prints 'N passed, N failed'.
set -uo pipefail
cd "$(dirname "$0")"
swift build || exit 1
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
.build/debug/Notes --port "$port" --sessions memory --access-log off >"$work/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
  curl -sf "$base/healthz" >/dev/null && break
  sleep 0.1
done

passed=0
failed=0
check() {  # check NAME CONDITION-COMMAND…
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi
}
jar="$work/cookies"
get() { curl -s -c "$jar" -b "$jar" "$base$1"; }

notes=$(get /tabs/notes)
check "notes list shows the example's notes" grep -q "Call the plumber" <<<"$notes"
check "the bar has the example's three tabs, the search tab last" \
  test "$(grep -o 'name="tab" value="[a-z]*"' <<<"$notes" | tr '\n' ' ')" \
  = 'name="tab" value="notes" name="tab" value="settings" name="tab" value="search" '
check "icons come from the example's Public/" grep -q "/icons/search.svg?v=" <<<"$notes"
check "a note page" grep -q "kitchen tap drips" <<<"$(get /tabs/notes/2)"
check "an unknown note is a 404" test "$(curl -s -o /dev/null -w '%{http_code}' -b "$jar" "$base/tabs/notes/99")" = 404
results=$(get "/tabs/search?q=milk")
check "search finds both notes that mention milk" test "$(grep -c 'class="row"' <<<"$results")" = 2
check "search is a landmark" grep -q 'role="search"' <<<"$results"
settings=$(get /tabs/settings)
token=$(grep -o 'name="csrf" value="[^"]*"' <<<"$settings" | head -1 | sed 's/.*value="//; s/"$//')
select=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -c "$jar" -b "$jar" -d "csrf=$token&tab=search" "$base/select")
check "selecting a tab answers 303" test "${select%% *}" = 303
check "the search tab remembers its last query" test "${select#* }" = "$base/tabs/search?q=milk"
check "the didSelect hook counted the tap once" grep -q "Times Search was opened</dt><dd>1<" <<<"$(get /tabs/settings)"
kill -TERM "$pid"
wait "$pid"
check "SIGTERM stops it with status 0" test $? = 0
check "the server logged its start and stop" grep -q "notes: listening" "$work/server.log"

echo "notes example: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
