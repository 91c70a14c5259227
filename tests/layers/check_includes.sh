#!/usr/bin/env bash
# Fails, naming file, line and both layers, on an #include in interpreter/ that runs upward: from a
# file of one layer to a header of a layer listed after it in interpreter/layers.txt. Also fails on
# a folder that layers.txt does not name, and on an include of a folder that does not exist.
#   tests/layers/check_includes.sh [INTERPRETER_DIR]    (default: the interpreter/ beside tests/)
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/../../interpreter" && pwd)"}
[ -f "$root/layers.txt" ] || { echo "check_includes: no layers.txt in $root" >&2; exit 2; }

# folder -> position of its layer, and folder -> layer name, from the one list.
declare -A rank layer
n=0
while IFS= read -r line; do
  line=${line%%#*}
  [[ $line == *:* ]] || continue
  name=${line%%:*}
  for folder in ${line#*:}; do
    rank[$folder]=$n
    layer[$folder]=${name// /}
  done
  n=$((n + 1))
done < "$root/layers.txt"

status=0
for dir in "$root"/*/; do
  folder=$(basename "$dir")
  [ -n "${rank[$folder]+set}" ] || { echo "interpreter/$folder/: a folder layers.txt does not name"; status=1; }
done
while IFS= read -r hit; do
  # hit: ./FOLDER/FILE:LINE:#include "folder/header.h", relative so that no colon of $root confuses it
  from=${hit#./}
  from=${from%%:*}
  rest=${hit#*:}
  lineno=${rest%%:*}
  target=${rest#*\"}
  target=${target%%\"*}
  from_folder=${from%%/*}
  to_folder=${target%%/*}
  [ -n "${rank[$from_folder]+set}" ] || continue  # reported above
  if [ "$to_folder" = "$target" ]; then
    echo "interpreter/$from:$lineno: includes \"$target\" without its folder"
    status=1
  elif [ -z "${rank[$to_folder]+set}" ]; then
    echo "interpreter/$from:$lineno: includes \"$target\", which is in no layer"
    status=1
  elif [ "${rank[$to_folder]}" -gt "${rank[$from_folder]}" ]; then
    echo "interpreter/$from:$lineno: includes \"$target\": ${layer[$from_folder]} ($from_folder/) may not include" \
         "${layer[$to_folder]} ($to_folder/), a layer above it"
    status=1
  fi
done < <(cd "$root" && grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' --include='*.h' --include='*.cpp' . || true)
[ $status -eq 0 ] && echo "check_includes: every include in $root runs down or within a layer ($n layers)"
exit $status
