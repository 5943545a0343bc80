#!/usr/bin/env python3
"""Tokenizes .kcs files and the kcs blocks of Markdown documents with a real
TextMate engine and checks the scopes against what kcs's own lexer and parser
say each token is.

The engine is the one of the babi editor (PyPI `babi`): begin/end/while
rules, captures, includes and repositories over the Oniguruma regex library,
the regex engine VS Code's TextMate tokenizer uses. The oracle is `kcs
textmate --tokens FILE…` (keywords, declared and referenced names, strings,
numbers, comments, statuses, attributes, values, operations and classes, with
their lines and columns). Markdown files are tokenized with the Markdown
grammar babi ships, with the kcs injection grammar put first among its block
rules, which is where VS Code's `L:` injection selector puts it.

    python3 test_grammar.py KCS-BINARY FILE…

Exit 0 when every token has its scope, 1 otherwise (with the differences).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from babi.highlight import Grammars, highlight_line
from babi.user_data import prefix_data

HERE = os.path.dirname(os.path.abspath(__file__))

# The scope (a prefix of one) each kind of token must carry.
EXPECTED = {
    'keyword': 'keyword.control.statement.kcs',
    'def': 'entity.name.type.',
    'ref': 'variable.other.',
    'string': 'string.quoted.double.kcs',
    'number': 'constant.numeric.kcs',
    'comment': 'comment.line.number-sign.kcs',
    'status': 'support.constant.status.kcs',
    'attribute': 'entity.other.attribute-name.kcs',
    'value': 'constant.language.value.kcs',
    'operation': 'support.function.operation.kcs',
    'class': 'support.type.class.kcs',
}
EMBEDDED = 'meta.embedded.block.kcs'


def grammar_dir(tmp):
    """Our grammars under the file names babi looks scopes up by, and the
    Markdown grammar with the kcs injection in front of its block rules."""
    shutil.copy(os.path.join(HERE, 'kcs.tmLanguage.json'), os.path.join(tmp, 'source.kcs.json'))
    shutil.copy(os.path.join(HERE, 'kcs.markdown.tmLanguage.json'),
                os.path.join(tmp, 'markdown.kcs.codeblock.json'))
    with open(os.path.join(prefix_data('grammar_v1'), 'text.html.markdown.json'), encoding='UTF-8') as f:
        markdown = json.load(f)
    with open(os.path.join(HERE, 'kcs.markdown.tmLanguage.json'), encoding='UTF-8') as f:
        injection = json.load(f)
    assert injection['injectionSelector'] == 'L:text.html.markdown', injection['injectionSelector']
    markdown['repository']['block']['patterns'].insert(0, {'include': injection['scopeName']})
    with open(os.path.join(tmp, 'text.html.markdown.json'), 'w', encoding='UTF-8') as f:
        json.dump(markdown, f)
    return tmp


def scopes_by_column(compiler, text):
    """For each line, for each column, the scope stack there."""
    state = compiler.root_state
    out = []
    for i, line in enumerate(text.split('\n')):
        state, regions = highlight_line(compiler, state, line + '\n', first_line=i == 0)
        cols = [()] * (len(line) + 1)
        for r in regions:
            for c in range(r.start, min(r.end, len(line) + 1)):
                cols[c] = r.scope
        out.append(cols)
    return out


def check_file(grammars, entry, failures, counts):
    path = entry['file']
    markdown = not path.endswith('.kcs')
    compiler = grammars.compiler_for_scope('text.html.markdown' if markdown else 'source.kcs')
    with open(path, encoding='UTF-8') as f:
        text = f.read()
    lines = text.split('\n')
    scopes = scopes_by_column(compiler, text)
    bad_lines = set(entry['errorLines'])
    kcs_lines = set()
    for tok in entry['tokens']:
        line = tok['line']
        if line in bad_lines:
            continue
        kcs_lines.add(line)
        want = [EXPECTED[tok['kind']]] + ([EMBEDDED] if markdown else [])
        for col in range(tok['start'], tok['end']):
            have = scopes[line - 1][col]
            missing = [w for w in want if not any(s.startswith(w) for s in have)]
            if missing:
                failures.append(f'{path}:{line}:{col + 1}: {tok["kind"]} '
                                f'{lines[line - 1][tok["start"]:tok["end"]]!r} lacks {missing[0]}; '
                                f'has {" ".join(have) or "no scope"}')
                break
        else:
            counts[tok['kind']] = counts.get(tok['kind'], 0) + 1
    # A valid line gets no invalid.* scope of ours.
    for line in sorted(kcs_lines):
        for col, have in enumerate(scopes[line - 1]):
            bad = [s for s in have if s.startswith('invalid.') and s.endswith('.kcs')]
            if bad:
                failures.append(f'{path}:{line}:{col + 1}: {bad[0]} on a line kcs accepts: '
                                f'{lines[line - 1].strip()!r}')
                break


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    kcs, files = argv[1], argv[2:]
    oracle = subprocess.run([kcs, 'textmate', '--tokens', *files], check=True, capture_output=True, text=True)
    entries = [json.loads(line) for line in oracle.stdout.splitlines() if line]
    failures, counts = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        grammars = Grammars(prefix_data('grammar_v1'), grammar_dir(tmp))
        for entry in entries:
            check_file(grammars, entry, failures, counts)
    # Every kind must have been seen, or the test proves nothing about it.
    for kind in EXPECTED:
        if not counts.get(kind):
            failures.append(f'no {kind} token was checked: the inputs must contain some')
    total = sum(counts.values())
    print(f'grammar: {len(entries)} files, {total} tokens with their scopes '
          f'({", ".join(f"{k} {counts.get(k, 0)}" for k in EXPECTED)})')
    for f in failures[:60]:
        print(f)
    if len(failures) > 60:
        print(f'… and {len(failures) - 60} more')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
