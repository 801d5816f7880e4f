#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what TabServer needs from Debian's packages, only what is missing, saying
# what it installs. Idempotent: a second run installs nothing.
#   scripts/setup.sh            build and run dependencies
#   scripts/setup.sh --test     also what the test suite needs
set -euo pipefail

want=(pkg-config libh2o-evloop-dev zlib1g-dev libssl-dev libsqlite3-dev libhiredis-dev libnghttp2-dev)
if [[ "${1:-}" == "--test" ]]; then
  # Real components the tests start themselves: Redis (and Sentinel; redis-tools for redis-cli --cluster),
  # nginx, Caddy, headless Chromium,
  # WebKitGTK (Safari's engine) with its WebDriver on a virtual X server (Xvfb) and the
  # locale sources its language tests compile (locales);
  # curl and openssl (the command) as TLS clients, openssl also making the test CA;
  # nghttp2-client (nghttp, h2load) as HTTP/2 clients; testssl.sh auditing the TLS listener;
  # certutil (libnss3-tools) trusting the test CA in Chromium's NSS db.
  want+=(python3-venv python3-pip curl openssl nghttp2-client redis-server redis-sentinel redis-tools nginx-light caddy chromium
    chromium-driver webkit2gtk-driver xvfb locales fonts-noto-core fonts-noto-cjk testssl.sh libnss3-tools)
fi

missing=()
for package in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "setup: all Debian packages present (${want[*]})"
fi

if ! command -v swift >/dev/null 2>&1; then
  echo "setup: swift is not on PATH; install Swift 6 first (see README)" >&2
  exit 1
fi
