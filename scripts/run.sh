#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up, builds in release mode and runs the server on its embedded defaults
# (http://127.0.0.1:8080/). Extra arguments go to the server: scripts/run.sh --port 9000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product tabserver
exec .build/release/tabserver "$@"
