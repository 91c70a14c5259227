#!/usr/bin/env bash
# check_includes.sh passes on interpreter/ as it is and fails, saying where and why, on a copy of it
# with one include planted that runs upward, one of a folder in no layer, and one folder layers.txt
# does not name; an include within a layer (position/ of movegen/, both board) stays allowed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_root=$(cd "$here/../../interpreter" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect NAME STATUS EXPECTED_OUTPUT: runs the check on $work/interpreter.
expect() {
  local output status
  output=$("$here/check_includes.sh" "$work/interpreter" 2>&1)
  status=$?
  if [ "$status" -ne "$2" ] || [ "$output" != "$3" ]; then
    printf 'FAIL %s: status %s, output:\n%s\nexpected status %s, output:\n%s\n' "$1" "$status" "$output" "$2" "$3"
    failures=$((failures + 1))
  else
    echo "ok   $1"
  fi
}
fresh_copy() { rm -rf "$work/interpreter" && cp -r "$source_root" "$work/interpreter"; }
layer_count=$(grep -c '^[a-z]*:' "$source_root/layers.txt")
clean="check_includes: every include in $work/interpreter runs down or within a layer ($layer_count layers)"

fresh_copy
expect "the tree as it is" 0 "$clean"

fresh_copy
printf '#include "movegen/movegen.h"\n' >> "$work/interpreter/position/hand.h"
expect "an include within a layer" 0 "$clean"

fresh_copy
printf '#include "search/search.h"\n' >> "$work/interpreter/game/game.h"
expect "an upward include" 1 \
  "interpreter/game/game.h:$(wc -l < "$work/interpreter/game/game.h"): includes \"search/search.h\": game (game/) may not include engine (search/), a layer above it"

fresh_copy
printf '  #  include "cli/commands.h"\n' >> "$work/interpreter/core/text.cpp"
expect "an indented upward include" 1 \
  "interpreter/core/text.cpp:$(wc -l < "$work/interpreter/core/text.cpp"): includes \"cli/commands.h\": core (core/) may not include cli (cli/), a layer above it"

fresh_copy
printf '#include "nowhere/thing.h"\n' >> "$work/interpreter/core/text.h"
expect "an include of a folder in no layer" 1 \
  "interpreter/core/text.h:$(wc -l < "$work/interpreter/core/text.h"): includes \"nowhere/thing.h\", which is in no layer"

fresh_copy
mkdir "$work/interpreter/extra" && printf 'int x;\n' > "$work/interpreter/extra/x.cpp"
expect "a folder layers.txt does not name" 1 "interpreter/extra/: a folder layers.txt does not name"

[ "$failures" -eq 0 ]
