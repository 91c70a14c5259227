#!/usr/bin/env python3
"""Omega chess perft by a second, independent implementation: pure Python, no Palace code.

    tests/vectors/omega_perft.py DEPTH [FEN]
    tests/vectors/omega_perft.py --check PALACE   (the ctest: its counts against `palace perft`)

Prints the count of legal move sequences of DEPTH plies from FEN (default: the start), the rules
as omegachess.com/rules gives them: a 10x10 field with a wizard point outside each corner, the
champion (one step straight, or a jump of two straight or diagonally), the wizard (one step
diagonally, or the (1,3) leap), pawns stepping one, two or three points from their start and
taken en passant on either point skipped, promotion on the far rank to any piece but the king,
castling as in chess. The FEN is Palace's: 12x12, a point outside the board written `*`.
"""
import sys

N = 12
START = ('w**********w/*crnbqkbnrc*/*pppppppppp*/*10*/*10*/*10*/*10*/*10*/*10*/*PPPPPPPPPP*/*CRNBQKBNRC*/'
         'W**********W w KQkq - 0 1')


def on_board(f, r):
    if f < 0 or f >= N or r < 0 or r >= N:
        return False
    return (1 <= f <= 10 and 1 <= r <= 10) or (f in (0, 11) and r in (0, 11))


KING = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if df or dr]
ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(a * x, b * y) for a, b in ((1, 2), (2, 1)) for x in (1, -1) for y in (1, -1)]
CAMEL = [(a * x, b * y) for a, b in ((1, 3), (3, 1)) for x in (1, -1) for y in (1, -1)]
CHAMPION = ORTH + [(2 * df, 2 * dr) for df, dr in ORTH + DIAG]
WIZARD = DIAG + CAMEL
LEAPS = {'k': KING, 'n': KNIGHT, 'c': CHAMPION, 'w': WIZARD}
SLIDES = {'q': ORTH + DIAG, 'r': ORTH, 'b': DIAG}
PROMOTIONS = 'qcrwbn'
# Castling: right, king from, king to, rook from, rook to, points to be empty, points not attacked.
CASTLINGS = [
    ('K', (6, 1), (8, 1), (9, 1), (7, 1), [(7, 1), (8, 1)], [(6, 1), (7, 1), (8, 1)]),
    ('Q', (6, 1), (4, 1), (2, 1), (5, 1), [(3, 1), (4, 1), (5, 1)], [(6, 1), (5, 1), (4, 1)]),
    ('k', (6, 10), (8, 10), (9, 10), (7, 10), [(7, 10), (8, 10)], [(6, 10), (7, 10), (8, 10)]),
    ('q', (6, 10), (4, 10), (2, 10), (5, 10), [(3, 10), (4, 10), (5, 10)], [(6, 10), (5, 10), (4, 10)]),
]


def white(p):
    return p.isupper()


