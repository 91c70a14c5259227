#!/usr/bin/env bash
# The reference vectors the tests read are a copy of the project's shared set, so that a clone alone
# passes. `sync_reference.sh` refreshes the copy; `sync_reference.sh --check` fails when it differs
# from the shared set, and exits 77 (skipped) where there is no shared set beside the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=${PALACE_SHARED_VECTORS:-$here/../../../shared/vectors}
copy=$here/reference
if [ ! -d "$source_dir" ]; then
  echo "no shared vectors at $source_dir: nothing to compare" >&2
  [ "${1:-}" = --check ] && exit 77
  exit 1
fi
if [ "${1:-}" = --check ]; then
  diff -r -q "$source_dir" "$copy" || { echo "tests/vectors/reference differs from $source_dir: run $0" >&2; exit 1; }
  exit 0
fi
rm -rf "$copy"
cp -r "$source_dir" "$copy"
chmod -R u+w "$copy"
