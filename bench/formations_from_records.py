#!/usr/bin/env python3
"""Janggi formation statistics from real games' .gib records, to set beside `palace balance
VARIANT --formations all`.

    python3 bench/formations_from_records.py /tmp/kakao-gib/카카오*.gib \
        [--palace build/palace --variant variants/janggi-kakao.yaml]

Source: the Kakao Janggi records `gibo/카카오*` of github.com/POBSIZ/JANGGI_DOT_COM (~5,800 games,
cp949). Prints the games counted, Cho's score (wins + half draws over games) with a 95% interval
(normal approximation), the draw rate, game length in plies (median and quartiles) and Cho's score
per formation pair with its game count (rows Cho's formation, columns Han's), laid out as
`palace balance` prints its table. A game without a result ([대국결과] "미상", "무효", missing) or a
formation tag ([초차림]/[한차림]; handicap games draw a [판] instead) is skipped and counted.

Formations are named as Palace's .gib reader names them (interpreter/notation/gib.cpp with
rules/janggi/setup.yaml): a tag spells the pieces from file b to file h of the side's formation
squares, the same way for both sides, 상 elephant and 마 horse:
    마상상마 inner-elephant, 상마마상 outer-elephant, 상마상마 left-elephant, 마상마상 right-elephant.
Plies are palace replay's where the binary reads the game (--palace, given or found), else the
record's numbered moves.
"""
import argparse
import math
import os
import re
import subprocess
import sys

FORMATIONS = ["inner-elephant", "outer-elephant", "left-elephant", "right-elephant"]
PIECE = {"상": "E", "象": "E", "相": "E", "마": "H", "馬": "H"}
SPELLED = {"HEEH": "inner-elephant", "EHHE": "outer-elephant", "EHEH": "left-elephant", "HEHE": "right-elephant"}
CHO_WORDS = ("초", "楚")
HAN_WORDS = ("한", "漢")
DRAW_WORDS = ("무승부", "비김", "빅장")


def formation(value):
    if value in FORMATIONS:
        return value
    return SPELLED.get("".join(PIECE.get(c, "?") for c in value.strip()))


def result(value):
    """Cho's points: 1, 0.5 or 0; None where the tag names no result."""
    v = value.strip()
    if any(w in v for w in DRAW_WORDS):
        return 0.5
    if v.startswith(CHO_WORDS):
        return 1.0
    if v.startswith(HAN_WORDS):
        return 0.0
    return None


def read_games(path):
    """Each game of a .gib file: (first line, tags, moves counted)."""
    with open(path, "rb") as f:
        text = f.read().decode("cp949", errors="replace")
    games, tags, moves, start, in_moves = [], None, 0, 0, False
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r'\s*\[(\S+)\s+"(.*)"\]\s*$', line)
        if m:
            if tags is None or in_moves:
                if tags is not None:
                    games.append((start, tags, moves))
                tags, moves, start, in_moves = {}, 0, n, False
            tags[m.group(1)] = m.group(2)
        elif tags is not None and line.strip():
            in_moves = True
            moves += len(re.findall(r"(?:^|\s)\d+\.", line))
    if tags is not None:
        games.append((start, tags, moves))
    return games


def replay_plies(palace, variant, files):
    """(file, first line) -> plies, for the games palace replay reads."""
    plies = {}
    if not palace:
        return plies
    for path in files:
        out = subprocess.run([palace, "replay", path, "--variant", variant], capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.search(r"\(line (\d+)\): good: [^,]*, (\d+) plies", line)
            if m:
                plies[(path, int(m.group(1)))] = int(m.group(2))
    return plies


def quantile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    x = q * (len(sorted_values) - 1)
    lo = int(math.floor(x))
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (x - lo)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--palace", default=os.path.join(root, "build", "palace"), help="palace binary ('' for none)")
    ap.add_argument("--variant", default=os.path.join(root, "variants", "janggi-kakao.yaml"))
    args = ap.parse_args()
    palace = args.palace if args.palace and os.access(args.palace, os.X_OK) else None

    plies_of = replay_plies(palace, args.variant, args.files)
    games, skipped = [], {"no result": 0, "no formation": 0}
    for path in args.files:
        for start, tags, moves in read_games(path):
            res = result(tags.get("대국결과", ""))
            cho = formation(tags.get("초차림", tags.get("초포진", "")))
            han = formation(tags.get("한차림", tags.get("한포진", "")))
            if res is None:
                skipped["no result"] += 1
            elif cho is None or han is None:
                skipped["no formation"] += 1
            else:
                games.append((cho, han, res, plies_of.get((path, start), moves), (path, start) in plies_of))

    n = len(games)
    print(f"{len(args.files)} files, {n + sum(skipped.values())} games: {n} counted, "
          f"{sum(skipped.values())} skipped ({skipped['no result']} without a result, "
          f"{skipped['no formation']} without a formation tag)")
    if not n:
        return 1
    points = sum(g[2] for g in games)
    draws = sum(1 for g in games if g[2] == 0.5)
    wins = sum(1 for g in games if g[2] == 1.0)
    p = points / n
    var = sum((g[2] - p) ** 2 for g in games) / n  # per-game variance, draws included
    half = 1.96 * math.sqrt(var / n)
    print(f"Cho {100 * p:.1f}% (95% interval {100 * (p - half):.1f} to {100 * (p + half):.1f}%): "
          f"{wins} Cho wins, {n - wins - draws} Han wins, {draws} draws (draw rate {100 * draws / n:.1f}%)")
    lengths = sorted(g[3] for g in games)
    replayed = sum(1 for g in games if g[4])
    print(f"median length {quantile(lengths, 0.5):.0f} plies (quartiles {quantile(lengths, 0.25):.0f} to "
          f"{quantile(lengths, 0.75):.0f}); plies from palace replay for {replayed} games, "
          f"from the record's moves for {n - replayed}")

    cell = {}
    for cho, han, res, _, _ in games:
        pts, cnt = cell.get((cho, han), (0.0, 0))
        cell[(cho, han)] = (pts + res, cnt + 1)
    print("Cho's score (rows: Cho's formation, columns: Han's), games in brackets")
    print(" " * 16 + "".join(f"{name:>16}" for name in FORMATIONS))
    for r in FORMATIONS:
        row = f"{r:>16}"
        for c in FORMATIONS:
            pts, cnt = cell.get((r, c), (0.0, 0))
            row += f"{(f'{100 * pts / cnt:.1f}% ({cnt})' if cnt else '-'):>16}"
        print(row)
    for side, idx in (("Cho", 0), ("Han", 1)):
        parts = []
        for f in FORMATIONS:
            sel = [g for g in games if g[idx] == f]
            if sel:
                s = sum(g[2] for g in sel) / len(sel)
                parts.append(f"{f} {len(sel)} games, Cho {100 * s:.1f}%")
        print(f"by {side}'s formation: " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
