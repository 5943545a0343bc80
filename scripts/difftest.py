#!/usr/bin/env python3
"""Differential test of two kcs binaries on mutated scripts and documents.

    scripts/difftest.py OLD_KCS NEW_KCS [--count N] [--seed S] [--jobs J] [--out DIR]

Builds inputs from every examples/**/*.kcs, every Tests/Golden/**/*.kcs and
every ```kcs block of README.md, grammar.md and docs/**/*.md: the seeds as
they are, then mutants (byte flips, token deletions and duplications, string
escapes valid and invalid, unterminated strings at the end of a line and of
the file, a backslash before a line break, non-ASCII letters and look-alikes,
NUL, invalid UTF-8, a byte-order mark, CRLF, very long words and lines,
lists, `expect status A or B or C`, `set` in odd places), each also wrapped
in a Markdown document. Each input goes through both binaries with the same
arguments, in the same folder, under the same name (a copy of the repository's
examples/ and docs/ under DIR, so includes and entitlements files resolve):
`run`, `run --format json`, `run -v`, `fmt --check`, `fmt -` (the canonical
layout on standard output), `lint`, `export --swift`, `matrix`, `repl` (the
script on standard input), and for documents `check` and
`check --format json`. Exit status, standard output and standard error are
compared; every difference is written under DIR/diffs/ (the input, the
command, both outcomes) and counted by command. A crash (a signal) or a
timeout of the new binary is reported even when the old one does the same.

Deterministic for a given seed and tree; exits 1 if anything differed.
"""
import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 20

ESCAPES = [
    r"\u{1F511}", r"\u{41}", r"\u{0}", r"\u{}", r"\u{110000}", r"\u{D800}", r"\u{FFFFFFFFF}",
    r"\u{12345678}", r"\u{1F5", r"\u1F511", r"\u", r"\"", r"\\", r"\n", r"\t", r"\q", r"\0",
    r"\x41", r"\'", "\\\u00e9", r"\u{202E}", r"\u{200B}", r"\u{FEFF}", r"\u{7F}", r"\u{1B}[31m",
]
NON_ASCII = ["é", "ß", "ж", "а", "о", "е", "с", "ο", "α", "Ａ", "ｓ", "ı", "İ", "ﬁ", "Ω", "Å", "日本",
             "🔑", "\u0301", "\u200b", "\u202e", "\u2028", "\u00a0", "\ufeff", "ǅ", "−", "‐", "＝", "“", "”"]
INVALID_UTF8 = [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80", b"\x80", b"\xf0\x9f\x94"]
WORDS = ["set", "or", "expect", "status", "as", "on", "=", "[", "]", ",", "include", "errSecSuccess",
         "errSecItemNotFound", "errSecDuplicateItem", "-25300", "0", "-", "generic-password", "add", "find", "update",
         "delete", "account=\"a\"", "data=\"x\"", "set", "set data=\"y\"", "#", "\"", "\"\"", "[]", "[a,]",
         "[,]", "[[a]]", "9999999999999999999999", "-0", "--1", "$(AppIdentifierPrefix)", "count", "no-data"]
STATUS = ["errSecSuccess", "errSecItemNotFound", "errSecDuplicateItem", "errSecMissingEntitlement", "-25300",
          "0", "-34018", "errSecNoSuchAttr", "errSecBogus", "\"errSecSuccess\"", "[errSecSuccess]", "or"]


def seeds():
    out = []
    for base in ("examples", "Tests/Golden"):
        for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, base))):
            for f in sorted(files):
                if f.endswith(".kcs"):
                    p = os.path.join(dirpath, f)
                    out.append((os.path.relpath(p, ROOT), open(p, "rb").read()))
    docs = [os.path.join(ROOT, "README.md"), os.path.join(ROOT, "grammar.md")]
    for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "docs"))):
        docs += [os.path.join(dirpath, f) for f in sorted(files) if f.endswith(".md")]
    for p in docs:
        text = open(p, "rb").read()
        for i, m in enumerate(re.finditer(rb"^```kcs[^\n]*\n(.*?)^```", text, re.S | re.M)):
            out.append((f"{os.path.relpath(p, ROOT)}#{i}", m.group(1)))
    return out


