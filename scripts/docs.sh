#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds TabServerCore's DocC catalog (Sources/TabServerCore/TabServerCore.docc) into
# .build/docs with the toolchain's own docc, no SwiftPM plugin: the compiler writes the
# module's symbol graph while building it, and `docc convert` joins it with the catalog.
# Fails on any DocC error or warning (a link to a symbol that does not exist, a missing
# article). Read the result with a static file server:
#   python3 -m http.server -d .build/docs 8000   # then /documentation/tabservercore
set -euo pipefail
cd "$(dirname "$0")/.."
module=TabServerCore
catalog="Sources/$module/$module.docc"
# A build folder of its own: the symbol-graph flags differ from a plain `swift build`,
# so sharing .build/debug would rebuild every module here and again on the next build.
scratch=.build/docs-build
graphs="$scratch/symbol-graphs"  # every module's graph, rewritten whenever it compiles
module_graphs=.build/docs-symbol-graphs  # only this module's, for docc
output=.build/docs
docc="${DOCC:-$(dirname "$(readlink -f "$(command -v swift)")")/docc}"

build() {
  mkdir -p "$graphs"
  swift build --scratch-path "$scratch" --target "$module" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
}
build
if [[ ! -f "$graphs/$module.symbols.json" ]]; then
  # The graph is written only when the module compiles: start that build again.
  echo "docs: no symbol graph for $module; rebuilding $scratch"
  rm -rf "$scratch"
  build
fi

rm -rf "$module_graphs" "$output"
mkdir -p "$module_graphs"
cp "$graphs/$module".symbols.json "$module_graphs/"
for extension in "$graphs/$module"@*.symbols.json; do
  [[ -e "$extension" ]] && cp "$extension" "$module_graphs/"
done

# --disable-parameters-and-returns-validation: DocC would also warn about every
# function parameter without a `- Parameter` line in the sources' comments.
"$docc" convert "$catalog" \
  --additional-symbol-graph-dir "$module_graphs" \
  --output-path "$output" \
  --fallback-display-name "$module" \
  --fallback-bundle-identifier "org.tabserver.$module" \
  --warnings-as-errors \
  --disable-parameters-and-returns-validation
echo "docs: $output (serve it, then open /documentation/$(echo "$module" | tr '[:upper:]' '[:lower:]'))"
