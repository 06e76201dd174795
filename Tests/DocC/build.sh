#!/usr/bin/env bash
# Builds the DocC catalog of each public module with the toolchain's `docc`, from the symbol
# graphs SwiftPM emits (no plugin package), and fails on any DocC warning: a broken symbol
# link, a topic that names nothing. Run from the package root. The archives land in
# .build/docc/<Module>.doccarchive.
set -euo pipefail

modules=(ActorFSM ActorFSMDurability ActorFSMDistribution ActorFSMTesting ActorFSMSQLite ActorFSMPostgres)
swift package dump-symbol-graph --minimum-access-level public >/dev/null
graphs=$(find .build -path "*/symbolgraph" -type d | head -1)
rm -rf .build/docc
mkdir -p .build/docc
status=0
for module in "${modules[@]}"; do
    # The module's own graph, and the extensions it makes to the modules below it.
    input=".build/docc/$module.symbols"
    mkdir -p "$input"
    cp "$graphs/$module.symbols.json" "$input/"
    cp "$graphs/$module"@*.symbols.json "$input/" 2>/dev/null || true
    log=".build/docc/$module.log"
    docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$input" \
        --output-path ".build/docc/$module.doccarchive" --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.actorfsm.$module" --warnings-as-errors > "$log" 2>&1 || {
        echo "error: the documentation of $module has problems:" >&2
        cat "$log" >&2
        status=1
        continue
    }
    echo "$module: $(find ".build/docc/$module.doccarchive/data/documentation" -name '*.json' | wc -l) pages"
done
exit $status
