#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when a target imports a module of this package (or a product) that Package.swift
does not declare among that target's own dependencies: such a target builds only because
another target pulls the module in. Also fails when a target linked into a server imports
all of Foundation rather than FoundationEssentials: Foundation brings ICU's data (about 35 MB
of the binary, 3.5 MiB of a server's resident memory at idle). Reads `swift package
dump-package`; exit 1 naming each target and module."""
import glob
import json
import re
import subprocess
import sys

package = json.loads(subprocess.run(
    ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
own = {t["name"] for t in package["targets"]}
# Test support only, never linked into a server.
MAY_IMPORT_FOUNDATION = {"TabServerTesting"}
problems = []
for target in package["targets"]:
    declared = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    root = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
    imported = set()
    for path in glob.glob(root + "/**/*.swift", recursive=True):
        with open(path, encoding="utf-8") as source:
            for line in source:
                found = re.match(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:struct\s+|enum\s+|class\s+)?(\w+)", line)
                if found:
                    imported.add(found.group(1))
    missing = sorted((imported & own) - declared - {target["name"]})
    if missing:
        problems.append(f"{target['name']} imports {', '.join(missing)} without declaring it in Package.swift")
    linked = root.startswith("Sources/") and target["name"] not in MAY_IMPORT_FOUNDATION
    if "Foundation" in imported and linked:
        problems.append(f"{target['name']} imports Foundation: import FoundationEssentials (Foundation links ICU)")
for problem in problems:
    print("check-imports: " + problem, file=sys.stderr)
sys.exit(1 if problems else 0)
