#!/usr/bin/env python3
"""XBoard's user side plays Palace: Debian's xboard under Xvfb, Palace (`palace xboard`) as its
engine on black, and the user's moves typed into XBoard's move type-in box with xdotool, as a
person would type them on the board window. After the user's last move and Palace's answer the
user resigns (F9), so that XBoard saves the game (-sgf); the final board is then screenshot.

    tests/xboard/user_game.py PALACE OUT_DIR [--moves N] [VARIANT ...]   (default: xiangqi shogi)

Checked for each game: Palace answered every user move with a move (XBoard's debug file), XBoard
accepted them all (its saved game holds every ply and ends with the user's resignation, not with an
illegal move or a lost connection), and every ply is legal by Palace's own rules (`palace status`).
Writes OUT_DIR/xboard-VARIANT.png, .pgn and .debug. Exits 77 (skipped), saying why, when xboard,
Xvfb, xdotool or ImageMagick's import is missing.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
PROGRAMS = ["xboard", "Xvfb", "xdotool", "import"]
# The user's moves, in XBoard's coordinates, the first legal one not yet played at each turn (a
# reply of Palace's may take a piece the list counts on); a short real opening of each game.
OPENINGS = {
    # Central cannon, both horses out, the rooks up: C2=5, H2+3, R1=2, H8+7, R9+1, P7+1, P3+1, C8=6.
    "xiangqi": ["h2e2", "h0g2", "i0h0", "b0c2", "a0a1", "c3c4", "g3g4", "b2d2", "a1d1", "h0h4"],
    # Static rook: 7g7f, 2g2f, 2f2e, 6i7h, 3i4h, 5i6h, 4i5h (gold), 9g9f, 1g1f, 3g3f.
    "shogi": ["c3c4", "h3h4", "h4h5", "d1c2", "g1f2", "e1d2", "f1e2", "a3a4", "i3i4", "g3g4"],
}
VARIANT_FILES = {"xiangqi": "variants/xiangqi.yaml", "shogi": "variants/shogi.yaml"}
# Seconds allowed for one step: XBoard to come up, a move to be typed, Palace to answer.
STEP_TIMEOUT = 20


class Failure(Exception):
    pass


def to_palace(variant, move):
    """XBoard numbers Xiangqi's ten ranks from 0, Palace from 1 (docs/protocols.md)."""
    if variant != "xiangqi":
        return move
    return re.sub(r"([a-i])(\d)", lambda m: m.group(1) + str(int(m.group(2)) + 1), move)


def from_palace(variant, move):
    if variant != "xiangqi":
        return move
    return re.sub(r"([a-i])(\d+)", lambda m: m.group(1) + str(int(m.group(2)) - 1), move)


def wait_for(what, test, timeout=STEP_TIMEOUT):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.1)
    raise Failure(f"timed out after {timeout} s waiting for {what}")


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


