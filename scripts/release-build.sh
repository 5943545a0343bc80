#!/usr/bin/env bash
# Builds kcs in release mode into a scratch path that may hold an earlier
# build: scripts/release-build.sh SCRATCH [swift build arguments…]
#
# SwiftPM's incremental release build can keep a module compiled against a
# dependency's old layout: in session 20 a release `kcs` built over an
# earlier one kept KCSRepl's objects from before `Device` gained stored
# properties, and `kcs lsp` read device names as garbage and crashed, while
# every test (a debug build) passed. So this project's own modules, the
# folders of Sources/ and Tests/, are always compiled anew; the packages
# they depend on (swift-syntax and the rest, most of the time) are kept.
set -euo pipefail
scratch="$1"; shift
root="$(cd "$(dirname "$0")/.." && pwd)"
for dir in "$scratch"/*/release; do
    [ -d "$dir" ] || continue
    for target in "$root"/Sources/* "$root"/Tests/*; do
        [ -d "$target" ] || continue
        name="$(basename "$target")"
        module="${name//-/_}"  # kcs-bench's module is kcs_bench
        rm -rf "$dir/$module.build" "$dir/Modules/$module.swiftmodule" "$dir/Modules/$module.swiftdoc" \
               "$dir/Modules/$module.swiftsourceinfo" "$dir/Modules/$module.abi.json"
    done
    rm -f "$dir/description.json"
done
cd "$root"
swift build -c release --scratch-path "$scratch" "$@"
