#!/bin/sh
# XBoard, headless under Xvfb, plays Palace (`palace xboard`, red) against Fairy-Stockfish in
# Xiangqi, both over CECP; once XBoard has saved the finished game it takes a screenshot of the
# final board. Needs Debian's xboard, xvfb and imagemagick (docs/protocols.md).
#   bench/xboard_xvfb.sh [PALACE] [OUT_DIR]   (default: build/palace, build/xboard)
set -eu
export PATH="$PATH:/usr/games"
palace=$(realpath "${1:-build/palace}")
out=$(mkdir -p "${2:-build/xboard}" && realpath "${2:-build/xboard}")
display=:77
Xvfb $display -screen 0 1000x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
sleep 1
rm -f "$out/game.pgn"
DISPLAY=$display timeout 300 xboard -variant xiangqi -initialMode TwoMachines \
  -fcp "$palace xboard" -fd "$(pwd)" -scp fairy-stockfish -sd "$out" \
  -tc 0:20 -inc 0.2 -autoCallFlag true -debug -nameOfDebugFile "$out/xboard.debug" \
  -sgf "$out/game.pgn" -popupExitMessage false >"$out/xboard.out" 2>&1 &
xboard=$!
# XBoard writes the game file when the game ends.
while kill -0 $xboard 2>/dev/null && ! grep -q '^\[Result "[^*]' "$out/game.pgn" 2>/dev/null; do sleep 1; done
sleep 2
DISPLAY=$display import -window root -crop 424x540+0+0 "$out/xboard-xiangqi.png"
kill $xboard 2>/dev/null || true
grep '^\[Result' "$out/game.pgn"
echo "screenshot: $out/xboard-xiangqi.png"
