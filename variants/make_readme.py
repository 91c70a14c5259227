#!/usr/bin/env python3
"""Writes variants/README.md: every game file here, its wire name and its rules in a line.

    variants/make_readme.py [--check]

The line is the first sentence of the file's opening comment, so a file's header is its entry and a
new file needs no other edit. --check exits 1 when README.md differs from what would be written
(the test `variants/readme` runs it).
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent

HEAD = """# The games

Every file in this folder, written by `variants/make_readme.py` from the files' opening comments
(edit those, then run it). The wire name is the reference engine's name for the same rules
(`uci: {variant: NAME}`): GUIs, `palace match` and the Python module find the file by it. Files of
rules to import (boards, pieces, evaluations) are in `rules/`.

| file | wire name | rules |
|---|---|---|
"""


def header_sentence(text):
    lines = []
    for line in text.splitlines():
        if line.startswith('# yaml-language-server'):
            continue
        if not line.startswith('#'):
            break
        lines.append(line[1:].strip())
    words = ' '.join(lines)
    end = re.search(r'\.(\s|$)', words)
    return words[:end.start() + 1] if end else words


def wire_name(text):
    found = re.search(r'^uci:\s*(?:\{\s*variant:\s*([\w-]+))?', text, re.MULTILINE)
    return f'`{found.group(1)}`' if found and found.group(1) else '—'


def readme():
    rows = []
    for path in sorted(HERE.glob('*.yaml')):
        text = path.read_text(encoding='utf-8')
        rows.append(f'| `{path.name}` | {wire_name(text)} | {header_sentence(text).replace("|", "/")} |\n')
    return HEAD + ''.join(rows)


def main():
    target = HERE / 'README.md'
    if sys.argv[1:] == ['--check']:
        if not target.exists() or target.read_text(encoding='utf-8') != readme():
            sys.exit('variants/README.md is not what variants/make_readme.py writes: run it')
        return
    target.write_text(readme(), encoding='utf-8')


if __name__ == '__main__':
    main()
