#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the Redis suites N times in a row (default 50) while the hostile-load flood tests
# run alongside in a loop, and stops at the first failure. The proof asked for the
# compare-and-set path: a suite that passes once may still rest on timing.
#   scripts/redis-repeat.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
swift build --build-tests >/dev/null
log=$(mktemp -d)
(
  # Bounded: at most as many flood rounds as Redis rounds, and stopped when they end.
  for ((i = 1; i <= runs; i++)); do
    swift test --skip-build --filter "HostileLoadTests" >"$log/flood-$i.log" 2>&1 || echo "flood round $i failed (see $log)"
  done
) &
flood=$!
trap 'kill "$flood" 2>/dev/null || true' EXIT
for ((i = 1; i <= runs; i++)); do
  if ! swift test --skip-build --filter "Redis" >"$log/redis-$i.log" 2>&1; then
    echo "redis-repeat: run $i of $runs FAILED"
    grep -E "recorded an issue|error:" "$log/redis-$i.log" | head -20
    exit 1
  fi
  echo "redis-repeat: run $i of $runs passed ($(grep -Eo 'racing: [0-9]+ acknowledged, [0-9]+ pipelined refused' "$log/redis-$i.log" || true))"
done
echo "redis-repeat: $runs of $runs runs passed, flood tests alongside"
