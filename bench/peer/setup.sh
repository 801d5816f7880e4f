#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Makes bench/.venv-peer, the Python peer's venv, from bench/peer/requirements.txt (pinned,
# from PyPI) if it is missing or was made from other requirements. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-peer
stamp=$venv/requirements.sha256
want=$(sha256sum peer/requirements.txt | cut -d' ' -f1)
if [[ -x $venv/bin/python && -f $stamp && $(cat "$stamp") == "$want" ]]; then
  exit 0
fi
echo "peer: making bench/$venv from bench/peer/requirements.txt"
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c 'import ensurepip' 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r peer/requirements.txt
"$venv/bin/python" -m pip check -q >/dev/null || { "$venv/bin/python" -m pip check; exit 1; }
echo "$want" > "$stamp"
