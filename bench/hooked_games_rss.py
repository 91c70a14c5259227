#!/usr/bin/env python3
"""The memory `palace serve` holds for games on an uploaded variant with Lua hooks: the server's RSS
once started, after the upload, and after GAMES games on it, each with one move played (so that
its hooks have run). Extra arguments go to `palace serve` (e.g. --hooked-games-in-memory 64).
  python3 bench/hooked_games_rss.py build/palace [GAMES=50] [UPLOAD=tests/repro/serve-and-hooks/uploads/fat_upload.json] [SERVE_ARGS...]
"""
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1)) / 1024


def call(port, method, path, body):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(method, path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read() or b"null")
    connection.close()
    return response.status, answer


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    palace = os.path.abspath(sys.argv[1])
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    upload = sys.argv[3] if len(sys.argv) > 3 else os.path.join(ROOT, "tests/repro/serve-and-hooks/uploads/fat_upload.json")
    with tempfile.TemporaryDirectory(prefix="palace-rss-") as scratch:
        server = subprocess.Popen([palace, "serve", "--port", "0", "--db", os.path.join(scratch, "games.db")] + sys.argv[4:],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            port = int(re.search(r"127\.0\.0\.1:(\d+)", server.stdout.readline()).group(1))
            started = rss_mb(server.pid)
            with open(upload) as f:
                status, answer = call(port, "POST", "/api/variants", json.load(f))
            if status != 201:
                raise RuntimeError(f"the upload answered {status}: {answer}")
            variant = answer["variant"]
            uploaded = rss_mb(server.pid)
            began = time.monotonic()
            for _ in range(games):
                status, game = call(port, "POST", "/api/games", {"variant": variant})
                if status != 201:
                    raise RuntimeError(f"a game answered {status}: {game}")
                status, moved = call(port, "POST", f"/api/games/{game['id']}/moves", {"move": game["legal_moves"][0]})
                if status != 200:
                    raise RuntimeError(f"a move answered {status}: {moved}")
            seconds = time.monotonic() - began
            print(f"RSS: {started:.0f} MB started, {uploaded:.0f} MB after the upload, {rss_mb(server.pid):.0f} MB after "
                  f"{games} games with a move each ({seconds:.1f} s)")
        finally:
            server.terminate()
            server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
