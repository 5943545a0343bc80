#!/usr/bin/env bash
# Regenerates the TextMate grammars in editors/textmate/ from the language
# tables (`kcs textmate`). Run it after changing a statement form, an
# attribute, a class, a value or a status; the grammar tests fail until then.
#
#   scripts/update-grammar.sh [PATH-TO-KCS]
set -euo pipefail
cd "$(dirname "$0")/.."
kcs="${1:-}"
if [ -z "$kcs" ]; then
    swift build --product kcs >&2
    kcs="$(swift build --show-bin-path)/kcs"
fi
"$kcs" textmate > editors/textmate/kcs.tmLanguage.json
"$kcs" textmate --markdown > editors/textmate/kcs.markdown.tmLanguage.json
echo "wrote editors/textmate/kcs.tmLanguage.json and kcs.markdown.tmLanguage.json" >&2
