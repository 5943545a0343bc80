#!/usr/bin/env bash
# Regenerates the editor grammars under editors/ from the language tables
# and grammar.md's statement table (`kcs textmate`). Run it after changing a statement form, an attribute, a
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
# grammar.md's statement table, between its markers.
"$kcs" textmate --format reference > /tmp/kcs-reference.$$
python3 - grammar.md /tmp/kcs-reference.$$ <<'PY'
import sys
page, table = sys.argv[1], open(sys.argv[2]).read()
text = open(page).read()
begin = "<!-- statement table: generated from the grammar table by scripts/update-grammar.sh -->"
end = "<!-- end of statement table -->"
a, b = text.index(begin) + len(begin), text.index(end)
open(page + ".tmp", "w").write(text[:a] + "\n" + table + text[b:])
PY
mv grammar.md.tmp grammar.md
rm -f /tmp/kcs-reference.$$
echo "wrote the grammars in editors/textmate, editors/sublime, editors/vim/syntax and editors/emacs" >&2
