#!/usr/bin/env python3
"""Highlights .kcs files and the kcs blocks of Markdown documents with real
editor engines and checks what each token gets against what kcs's own lexer
and parser say the token is.

The oracle is `kcs textmate --tokens FILE…`: keywords, declared and
referenced names, strings, numbers, comments, statuses, attributes, values,
operations and classes, with their lines and columns.

Engines:
- textmate: the TextMate engine of the babi editor (PyPI `babi`): begin/end/
  while rules, captures, includes and repositories over Oniguruma, the regex
  library VS Code's tokenizer uses. It reads editors/textmate/. Markdown is
  tokenized with the Markdown grammar babi ships, with the kcs injection
  grammar put first among its block rules, where VS Code's `L:` injection
  selector puts it.
- vim: Vim itself, headless, with editors/vim on its runtime path (Markdown
  through g:markdown_fenced_languages).
- emacs: Emacs in batch mode with editors/emacs/kcs-mode.el (.kcs files only:
  Emacs has no Markdown mode of its own).

    python3 test_highlighting.py textmate|vim|emacs KCS-BINARY FILE…
    python3 test_highlighting.py dump textmate|vim|emacs FILE

Exit 0 when every token has its scope or group, 1 otherwise (with the differences).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'textmate')
VIM_RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vim')

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

# The Vim syntax group each kind must get (names are not highlighted in Vim).
VIM_GROUPS = {
    'keyword': ('kcsStatement',),
    'string': ('kcsString', 'kcsEscape'),
    'number': ('kcsNumber',),
    'comment': ('kcsComment',),
    'status': ('kcsStatus',),
    'attribute': ('kcsAttribute',),
    'value': ('kcsValue',),
    'operation': ('kcsKeyword',),
    'class': ('kcsClass',),
}

# The Emacs face each kind must get.
EMACS_FACES = {
    'keyword': ('font-lock-keyword-face',),
    'string': ('font-lock-string-face',),
    'number': ('font-lock-constant-face',),
    'comment': ('font-lock-comment',),
    'status': ('font-lock-constant-face',),
    'attribute': ('font-lock-variable-name-face',),
    'value': ('font-lock-constant-face',),
    'operation': ('font-lock-builtin-face',),
    'class': ('font-lock-type-face',),
}


def grammar_dir(tmp, prefix_data):
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


def textmate_engine(paths, tmp):
    """For each file, each line, each character: the TextMate scope stack."""
    from babi.highlight import Grammars, highlight_line
    from babi.user_data import prefix_data
    grammars = Grammars(prefix_data('grammar_v1'), grammar_dir(tmp, prefix_data))
    out = {}
    for path in paths:
        markdown = not path.endswith('.kcs')
        compiler = grammars.compiler_for_scope('text.html.markdown' if markdown else 'source.kcs')
        state = compiler.root_state
        lines = []
        for i, line in enumerate(read(path).split('\n')):
            state, regions = highlight_line(compiler, state, line + '\n', first_line=i == 0)
            cols = [()] * (len(line) + 1)
            for r in regions:
                for c in range(r.start, min(r.end, len(line) + 1)):
                    cols[c] = r.scope
            lines.append(cols)
        out[path] = lines
    return out


VIM_SCRIPT = r"""
set nocompatible
let &runtimepath = g:kcs_runtime . ',' . &runtimepath
let g:markdown_fenced_languages = ['kcs']
filetype plugin on
syntax on
let s:result = {}
for s:path in readfile(g:kcs_list)
  execute 'edit ' . fnameescape(s:path)
  if s:path !~# '\.kcs$'
    setfiletype markdown
  endif
  let s:lines = []
  for s:l in range(1, line('$'))
    call add(s:lines, map(range(1, len(getline(s:l))), {_, c -> synIDattr(synID(s:l, c, 1), 'name')}))
  endfor
  let s:result[s:path] = s:lines
  bwipeout!
endfor
call writefile([json_encode(s:result)], g:kcs_out)
qall!
"""


def vim_engine(paths, tmp):
    """For each file, each line, each character: Vim's syntax group there."""
    listing, script, result = (os.path.join(tmp, n) for n in ('files', 'dump.vim', 'out.json'))
    with open(listing, 'w', encoding='UTF-8') as f:
        f.write('\n'.join(paths) + '\n')
    with open(script, 'w', encoding='UTF-8') as f:
        f.write(VIM_SCRIPT)
    subprocess.run(['vim', '-Nu', 'NONE', '-i', 'NONE', '-es',
                    '--cmd', f'let g:kcs_runtime = {json.dumps(VIM_RUNTIME)}',
                    '--cmd', f'let g:kcs_list = {json.dumps(listing)}',
                    '--cmd', f'let g:kcs_out = {json.dumps(result)}', '-S', script],
                   check=True, timeout=300, stdin=subprocess.DEVNULL)
    with open(result, encoding='UTF-8') as f:
        dumped = json.load(f)
    out = {}
    for path in paths:
        lines = []
        for text, groups in zip(read(path).split('\n'), dumped[path] + [[]]):
            # Vim counts bytes; the oracle counts characters.
            cols, byte = [], 0
            for ch in text:
                cols.append((groups[byte],) if byte < len(groups) and groups[byte] else ())
                byte += len(ch.encode('utf-8'))
            lines.append(cols + [()])
        out[path] = lines
    return out