def mutate(data: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(22)
    b = bytearray(data)
    pos = rng.randrange(len(b) + 1)
    if kind == 0 and b:  # byte flip
        i = rng.randrange(len(b))
        b[i] = rng.choice([b[i] ^ (1 << rng.randrange(8)), rng.randrange(256), ord(rng.choice('"\\[]=,#\n '))])
        return bytes(b)
    if kind in (1, 2):  # token deletion / duplication
        toks = re.split(rb"(\s+)", data)
        idx = [i for i, t in enumerate(toks) if t.strip()]
        if not idx:
            return data
        i = rng.choice(idx)
        if kind == 1:
            toks[i] = b""
        else:
            toks[i] = toks[i] + b" " + toks[i]
        return b"".join(toks)
    if kind == 3:  # an escape inside a string
        quotes = [m.start() for m in re.finditer(rb'"', data)]
        at = rng.choice(quotes) + 1 if quotes else pos
        return data[:at] + rng.choice(ESCAPES).encode() + data[at:]
    if kind == 4:  # unterminated string at the end of a line
        lines = data.split(b"\n")
        cand = [i for i, l in enumerate(lines) if l.count(b'"') >= 2]
        if cand:
            i = rng.choice(cand)
            j = lines[i].rfind(b'"')
            lines[i] = lines[i][:j] + lines[i][j + 1:]
        else:
            lines.insert(rng.randrange(len(lines) + 1), b'as App add generic-password account="abc')
        return b"\n".join(lines)
    if kind == 5:  # unterminated string at the end of the file
        return data.rstrip(b"\n") + rng.choice([b' "abc', b' "', b' "abc\\', b' "\\u{41', b' "\\u{', b' "a\\"'])
    if kind == 6:  # backslash before a line break inside a string
        quotes = [m.start() for m in re.finditer(rb'"', data)]
        at = rng.choice(quotes) + 1 if quotes else pos
        return data[:at] + rng.choice([b"\\\n", b"ab\\\n", b"\\\r\n", b"\\\\\n"]) + data[at:]
    if kind == 7:  # non-ASCII letters and look-alikes in a word
        words = [m for m in re.finditer(rb"[A-Za-z]{2,}", data)]
        if words:
            m = rng.choice(words)
            at = rng.randrange(m.start(), m.end())
            rep = rng.choice(NON_ASCII).encode()
            return data[:at] + rep + data[at + rng.randrange(2):]
        return data[:pos] + rng.choice(NON_ASCII).encode() + data[pos:]
    if kind == 8:  # NUL
        return data[:pos] + b"\x00" + data[pos:]
    if kind == 9:  # invalid UTF-8
        return data[:pos] + rng.choice(INVALID_UTF8) + data[pos:]
    if kind == 10:  # byte-order mark
        return rng.choice([b"\xef\xbb\xbf" + data, data[:pos] + b"\xef\xbb\xbf" + data[pos:]])
    if kind == 11:  # CRLF, or a lone CR
        return rng.choice([data.replace(b"\n", b"\r\n"), data[:pos] + b"\r" + data[pos:]])
    if kind == 12:  # a very long word
        n = rng.choice([100, 4097, 70000])
        c = rng.choice([b"a", b"-", b"9", b"\xc3\xa9", b"$", b"("])
        return data[:pos] + c * (n // len(c)) + data[pos:]
    if kind == 13:  # a very long line / string
        n = rng.choice([5000, 200000])
        return data + b'\nas App add generic-password account="' + b"x" * n + b'"\n'
    if kind == 14:  # lists
        lists = [b"[a, b]", b"[a, \"b\", 3]", b"[", b"]", b"[a b]", b"[a,,b]", b"[\"\\u{41}\"]", b"[[a]]", b"[]",
                 b"[a,", b"[\"a]", b"[a\n]"]
        m = list(re.finditer(rb"=", data))
        at = rng.choice(m).end() if m else pos
        return data[:at] + rng.choice(lists) + data[at:]
    if kind == 15:  # expect status A or B or C
        line = b"expect status " + b" or ".join(rng.choice(STATUS).encode() for _ in range(rng.randrange(1, 5)))
        if rng.random() < 0.3:
            line += rng.choice([b" or", b" or or", b" and errSecSuccess", b" errSecSuccess"])
        lines = data.split(b"\n")
        lines.insert(rng.randrange(len(lines) + 1), line)
        return b"\n".join(lines)
    if kind == 16:  # set in odd places
        lines = data.split(b"\n")
        i = rng.randrange(len(lines))
        toks = lines[i].split(b" ")
        toks.insert(rng.randrange(len(toks) + 1), rng.choice([b"set", b"set set", b"set data=\"z\"", b"set=1"]))
        lines[i] = b" ".join(toks)
        return b"\n".join(lines)
    if kind == 17:  # a random word of the language
        return data[:pos] + b" " + rng.choice(WORDS).encode() + b" " + data[pos:]
    if kind == 18:  # a string with a random escape, as a value
        m = list(re.finditer(rb"=", data))
        at = rng.choice(m).end() if m else pos
        s = b'"' + b"".join(rng.choice(ESCAPES + ["a", "é", " "]).encode() for _ in range(rng.randrange(1, 4)))
        if rng.random() < 0.8:
            s += b'"'
        return data[:at] + s + data[at:]
    if kind == 19:  # truncation
        return data[:pos]
    if kind == 20:  # splice two lines
        lines = data.split(b"\n")
        if len(lines) > 2:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i] = lines[i] + b" " + lines[j]
        return b"\n".join(lines)
    # a control byte
    return data[:pos] + bytes([rng.choice([1, 7, 8, 9, 11, 12, 13, 27, 127])]) + data[pos:]


def as_markdown(script: bytes, rng: random.Random) -> bytes:
    fence = rng.choice([b"```kcs\n", b"```kcs\n", b"```kcs expect-fail\n", b"~~~kcs\n", b"```kcs \n"])
    close = b"~~~\n" if fence.startswith(b"~") else b"```\n"
    doc = b"# Doc\n\nText before.\n\n" + fence + script
    if not script.endswith(b"\n"):
        doc += b"\n"
    doc += close
    if rng.random() < 0.3:
        doc += b"\nOutput:\n\n```text\nok\n```\n"
    if rng.random() < 0.2:
        doc += b"\n```kcs\n" + script[: len(script) // 2] + b"\n```\n"
    if rng.random() < 0.1:
        doc = doc.rstrip(b"`\n")  # an unclosed fence
    return doc


def commands(name: str, markdown: bool):
    if markdown:
        return [["check", name], ["check", "--format", "json", name], ["fmt", "--check", name],
                ["fmt", "-"]]
    return [["run", name], ["run", "--format", "json", name], ["run", "-v", name], ["fmt", "--check", name],
            ["fmt", "-"], ["lint", name], ["export", "--swift", name], ["matrix", name], ["repl"]]


def execute(binary, args, cwd, stdin):
    try:
        p = subprocess.run([binary] + args, cwd=cwd, input=stdin, capture_output=True, timeout=TIMEOUT,
                           env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "HOME": "/tmp", "LANG": "C.UTF-8"})
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def case(job):
    old, new, workdir, index, origin, data, markdown = job
    ext = ".md" if markdown else ".kcs"
    # The mutant sits next to the examples, so relative includes resolve.
    name = f"dt{index:06d}{ext}"
    path = os.path.join(workdir, "examples", name)
    with open(path, "wb") as f:
        f.write(data)
    results = []
    for args in commands(name, markdown):
        stdin = data if args[-1] in ("-", "repl") else None
        a = execute(old, args, os.path.dirname(path), stdin)
        b = execute(new, args, os.path.dirname(path), stdin)
        crash = b[0] == "timeout" or (isinstance(b[0], int) and b[0] < 0)
        results.append((args, a, b, a != b, crash))
    os.unlink(path)
    return index, origin, data, markdown, results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--count", type=int, default=400, help="mutants (besides the seeds)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="/tmp/kcs-difftest")
    ap.add_argument("--only", nargs="*", default=None,
                    help="run these files as they are (.md as documents) instead of the seeds and mutants")
    o = ap.parse_args()
    old, new = os.path.abspath(o.old), os.path.abspath(o.new)
    shutil.rmtree(o.out, ignore_errors=True)
    work = os.path.join(o.out, "work")
    shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(work, "examples"))
    shutil.copytree(os.path.join(ROOT, "docs"), os.path.join(work, "docs"))
    os.makedirs(os.path.join(o.out, "diffs"))
    rng = random.Random(o.seed)
    base = seeds()
    jobs = []
    if o.only is not None:
        base, o.count = [], 0
        jobs = [(f, open(f, "rb").read(), f.endswith(".md")) for f in o.only]
    for origin, data in base:
        jobs.append((origin, data, False))
    for k in range(o.count):
        origin, data = rng.choice(base)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            data = mutate(data, rng)
        md = rng.random() < 0.25
        if md:
            data = as_markdown(data, rng)
        jobs.append((f"{origin} mutant {k}", data, md))
    tasks = [(old, new, work, i, origin, data, md) for i, (origin, data, md) in enumerate(jobs)]
    differ = {}
    crashes = 0
    runs = 0
    seen = set()
    with concurrent.futures.ThreadPoolExecutor(o.jobs) as pool:
        for index, origin, data, markdown, results in pool.map(case, tasks):
            for args, a, b, differs, crash in results:
                runs += 1
                if not differs and not crash:
                    continue
                key = " ".join(args).replace(f"dt{index:06d}", "F")
                if differs:
                    differ[key] = differ.get(key, 0) + 1
                crashes += crash
                sig = hashlib.sha1(repr((key, a[0], b[0])).encode()).hexdigest()[:8]
                d = os.path.join(o.out, "diffs", f"{index:06d}-{args[0]}-{sig}")
                os.makedirs(d, exist_ok=True)
                with open(os.path.join(d, "input" + (".md" if markdown else ".kcs")), "wb") as f:
                    f.write(data)
                with open(os.path.join(d, "report.txt"), "wb") as f:
                    f.write(f"origin: {origin}\ncommand: kcs {' '.join(args)}\ncrash/timeout in new: {crash}\n".encode())
                    for label, r in (("old", a), ("new", b)):
                        f.write(f"--- {label}: exit {r[0]}\n".encode() + b"stdout:\n" + r[1] + b"\nstderr:\n" + r[2] + b"\n")
                if (key, sig) not in seen:
                    seen.add((key, sig))
                    print(f"DIFF {d} (kcs {key}; exit {a[0]} vs {b[0]})", flush=True)
    print(f"{len(tasks)} inputs ({len(base)} seeds, {o.count} mutants), {runs} command pairs; "
          f"differences: {sum(differ.values())}, crashes or timeouts of the new binary: {crashes}")
    for k, v in sorted(differ.items()):
        print(f"  kcs {k}: {v}")
    return 1 if differ or crashes else 0


if __name__ == "__main__":
    sys.exit(main())
