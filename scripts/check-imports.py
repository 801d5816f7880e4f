#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when a target imports a module of this package (or a product) that Package.swift
does not declare among that target's own dependencies: such a target builds only because
another target pulls the module in. Reads `swift package dump-package`; exit 1 naming each
target and module."""
import glob
import json
import re
import subprocess
import sys

package = json.loads(subprocess.run(
    ["swift", "package", "dump-package"], check=True, capture_output=True, text=True).stdout)
own = {t["name"] for t in package["targets"]}
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
for problem in problems:
    print("check-imports: " + problem, file=sys.stderr)
sys.exit(1 if problems else 0)