EMACS_SCRIPT = r"""
(require 'json)
(load-file kcs-mode-file)
(let ((result (make-hash-table :test 'equal)))
  (dolist (path kcs-files)
    (with-current-buffer (find-file-noselect path)
      (kcs-mode)
      (font-lock-ensure)
      (let ((lines '()))
        (goto-char (point-min))
        (while (not (eobp))
          (let ((faces '()) (end (line-end-position)))
            (while (< (point) end)
              (let ((f (get-text-property (point) 'face)))
                (push (mapconcat #'symbol-name (if (listp f) f (list f)) " ") faces))
              (forward-char 1))
            (push (vconcat (nreverse faces)) lines))
          (forward-line 1))
        (puthash path (vconcat (nreverse lines)) result))
      (kill-buffer)))
  (with-temp-file kcs-out (insert (json-encode result))))
"""


def emacs_engine(paths, tmp):
    """For each .kcs file, each line, each character: the Emacs faces there."""
    script, result = os.path.join(tmp, 'dump.el'), os.path.join(tmp, 'out.json')
    with open(script, 'w', encoding='UTF-8') as f:
        f.write(EMACS_SCRIPT)
    mode = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'emacs', 'kcs-mode.el')
    lisp_files = ' '.join(json.dumps(p) for p in paths)
    subprocess.run(['emacs', '--batch', '-Q',
                    '--eval', f'(setq kcs-mode-file {json.dumps(mode)} kcs-out {json.dumps(result)} '
                              f'kcs-files (list {lisp_files}))', '-l', script],
                   check=True, timeout=300, stdin=subprocess.DEVNULL, capture_output=True)
    with open(result, encoding='UTF-8') as f:
        dumped = json.load(f)
    return {path: [tuple(tuple(c.split()) for c in line) + ((),) for line in dumped[path]] + [[()]]
            for path in paths}


def read(path):
    with open(path, encoding='UTF-8') as f:
        return f.read()


def textmate_wants(kind, markdown):
    return [(EXPECTED[kind],)] + ([(EMBEDDED,)] if markdown else [])


def vim_wants(kind, markdown):
    return [VIM_GROUPS[kind]] if kind in VIM_GROUPS else []


def emacs_wants(kind, markdown):
    return [EMACS_FACES[kind]] if kind in EMACS_FACES else []


def check_file(entry, scopes, wants, failures, counts):
    """Each token's every character must carry, for each entry of `wants`,
    a name starting with one of its prefixes; no invalid name of ours on a
    line kcs accepts."""
    path = entry['file']
    markdown = not path.endswith('.kcs')
    lines = read(path).split('\n')
    bad_lines = set(entry['errorLines'])
    kcs_lines = set()
    for tok in entry['tokens']:
        line = tok['line']
        if line in bad_lines:
            continue
        kcs_lines.add(line)
        want = wants(tok['kind'], markdown)
        if not want:
            continue
        for col in range(tok['start'], tok['end']):
            have = scopes[line - 1][col]
            missing = [w for w in want if not any(s.startswith(p) for s in have for p in w)]
            if missing:
                failures.append(f'{path}:{line}:{col + 1}: {tok["kind"]} '
                                f'{lines[line - 1][tok["start"]:tok["end"]]!r} lacks {"|".join(missing[0])}; '
                                f'has {" ".join(have) or "nothing"}')
                break
        else:
            counts[tok['kind']] = counts.get(tok['kind'], 0) + 1
    for line in sorted(kcs_lines):
        for col, have in enumerate(scopes[line - 1]):
            bad = [s for s in have if (s.startswith('invalid.') and s.endswith('.kcs'))
                   or s in ('kcsUnknownAttribute', 'font-lock-warning-face')]
            if bad:
                failures.append(f'{path}:{line}:{col + 1}: {bad[0]} on a line kcs accepts: '
                                f'{lines[line - 1].strip()!r}')
                break


def main(argv):
    engines = {
        'textmate': (textmate_engine, textmate_wants, EXPECTED),
        'vim': (vim_engine, vim_wants, VIM_GROUPS),
        'emacs': (emacs_engine, emacs_wants, EMACS_FACES),
    }
    # `dump ENGINE FILE`: what the engine gives each character of FILE, as
    # JSON (lines of characters of names), for tests of single tokens.
    if len(argv) == 4 and argv[1] == 'dump' and argv[2] in engines:
        with tempfile.TemporaryDirectory() as tmp:
            lines = engines[argv[2]][0]([argv[3]], tmp)[argv[3]]
        print(json.dumps([[list(c) for c in line] for line in lines]))
        return 0
    if len(argv) < 4 or argv[1] not in engines:
        print(__doc__, file=sys.stderr)
        return 64
    engine, kcs, files = argv[1], argv[2], argv[3:]
    highlight, wants, kinds = engines[engine]
    if engine == 'emacs':
        files = [f for f in files if f.endswith('.kcs')]
    oracle = subprocess.run([kcs, 'textmate', '--tokens', *files], check=True, capture_output=True, text=True)
    entries = [json.loads(line) for line in oracle.stdout.splitlines() if line]
    failures, counts = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        scopes = highlight([e['file'] for e in entries], tmp)
        for entry in entries:
            check_file(entry, scopes[entry['file']], wants, failures, counts)
    # Every kind must have been seen, or the test proves nothing about it.
    for kind in kinds:
        if not counts.get(kind):
            failures.append(f'no {kind} token was checked: the inputs must contain some')
    total = sum(counts.values())
    print(f'{engine}: {len(entries)} files, {total} tokens highlighted as kcs reads them '
          f'({", ".join(f"{k} {counts.get(k, 0)}" for k in kinds)})')
    for f in failures[:60]:
        print(f)
    if len(failures) > 60:
        print(f'… and {len(failures) - 60} more')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
