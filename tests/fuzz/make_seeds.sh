#!/usr/bin/env bash
# Assembles the fuzz targets' seed corpora from the repository's own files:
#   make_seeds.sh SOURCE_DIR VECTORS_DIR OUT_DIR
# One folder per target under OUT_DIR, rebuilt from scratch. A missing VECTORS_DIR only means
# fewer FEN and game seeds.
set -euo pipefail
src=$1 vectors=$2 out=$3
rm -rf "$out"
mkdir -p "$out"/{rule_files,hook_script,fen,move_text,rule_script,record,uci,http,api,hook_answers,http_wire}

seed() {  # seed TARGET NAME < text
  cat >"$out/$1/$2"
}

# Rule files: every shipped and test rule file as it is (written beside the repository's folders,
# its relative imports still resolve), and each variant with its rules/ imports inlined as the
# input's later files (fuzz_inputs.h).
for file in "$src"/variants/*.yaml "$src"/rules/*/*.yaml "$src"/tests/loader/bad/*.yaml "$src"/tests/hooks/variants/*.yaml; do
  seed rule_files "$(basename "$(dirname "$file")")-$(basename "$file")" <"$file"
done
for variant in "$src"/variants/*.yaml; do
  text=$(cat "$variant") n=0 parts=()
  for import in $(grep -o '\.\./rules/[A-Za-z0-9_/-]*\.yaml' "$variant"); do
    n=$((n + 1))
    text=${text//"$import"/fuzz$n.yaml}
    parts+=("$(sed 's#\.\./\.\./scripts/#../scripts/#' "$src/variants/$import")")
  done
  for part in "${parts[@]}"; do text+=$'\n#@@\n'"$part"; done
  printf '%s\n' "$text" | seed rule_files "inlined-$(basename "$variant")"
done
# Anchors, aliases and imports among the input's files (issue 53): an alias inside its own anchor,
# aliases of aliases, a chain, a cycle, a diamond, a file imported twice, a second document.
for file in "$src"/tests/repro/billion*.yaml "$src"/tests/repro/audit-4/{selfref_alias,selfref_alias_pieces,multi_document,name_controls,quote_cuts_utf8}.yaml; do
  seed rule_files "repro-$(basename "$file")" <"$file"
done
printf 'import: [../variants/chess.yaml]\nname: &n aliased\ndescription: *n\npieces:\n  queen: &q {moves: [{like: rook}, {like: bishop}]}\n  amazon: {moves: [{like: queen}, {leap: [1, 2]}], value: 12, face: A}\na: &x [*x]\n' |
  seed rule_files alias-self-and-siblings
printf 'import: [../variants/chess.yaml]\nd0: &a [x, {y: x}]\nd1: &b [*a, *a, {z: *a}]\nd2: &c {p: *b, q: [*b, *b]}\npieces: {knight: {moves: [&l {leap: [1, 2]}, *l]}}\n' |
  seed rule_files alias-nested
printf 'import: [fuzz1.yaml]\nname: chain\n\n#@@\nimport: [fuzz2.yaml]\n\n#@@\nimport: [fuzz3.yaml, fuzz2.yaml]\n\n#@@\nimport: [../variants/janggi.yaml]\nboard: &b {files: 9, ranks: 10}\n' |
  seed rule_files import-chain-and-diamond
printf 'import: [fuzz1.yaml, fuzz1.yaml]\n\n#@@\nimport: [fuzz0.yaml]\n' | seed rule_files import-twice-and-cycle
printf 'import: [fuzz1.yaml, fuzz2.yaml]\n\n#@@\nimport: [fuzz3.yaml]\nx: &x {a: [1]}\n\n#@@\nimport: [fuzz3.yaml]\ny: *x\n\n#@@\nimport: [../variants/shogi.yaml]\n---\nname: second\n' |
  seed rule_files import-diamond-documents

for file in "$src"/scripts/*.lua "$src"/tests/hooks/scripts/*.lua "$src"/tests/hooks/rule_scripts/*.lua; do
  seed hook_script "$(basename "$file")" <"$file"
done

for file in "$src"/tests/rules/*.yaml "$src"/tests/rules/fixtures/*.yaml; do
  seed rule_script "$(basename "$file")" <"$file"
done

# FENs: the first field of each vector line (a few per file), and those the rule tests use.
n=0
for file in "$vectors"/*.perft "$vectors"/*.moves "$vectors"/*.notation "$vectors"/*.terminal; do
  [ -f "$file" ] || continue
  awk '!/^#/ && n++ < 20' "$file" | sed 's/ *[;|].*//' | sort -u | while IFS= read -r fen; do
    n=$((n + 1))
    printf '%s' "$fen" | seed fen "$(basename "$file")-$n"
  done
