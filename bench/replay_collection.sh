#!/bin/sh
# Replays every record (.pgn, .gib, .kif, .kifu, .ki2, .ki2u, .csa) under DIR with VARIANT and prints
# how many notes the games have (rulings the players went past), then, like `palace replay`, one
# last line "N games, M good, K bad". Each game's lines go to LOG (default: replay.log) so the
# bad ones can be read with `grep ': bad:' LOG`, the notes with `grep ': note:' LOG`. The files go to palace in batches, so a collection
# of any size fits the command line.
#   bench/replay_collection.sh /work/collections/janggi-gib variants/janggi-kakao.yaml
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 DIR VARIANT_YAML [LOG]" >&2
  exit 2
fi
dir=$1 variant=$2 log=${3:-replay.log}
palace=${PALACE:-$(dirname "$0")/../build/palace}
: > "$log"
find "$dir" -type f \( -iname '*.pgn' -o -iname '*.gib' -o -iname '*.kif' -o -iname '*.kifu' -o -iname '*.ki2' \
  -o -iname '*.ki2u' -o -iname '*.csa' \) -print0 | sort -z |
  xargs -0 -n 200 "$palace" replay --variant "$variant" >> "$log" || true
# Each batch ends with its own total; the sum of those is the collection's.
awk '/^[0-9]+ games?, [0-9]+ good, [0-9]+ bad$/ { n += $1; g += $3; b += $5 }
     / game [0-9]+ \(line [0-9]+\): note: / { notes++ }
     END { printf "%d %s\n", notes, notes == 1 ? "note" : "notes"
           printf "%d %s, %d good, %d bad\n", n, n == 1 ? "game" : "games", g, b }' "$log"