class Game:
    def __init__(self, palace, source, out, display, variant, user_moves):
        self.palace, self.source, self.out = palace, source, out
        self.display, self.variant, self.user_moves = display, variant, user_moves
        self.variant_file = os.path.join(source, VARIANT_FILES[variant])
        self.debug = os.path.join(out, f"xboard-{variant}.debug")
        self.pgn = os.path.join(out, f"xboard-{variant}.pgn")
        self.png = os.path.join(out, f"xboard-{variant}.png")
        self.env = dict(os.environ, DISPLAY=display)
        self.plies = []  # every ply so far, in XBoard's coordinates

    def xdotool(self, *args):
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True,
                              timeout=STEP_TIMEOUT).stdout.split()

    def legal_moves(self):
        """The user's legal moves now, in XBoard's coordinates, as Palace's `moves` lists them."""
        moves = [to_palace(self.variant, m) for m in self.plies]
        fen = subprocess.run([self.palace, "play", self.variant_file], input="\n".join(moves + ["fen"]) + "\n",
                             capture_output=True, text=True, timeout=STEP_TIMEOUT).stdout
        fens = [line for line in fen.splitlines() if re.fullmatch(r"\S+/\S+ [wb] .*", line)]
        if not fens:
            raise Failure(f"palace play gave no FEN after {' '.join(moves)}")
        listed = subprocess.run([self.palace, "moves", self.variant_file, "--fen", fens[-1]],
                                capture_output=True, text=True, timeout=STEP_TIMEOUT)
        if listed.returncode != 0:
            raise Failure(f"palace moves: {listed.stderr.strip()}")
        return [from_palace(self.variant, m) for m in listed.stdout.split()]

    def next_user_move(self):
        legal = self.legal_moves()
        if not legal:
            raise Failure(f"the user has no legal move after {' '.join(self.plies)}")
        for move in OPENINGS[self.variant]:
            if move not in self.plies[0::2] and move in legal:
                return move
        return legal[0]

    def game_end(self):
        """Why XBoard ended the game, once it has (its log says GameEnds(CODE, WHY, ...))."""
        ends = re.findall(r"^GameEnds\(\d+, ([^,]*),", read(self.debug), re.M)
        return next((why for why in ends if why != "(null)"), None)

    def complaint(self):
        """Palace's first `Error (...)` or `Illegal move (...)` answer, if it gave one."""
        found = re.search(r"<first : ((?:Illegal move|Error) .*)", read(self.debug))
        return found and found.group(1)

    def engine_moves(self):
        return re.findall(r"^\d+ <first : move (\S+)", read(self.debug), re.M)

    def type_move(self, window, move):
        # A letter typed on the board window opens XBoard's type-in box with it; Return enters the move.
        self.xdotool("windowfocus", "--sync", window)
        self.xdotool("type", "--window", window, "--delay", "20", move)
        box = wait_for("XBoard's type-in box", lambda: self.xdotool("search", "--name", "^Type a move$"))
        self.xdotool("key", "--window", box[0], "Return")

    def play(self):
        home = tempfile.mkdtemp(prefix="xboard-home-")  # XBoard reads and writes ~/.xboardrc
        for path in (self.debug, self.pgn, self.png):
            if os.path.exists(path):
                os.remove(path)
        command = ["xboard", "-variant", self.variant, "-fcp", f"{self.palace} xboard", "-fd", self.source,
                   "-tc", "5", "-inc", "0", "-depth", "4", "-soundMove", "", "-debug", "-nameOfDebugFile", self.debug,
                   "-sgf", self.pgn, "-popupExitMessage", "false", "-popupMoveErrors", "false",
                   "-saveSettingsOnExit", "false", "-autoCallFlag", "true"]
        log = open(os.path.join(self.out, f"xboard-{self.variant}.out"), "w")
        xboard = subprocess.Popen(command, env=dict(self.env, HOME=home), stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_for("Palace's `pong` to XBoard", lambda: "<first : pong" in read(self.debug))
            window = wait_for("XBoard's board window",
                              lambda: self.xdotool("search", "--name", "^xboard: "))[0]
            for _ in range(self.user_moves):
                move = self.next_user_move()
                answered = len(self.engine_moves())
                self.type_move(window, move)
                self.plies.append(move)
                wait_for(f"XBoard to take the user's {move} (it refuses moves it finds illegal)",
                         lambda: len(self.user_moves_sent()) * 2 == len(self.plies) + 1)
                wait_for(f"Palace's answer to {move}", lambda: len(self.engine_moves()) > answered
                         or xboard.poll() is not None or self.game_end() or self.complaint())
                if self.complaint():
                    raise Failure(f"Palace complained after the user's {move}: {self.complaint()}")
                if self.game_end():
                    raise Failure(f"XBoard ended the game after {move}: {self.game_end()}")
                if xboard.poll() is not None:
                    raise Failure(f"XBoard stopped after {move}")
                self.plies.append(self.engine_moves()[-1])
            self.xdotool("key", "--window", window, "F9")  # the user resigns: XBoard ends and saves the game
            wait_for("XBoard's saved game", lambda: re.search(r'^\[Result "[^*]', read(self.pgn), re.M))
            time.sleep(0.5)  # the board is redrawn with the result
            subprocess.run(["import", "-window", window, self.png], env=self.env, check=True, timeout=STEP_TIMEOUT)
        finally:
            xboard.terminate()
            try:
                xboard.wait(timeout=5)
            except subprocess.TimeoutExpired:
                xboard.kill()
            log.close()
            shutil.rmtree(home, ignore_errors=True)
        self.check()

    def user_moves_sent(self):
        # XBoard writes `usermove ` and the move as two entries of its log.
        return re.findall(r"^\d+ >first : usermove (?:\d+ >first : )?(\S+)", read(self.debug), re.M)

    def check(self):
        if self.complaint():
            raise Failure(f"Palace complained: {self.complaint()}")
        sent = self.user_moves_sent()
        if sent != self.plies[0::2]:
            raise Failure(f"XBoard sent {sent}, the user typed {self.plies[0::2]}")
        if self.engine_moves() != self.plies[1::2]:
            raise Failure(f"Palace's moves {self.engine_moves()} differ from the game's {self.plies[1::2]}")
        pgn = read(self.pgn)
        result = re.search(r'^\[Result "([^"]*)"\]', pgn, re.M).group(1)
        body = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\d+\.", " ", pgn).split()
        played = [token for token in body if token != result]
        if result != "0-1" or "{White resigns}" not in pgn or len(played) != len(self.plies):
            raise Failure(f"XBoard's saved game is not the {len(self.plies)} plies ended by the user's "
                          f"resignation:\n{pgn}")
        status = subprocess.run([self.palace, "status", self.variant_file, "--moves",
                                 *[to_palace(self.variant, m) for m in self.plies]],
                                capture_output=True, text=True, timeout=STEP_TIMEOUT)
        if status.returncode != 0:
            raise Failure(f"palace status refuses the game: {status.stderr.strip()}")
        print(f"{self.variant}: {len(self.plies)} plies, every one accepted by XBoard and legal: "
              f"{' '.join(played)}")
        print(f"{self.variant}: screenshot {self.png}, game {self.pgn}, XBoard's log {self.debug}")


def start_xvfb():
    """Xvfb on the first free display, which it names on the pipe it is given."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=[write_end], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    if not number:
        xvfb.kill()
        raise Failure("Xvfb did not start")
    return xvfb, ":" + number


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("palace")
    parser.add_argument("out")
    parser.add_argument("variants", nargs="*", default=["xiangqi", "shogi"], help=" or ".join(OPENINGS))
    parser.add_argument("--moves", type=int, default=8, help="the user's moves in each game")
    args = parser.parse_args()
    for variant in args.variants:
        if variant not in OPENINGS:
            parser.error(f"no opening for {variant!r}: {' or '.join(OPENINGS)}")
    os.environ["PATH"] += os.pathsep + "/usr/games"  # Debian installs xboard there
    missing = [p for p in PROGRAMS if not shutil.which(p)]
    if missing:
        print(f"skipped: {', '.join(missing)} not found (Debian: apt-get install xboard xvfb xdotool imagemagick)")
        return SKIP
    palace = os.path.realpath(args.palace)
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    os.makedirs(args.out, exist_ok=True)
    out = os.path.realpath(args.out)
    xvfb, display = start_xvfb()
    try:
        for variant in args.variants:
            Game(palace, source, out, display, variant, args.moves).play()
    except Failure as failure:
        print(f"xboard user game: {failure}", file=sys.stderr)
        return 1
    finally:
        xvfb.terminate()
        xvfb.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
