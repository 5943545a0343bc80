#!/usr/bin/env bash
# Regenerates docs/man/kcs.1 from the command line's own help, with
# swift-argument-parser's generate-manual plugin (works offline: the plugin
# comes with the package's checkout). The test suite checks that every
# option of `kcs --experimental-dump-help` appears in the page.
set -euo pipefail
cd "$(dirname "$0")/.."
# The date of the last commit keeps the page stable between runs.
date="$(git log -1 --format=%cs 2>/dev/null || date +%F)"
swift package --disable-sandbox generate-manual --configuration debug --date "$date" \
    --authors "the kcs authors" >/dev/null
mkdir -p docs/man
cp .build/plugins/GenerateManual/outputs/kcs/kcs.1 docs/man/kcs.1
echo "wrote docs/man/kcs.1"
