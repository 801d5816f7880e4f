#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Real-browser tests: headless Debian Chromium driven by Selenium from a virtualenv, and the
# tests marked `webkit` a second time in WebKitGTK (Safari's engine: Debian's MiniBrowser
# through WebKitWebDriver, each on an Xvfb display the suite starts and stops by pid) at
# the phone sizes. `--engine chromium` or `--engine webkit` runs one engine alone.
# Uses the server binary already built (.build/debug/tabserver, or $TABSERVER_BINARY);
# build it first with `swift build`. Builds the Notes example if its binary is missing.
# Runs the tests in BROWSER_WORKERS processes (pytest-xdist; default 2: the tests mostly
# wait on the browsers, 15 minutes instead of 21 on two cores), each with servers and
# browsers of its own; BROWSER_WORKERS=0 runs them in this one. Exit code = pytest's.
# Extra arguments go to pytest (a test file among them runs that file alone).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

venv="$root/.venv"
if [[ ! -x "$venv/bin/python" ]]; then
  echo "browser-tests: creating $venv"
  python3 -m venv "$venv"
fi
requirements=Tests/browser/requirements.txt
# Installs only when a pinned package is missing or at another version.
if ! "$venv/bin/python" - "$requirements" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
for line in open(sys.argv[1]):
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    name, wanted = line.split("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
then
  echo "browser-tests: installing $requirements into $venv"
  # axe-selenium-python's metadata wants Python 3.12; its code runs on 3.11 (see the
  # requirements file). Only that one package skips the check, and without its deps.
  axe_pin=$(grep -E '^axe-selenium-python==' "$requirements")
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps --ignore-requires-python "$axe_pin"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
fi

# Debian's browsers and drivers, a virtual X server for WebKitGTK, locale sources (the
# WebKitGTK language tests compile their locales) and fonts for the Arabic and Japanese
# label tests.
packages=(chromium chromium-driver webkit2gtk-driver xvfb locales fonts-noto-core fonts-noto-cjk)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})) || [[ ! -x /usr/bin/chromium || ! -x /usr/bin/chromedriver || ! -x /usr/bin/WebKitWebDriver ]]; then
  echo "browser-tests: installing ${missing[*]:-${packages[*]}}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
    "${packages[@]}" >/dev/null
fi

# The Web Push checks' packages (Tests/push/requirements.txt: also what scripts/test.sh
# installs), pinned, so a second run installs nothing.
"$venv/bin/pip" install -q --disable-pip-version-check -r Tests/push/requirements.txt

binary=${TABSERVER_BINARY:-.build/debug/tabserver}
if [[ ! -x "$binary" ]]; then
  echo "browser-tests: $binary is missing: run 'swift build' first" >&2
  exit 2
fi

# The Notes example's binary for Tests/browser/test_notes_app.py (Examples/Notes/smoke-test.sh,
# run before this by scripts/test.sh, builds it too); only built here when missing.
if [[ ! -x Examples/Notes/.build/debug/Notes ]]; then
  echo "browser-tests: building Examples/Notes"
  (cd Examples/Notes && swift build)
fi

status=0
# The whole folder unless a test file or folder is named (`scripts/browser-tests.sh
# Tests/browser/test_tap.py -k scrub` runs that file alone).
targets=(Tests/browser)
for argument in "$@"; do
  if [[ $argument == Tests/browser* ]]; then targets=(); break; fi
done
# No __pycache__ folders in the work tree.
workers=${BROWSER_WORKERS:-2}
PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" -m pytest "${targets[@]}" -q -n "$workers" "$@" || status=$?
exit "$status"
