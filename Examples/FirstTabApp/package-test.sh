#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds and tests the tutorial as a package of its own, outside this repository: the
# folder is copied to a temporary directory and its dependency pointed at this checkout
# (where an app would name the package's URL and version). Its tests find their
# tabs.json, Templates/ and Public/ in the copy with TestFixtures.packageRoot, as any
# app's would: here from the working directory, since the build shares the Notes
# example's build folder (run after Examples/Notes/smoke-test.sh, the library is then
# compiled once for both).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d /tmp/first-tab-app.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -R "$here/." "$work/"
rm -rf "$work/.build" "$work/package-test.sh"
sed -i "s|path: \"../..\"|path: \"$root\"|" "$work/Package.swift"
grep -q "path: \"$root\"" "$work/Package.swift" || { echo "first-tab-app: cannot point Package.swift at $root"; exit 1; }
cd "$work"
scratch="$root/Examples/Notes/.build"
swift build --scratch-path "$scratch" --build-tests
swift test --scratch-path "$scratch" --skip-build
echo "first-tab-app: built and tested as its own package in $work"
