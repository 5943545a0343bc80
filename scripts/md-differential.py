#!/usr/bin/env python3
"""Differential test of kcs check's Markdown block finder against cmark-gfm.

    scripts/md-differential.py [KCS] [SEED] [COUNT]

Needs the cmarkgfm Python package (pip install cmarkgfm); .ci/run does not
run it, and the Swift tests do not depend on it. It writes random documents
(fences of backticks and tildes, list markers, quotes, tabs, HTML lines,
LF, CRLF and CR line breaks), renders each with cmark-gfm, and compares the
kcs blocks GitHub shows (<pre lang="kcs">, any case) with the blocks
`kcs check` runs. A block shown but neither run nor warned about (KCS404)
is a silent pass; a block run but not shown is a block that should not run.
Each disagreement is saved as /tmp/md-diff-SEED-N.md. Exits 1 if any.
"""
import os, random, re, subprocess, sys, tempfile

try:
    import cmarkgfm
except ImportError:
    sys.exit("md-differential: needs the cmarkgfm package (pip install cmarkgfm)")

kcs = sys.argv[1] if len(sys.argv) > 1 else '.build/debug/kcs'
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
random.seed(seed)

prefixes = ['', '', '', ' ', '  ', '   ', '    ', '\t', '- ', '* ', '1. ', '2) ', '> ', '>', '  - ', '- > ', '10. ',
            '- - ', '1. - ', '> - ', '\t- ', '-\t', '1.     ', '  ', '     ']
fences = ['```', '````', '~~~', '~~~~']
others = ['', 'Some text.', '- item', '1. item', '> quote', '<div>', '</div>', '<!--', '-->', '    indented', '***',
          '<span class="x">', '<!-- c -->', 'para', '  continued', '-', '', '', '> ', '---', '===', '# h',
          '<script>', '</script>', '<?x', '?>', '<pre>', '<details>', '  - sub', '1) one']

def block(n):
    pre = random.choice(prefixes)
    f = random.choice(fences)
    lang = random.choice(['kcs', 'kcs', 'kcs', 'sh', '', 'text', 'kcs fresh', 'KCS', ' kcs'])
    cont = ' ' * len(pre) if pre.strip() and not pre.startswith('>') else pre
    body = ['bogus%d' % n] if 'kcs' in lang.lower() else ['echo %d' % n]
    close = f if random.random() < 0.85 else random.choice(fences)
    closepre = cont if random.random() < 0.8 else random.choice(prefixes)
    lines = [pre + f + lang] + [cont + b for b in body]
    if random.random() < 0.93:
        lines.append(closepre + close)
    return lines

def document():
    lines, n = [], 0
    for _ in range(random.randint(2, 7)):
        r = random.random()
        if r < 0.6:
            lines += block(n); n += 1
        elif r < 0.85:
            lines.append(random.choice(others))
        else:
            lines.append('')
    nl = random.choice(['\n'] * 7 + ['\r\n', '\r'])
    return nl.join(lines) + nl

bad = 0
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, 'cur.md')
    for i in range(count):
        text = document()
        with open(path, 'w', newline='') as f:
            f.write(text)
        html = cmarkgfm.github_flavored_markdown_to_html(text)
        # A block's own line is its first bogusN; later ones are lines of
        # other blocks it holds as text, which kcs may report too.
        shown, held = set(), set()
        for m in re.finditer(r'<pre lang="([^"]*)"><code>([^<]*)</code>', html):
            if m.group(1).split(' ')[0].lower() == 'kcs':
                numbers = [int(x) for x in re.findall(r'bogus(\d+)', m.group(2))]
                shown |= set(numbers[:1]); held |= set(numbers)
        p = subprocess.run(['timeout', '10', kcs, 'check', path], capture_output=True, text=True, errors='replace')
        ran = set(int(m) for m in re.findall(r"unknown statement 'bogus(\d+)'", p.stderr))
        warned = p.stderr.count('KCS404')
        missing, extra = shown - ran, ran - held
        if (missing and warned == 0) or extra:
            bad += 1
            saved = '/tmp/md-diff-%d-%d.md' % (seed, i)
            with open(saved, 'w', newline='') as f:
                f.write(text)
            print('DIFF', saved, 'shown', sorted(shown), 'ran', sorted(ran), 'warned', warned)
print('md-differential: %d documents, %d disagreements' % (count, bad))
sys.exit(1 if bad else 0)