done
grep -ho 'fen: *"[^"]*"' "$src"/tests/rules/*.yaml | sed 's/fen: *"//; s/"$//' | sort -u | while IFS= read -r fen; do
  n=$((n + 1))
  printf '%s' "$fen" | seed fen "rules-$n"
done

# Move texts: games from the start, after the byte that picks the variant (its index in
# variants/, sorted, is the byte modulo their count: A is the first).
index=0
for variant in $(cd "$src/variants" && ls *.yaml | LC_ALL=C sort); do
  letter=$(printf "\\$(printf '%03o' $((65 + index)))")
  index=$((index + 1))
  file="$vectors/${variant%.yaml}.games"
  [ -f "$file" ] || continue
  awk '!/^#/ && n++ < 20' "$file" | sed 's/ *|.*//' | while IFS= read -r game; do
    n=$((n + 1))
    printf '%s%s' "$letter" "$game" | seed move_text "$(basename "$file")-$n"
  done
done

# Records: the repository's game files, after the byte that picks their reader (fuzz_inputs.h).
for file in "$src"/tests/records/*.{pgn,kif,ki2,csa,gib}; do
  case $file in *.gib) reader=g ;; *.csa) reader=b ;; *.kif | *.ki2) reader=a ;; *) reader=p ;; esac
  { printf '%s' "$reader"; cat "$file"; } | seed record "$(basename "$file")"
done

# UCI sessions: each variant chosen by its file, a game's first moves and a search, a perft and a
# position from the vectors, then lines the engine must answer with an info string and go on.
for variant in "$src"/variants/*.yaml; do
  name=$(basename "$variant" .yaml)
  moves=$( { awk '!/^#/' "$vectors/$name.games" 2>/dev/null || true; } | head -n 1 | sed 's/ *|.*//' | cut -d' ' -f1-8)
  fen=$( { awk '!/^#/' "$vectors/$name.moves" 2>/dev/null || true; } | head -n 1 | sed 's/ *[;|].*//')
  {
    printf 'uci\nsetoption name VariantFile value %s\nisready\nucinewgame\n' "$variant"
    printf 'position startpos moves %s\ngo depth 3\ngo perft 2\n' "$moves"
    [ -z "$fen" ] || printf 'position fen %s\ngo nodes 500\n' "$fen"
    printf 'position fen 9/9 w\nposition startpos moves a1a9 z9\ngo depth x\nsetoption name Hash value 0\nflip\n'
  } | seed uci "$name"
done

# HTTP sessions (fuzz_inputs.h): a game of each variant with a game's first moves, an undo, a FEN
# and the engine, then refusals; an uploaded variant; the lists and addresses outside the API.
for variant in "$src"/variants/*.yaml; do
  name=$(basename "$variant" .yaml)
  fen=$( { awk '!/^#/' "$vectors/$name.moves" 2>/dev/null || true; } | head -n 1 | sed 's/ *[;|].*//')
  {
    printf 'POST /api/games\n{"variant": "%s"}' "$name"
    { awk '!/^#/' "$vectors/$name.games" 2>/dev/null || true; } | head -n 1 | sed 's/ *|.*//' | tr ' ' '\n' | head -n 4 |
      while IFS= read -r move; do printf '\n#@@\nPOST /api/games/{id}/moves\n{"move": "%s"}' "$move"; done
    printf '\n#@@\nPOST /api/games/{id}/undo\n#@@\nGET /api/games/{id}/record\n#@@\nGET /api/games/{id}/fen'
    [ -z "$fen" ] || printf '\n#@@\nPUT /api/games/{id}/fen\n{"fen": "%s"}' "$fen"
    printf '\n#@@\nPOST /api/games/{id}/engine\n{"level": 1}\n#@@\nPOST /api/games/{id}/pass\n'
    printf '#@@\nPOST /api/games/{id}/moves\n{"move": "z0z0"}\n#@@\nPUT /api/games/{id}/fen\n{"fen": 7}\n'
    printf '#@@\nPOST /api/games/{id}/engine\n{"level": 99}\n#@@\nGET /api/games/{id}'
  } | seed http "$name"
done
printf 'POST /api/variants\n{"yaml": "import: [janggi.yaml]\\nname: no-facing\\nrules: {facing_royals: allowed}\\n"}' | seed http upload
printf 'GET /api/variants\n#@@\nGET /api/games/none\n#@@\nPOST /api/games\n{"variant": "../x", "formations": 3}\n#@@\nGET /../games.db\n#@@\nDELETE /api/games' |
  seed http refusals

