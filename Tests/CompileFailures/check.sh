#!/usr/bin/env bash
# Type-checks each section of Snippets.swift against the built ActorFSM module: `fails:`
# sections must be rejected on one of their own lines, `compiles:` sections must type-check.
# Usage: Tests/CompileFailures/check.sh [build-dir]   (default: .build/debug, already built)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-.build/debug}
modules="$build/Modules"
[ -d "$modules" ] || modules="$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prelude_lines=$(wc -l < "$here/Prelude.swift")

awk -v dir="$work" '
    /^\/\/ ---- (fails|compiles): / { n++; file = sprintf("%s/%02d-%s-%s.body", dir, n, $3, $4); sub(":", "", file); next }
    file != "" { print > file }
' "$here/Snippets.swift"

failures=0
total=0
for body in "$work"/*.body; do
    total=$((total + 1))
    name=$(basename "$body" .body)
    source="$work/$name.swift"
    { cat "$here/Prelude.swift"; echo "func snippet() throws {"; cat "$body"; echo "}"; } > "$source"
    output=$(swiftc -typecheck -swift-version 6 -I "$modules" "$source" 2>&1)
    status=$?
    case "$name" in
    *-fails-*)
        own_error=$(grep -oE "$name\.swift:[0-9]+:[0-9]+: error" <<< "$output" | cut -d: -f2 |
            awk -v p="$prelude_lines" '$1 > p + 1 { print; exit }')
        if [ $status -eq 0 ]; then
            echo "FAIL  $name: compiled, but must not"; failures=$((failures + 1))
        elif [ -z "$own_error" ]; then
            echo "FAIL  $name: rejected, but not on its own lines:"; echo "$output" | head -5
            failures=$((failures + 1))
        else
            echo "ok    $name (rejected at snippet line $((own_error - prelude_lines - 1)))"
        fi ;;
    *)
        if [ $status -ne 0 ]; then
            echo "FAIL  $name: must compile:"; echo "$output" | head -20; failures=$((failures + 1))
        else
            echo "ok    $name (compiles)"
        fi ;;
    esac
done
echo "compile-failure snippets: $((total - failures)) passed, $failures failed"
[ $failures -eq 0 ]
