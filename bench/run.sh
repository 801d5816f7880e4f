#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmarks TabServer against a tuned nginx serving the same rendered page as a static
# file, and two peers (Python: Starlette + Jinja2 on uvicorn; Go: net/http + html/template),
# on loopback, alternating (5 rounds against nginx, 5 for the stores, 5 against the peers). Not part of the tests. Usage: bench/run.sh [seconds]
# bench/run.sh --tls [seconds]: HTTPS/1.1, handshakes, idle TLS memory and h2 against nginx (bench/tls.py).
# bench/run.sh --cluster [seconds]: one Redis against a Redis Cluster, and 3 instances behind nginx on a
# cluster holding 1 M sessions (bench/cluster.py; figures in docs/scaling.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
tls=false
cluster=false
if [[ "${1:-}" == "--tls" ]]; then tls=true; shift; fi
if [[ "${1:-}" == "--cluster" ]]; then cluster=true; shift; fi
for tool in wrk nginx h2load go; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    package=$tool; [[ $tool == nginx ]] && package=nginx-light; [[ $tool == h2load ]] && package=nghttp2-client
    [[ $tool == go ]] && package=golang-go
    echo "bench: installing $package"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" >/dev/null
  fi
done
$tls || $cluster || bench/peer/setup.sh  # the Python peer's venv (pinned, from PyPI), if missing
swift build -c release --static-swift-stdlib --product tabserver
# The page measured is the tests' model's (Tests/Fixtures/tabs.json: seven tabs and search,
# the demo's model before it showed groups, the sidebar and a hidden tab), so figures
# compare with earlier runs and the peer's template (bench/peer/make_template.py) fits it.
export TABSERVER_TABS="${TABSERVER_TABS:-$PWD/Tests/Fixtures/tabs.json}"
if $tls; then exec python3 bench/tls.py "$@"; fi
if $cluster; then exec python3 bench/cluster.py "$@"; fi
exec python3 bench/bench.py "$@"
