#!/usr/bin/env bash
# Regenerates the editor grammars under editors/ from the language tables
# (`kcs textmate`). Run it after changing a statement form, an attribute, a
# class, a value or a status; the grammar tests fail until then.
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
"$kcs" textmate --format plist > editors/sublime/kcs.tmLanguage
"$kcs" textmate --format vim > editors/vim/syntax/kcs.vim
"$kcs" textmate --format emacs > editors/emacs/kcs-mode.el
echo "wrote the grammars in editors/textmate, editors/sublime, editors/vim/syntax and editors/emacs" >&2