# In-process API sessions (fuzz_inputs.h): the http sessions as they are, each hostile upload of
# tests/repro/serve-and-hooks/ sent whole and then played, and requests another site or a bomb sends.
for file in "$out"/http/*; do cp "$file" "$out/api/$(basename "$file")"; done
raw() {  # raw METHOD PATH HEADERS BODY: a whole request to 127.0.0.1:0 (\r\n in HEADERS expanded)
  printf 'RAW%s %s HTTP/1.1\r\nHost: 127.0.0.1:0\r\n%bContent-Length: %s\r\n\r\n%s' "$1" "$2" "$3" "${#4}" "$4"
}
for file in "$src"/tests/repro/serve-and-hooks/uploads/*_upload.json; do
  name=$(basename "$file" _upload.json)
  { raw POST /api/variants 'Content-Type: application/json\r\n' "$(cat "$file")"
    printf '\n#@@\nPOST /api/games\n{"variant": "{id}"}\n#@@\nPOST /api/games/{id}/engine\n{"level": 2}\n#@@\nGET /api/games/{id}'
  } | seed api "upload-$name"
done
{ raw POST /api/games 'Content-Type: text/plain\r\nOrigin: http://evil.example\r\n' '{}'
  printf '\n#@@\n'; raw POST /api/games 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n' $'2\r\n{}\r\n0\r\n\r\n'
  printf '\n#@@\n'; raw POST /api/games 'Content-Type: application/json\r\nContent-Encoding: gzip\r\n' 'xx'
  printf '\n#@@\n'; raw GET '/app.js%00.html' '' ''
} | seed api hostile-requests
printf 'UPLOAD\nimport: [chess.yaml]\nname: up\nscripts:\n  s: s.lua\npieces:\n  knight: {hooks: {add_moves: s.add}}\n#--\nlocal n = 0\nfunction add(piece, at) n = n + 1; return {{to = "e4"}} end\n#@@\nPOST /api/games\n{"variant": "{id}"}\n#@@\nPOST /api/games/{id}/engine\n{"level": 1}' |
  seed api upload-form

# Hook answers: the byte picking the hook, then a program building the value (fuzz_inputs.cpp):
# a list of one point, a point and its mode, a table holding itself, a shared table, odd numbers.
printf '\0\x04\x04\x1f\x36\x06' | seed hook_answers add-moves-point
printf '\0\x04\x04\x1f\x8e\x4b\x96\x06' | seed hook_answers add-moves-mode
printf '\1\x01' | seed hook_answers allow-integer
printf '\1\x04\x2d\x06' | seed hook_answers allow-cycle
printf '\2\x04\x04\x2d\x06\x2d\x0e\x2d\x16' | seed hook_answers after-move-shared
printf '\2\x04\x04\x12\x06\x0a\x0e' | seed hook_answers after-move-floats

# Requests on sockets in pieces (fuzz_inputs.h): a piece's first byte picks its connection (modulo 3)
# and its pause (0 to 120 ms). Whole, dripped, pipelined, cut off, with 100-continue, too large.
get='GET /api/variants HTTP/1.1\r\nHost: {host}\r\n\r\n'
post='POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: 20\r\n'
printf "0$get" | seed http_wire whole
printf "0POST /api/games HTTP/1.1\r\nHost: {host}\r\n\n#@@\n3Content-Type: appl\n#@@\n6ication/json\r\nContent-Length: 20\r\n\r\n{\"variant\"\n#@@\n9: \"chess\"}" | seed http_wire pieces
printf "0$get$get\n#@@\n1$post\r\n{\"variant\": \"chess\"}" | seed http_wire pipelined
printf "0GET /api/vari\n#@@\n0close\n#@@\n1$get" | seed http_wire cut-off
printf "0${post}Expect: 100-continue\r\n\r\n\n#@@\n9{\"variant\": \"chess\"}" | seed http_wire continue
printf "0POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Length: 99999999\r\n\r\n\n#@@\n1POST / HTTP/1.1\r\nContent-Length: 5x\r\n\r\n" | seed http_wire lengths
printf "0GET /api/variants HTTP/1.1\r\nHost: {host}\r\nX: \n#@@\n9a\n#@@\n9a\n#@@\n9a\n#@@\n9a\n#@@\n9a\n#@@\n9a\n#@@\n9a\n#@@\n9a" | seed http_wire slow-head