class Position:
    def __init__(self, fen):
        fields = fen.split()
        self.board = {}
        rows = fields[0].split('/')
        assert len(rows) == N, 'expected 12 ranks'
        for i, row in enumerate(rows):
            r, f, j = N - 1 - i, 0, 0
            while j < len(row):
                if row[j].isdigit():
                    k = j
                    while k < len(row) and row[k].isdigit():
                        k += 1
                    f += int(row[j:k])
                    j = k
                    continue
                if row[j] != '*':
                    assert on_board(f, r), f'piece off the board at {f},{r}'
                    self.board[(f, r)] = row[j]
                f += 1
                j += 1
            assert f == N, f'rank {r + 1} has {f} points'
        self.white = fields[1] == 'w'
        self.rights = set(fields[2]) - {'-'}
        assert fields[3] == '-', 'en passant in a FEN is not read here'
        self.ghosts = ()      # points skipped by the last move's pawn leap
        self.ghost_pawn = None

    def attacked(self, sq, by_white):
        f, r = sq
        board = self.board

        def enemy(p, kind):
            return p is not None and white(p) == by_white and p.lower() == kind

        for kind, deltas in LEAPS.items():
            for df, dr in deltas:
                if enemy(board.get((f + df, r + dr)), kind):
                    return True
        for df, dr in ORTH + DIAG:
            t = (f + df, r + dr)
            while on_board(*t):
                p = board.get(t)
                if p is not None:
                    kind = p.lower()
                    if white(p) == by_white and (kind == 'q' or (kind == 'r' and (df == 0 or dr == 0)) or
                                                 (kind == 'b' and df and dr)):
                        return True
                    break
                t = (t[0] + df, t[1] + dr)
        back = -1 if by_white else 1  # a pawn attacks from one rank behind, as it moves
        return any(enemy(board.get((f + df, r + back)), 'p') for df in (-1, 1))

    def pseudo_moves(self):
        moves = []  # (from, to, promotion, kind of move)
        us = self.white
        for (f, r), p in list(self.board.items()):
            if white(p) != us:
                continue
            kind = p.lower()
            if kind in LEAPS:
                for df, dr in LEAPS[kind]:
                    t = (f + df, r + dr)
                    q = self.board.get(t)
                    if on_board(*t) and (q is None or white(q) != us):
                        moves.append(((f, r), t, None, 'normal'))
            elif kind in SLIDES:
                for df, dr in SLIDES[kind]:
                    t = (f + df, r + dr)
                    while on_board(*t):
                        q = self.board.get(t)
                        if q is None or white(q) != us:
                            moves.append(((f, r), t, None, 'normal'))
                        if q is not None:
                            break
                        t = (t[0] + df, t[1] + dr)
            else:
                self.pawn_moves((f, r), moves)
        for right, kfrom, kto, rfrom, rto, empty, safe in CASTLINGS:
            if right in self.rights and right.isupper() == us and self.board.get(kfrom) == ('K' if us else 'k') \
                    and self.board.get(rfrom) == ('R' if us else 'r') and all(s not in self.board for s in empty) \
                    and not any(self.attacked(s, not us) for s in safe):
                moves.append((kfrom, kto, right, 'castle'))
        return moves

    def pawn_moves(self, sq, moves):
        f, r = sq
        us = self.white
        up = 1 if us else -1
        start = 2 if us else 9
        last = 10 if us else 1

        def add(t, how):
            if t[1] == last:
                for promo in PROMOTIONS:
                    moves.append((sq, t, promo, how))
            else:
                moves.append((sq, t, None, how))

        for steps in (1, 2, 3):
            if steps > 1 and r != start:
                break
            t = (f, r + up * steps)
            if not on_board(*t) or t in self.board:
                break
            add(t, 'normal' if steps == 1 else 'leap')
        for df in (-1, 1):
            t = (f + df, r + up)
            if not on_board(*t):
                continue
            q = self.board.get(t)
            if q is not None and white(q) != us:
                add(t, 'normal')
            elif q is None and t in self.ghosts:
                add(t, 'ep')

    def play(self, move):
        frm, to, promo, how = move
        undo = (dict(self.board), set(self.rights), self.ghosts, self.ghost_pawn)
        board = self.board
        p = board.pop(frm)
        if how == 'castle':
            _, kfrom, kto, rfrom, rto, _, _ = next(c for c in CASTLINGS if c[0] == promo)
            board[rto] = board.pop(rfrom)
            board[kto] = p
        else:
            if how == 'ep':
                del board[self.ghost_pawn]
            board[to] = (promo.upper() if self.white else promo) if promo else p
        self.ghosts, self.ghost_pawn = (), None
        if how == 'leap':
            up = 1 if self.white else -1
            self.ghosts = tuple((frm[0], r) for r in range(frm[1] + up, to[1], up))
            self.ghost_pawn = to
        for right, kfrom, _, rfrom, _, _, _ in CASTLINGS:
            if frm in (kfrom, rfrom) or to in (kfrom, rfrom):
                self.rights.discard(right)
        self.white = not self.white
        return undo

    def undo(self, undo):
        self.board, self.rights, self.ghosts, self.ghost_pawn = undo
        self.white = not self.white

    def legal_moves(self):
        legal = []
        us = self.white
        for m in self.pseudo_moves():
            undo = self.play(m)
            king = next(s for s, p in self.board.items() if p == ('K' if us else 'k'))
            if not self.attacked(king, not us):
                legal.append(m)
            self.undo(undo)
        return legal


def perft(pos, depth):
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        undo = pos.play(m)
        total += perft(pos, depth - 1)
        pos.undo(undo)
    return total


# Depths 1 to 2 from the start and from two mid-game positions with castling open on both wings
# (a few seconds); the deeper table is in docs/engine-log.md.
MIDGAME = '*4P5*/*3p6*/*10*/*4P5*/*10*/*2N7*/*P2C4P1*/*1R3K2R1*/W**********W'
CHECKS = [(START, 2), ('w**********w/*1r3k2r1*/*1p8*/' + MIDGAME + ' w KQkq - 0 1', 2),
          ('w**********w/*1r3k2r1*/*1p8*/' + MIDGAME + ' b KQkq - 0 1', 2)]


def check(palace):
    import subprocess
    failed = 0
    for fen, depth in CHECKS:
        for d in range(1, depth + 1):
            out = subprocess.run([palace, 'perft', 'variants/omega.yaml', '--fen', fen, '--depth', str(d)],
                                 capture_output=True, text=True, check=True).stdout.split()[-1]
            ours = perft(Position(fen), d)
            if int(out) != ours:
                failed += 1
                print(f'{fen} depth {d}: palace {out}, this script {ours}')
    print(f'{len(CHECKS)} positions, {failed} differ')
    sys.exit(1 if failed else 0)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--check':
        check(sys.argv[2])
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    depth = int(sys.argv[1])
    pos = Position(sys.argv[2] if len(sys.argv) == 3 else START)
    print(perft(pos, depth) if depth else 1)


if __name__ == '__main__':
    main()
