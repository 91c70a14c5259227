#!/usr/bin/env bash
# Runs fuzz targets built by `cmake --build BUILD --target fuzz` for a bounded time each:
#   tests/fuzz/run.sh BUILD SECONDS [TARGET...]      (default: every target built)
# Each grows BUILD/fuzz/corpus/TARGET from BUILD/fuzz/seeds/TARGET; a crash, leak, sanitizer
# report or hang leaves its input as BUILD/fuzz/artifacts/TARGET/crash-* (or leak-, timeout-, oom-)
# and ends the script with an error. The last line per target: executions per second, corpus size.
set -euo pipefail
build=$1 seconds=$2
shift 2
targets=("$@")
dir=$build/fuzz
if [ ${#targets[@]} -eq 0 ]; then
  for exe in "$dir"/fuzz_*; do targets+=("${exe##*/fuzz_}"); done
fi
for target in "${targets[@]}"; do
  mkdir -p "$dir/corpus/$target" "$dir/artifacts/$target"
  log=$dir/artifacts/$target/log
  echo "fuzz_$target: ${seconds}s"
  if ! "$dir/fuzz_$target" "$dir/corpus/$target" "$dir/seeds/$target" \
      -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=16384 \
      -print_final_stats=1 -artifact_prefix="$dir/artifacts/$target/" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "fuzz_$target found a failure: $dir/artifacts/$target/" >&2
    exit 1
  fi
  execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  echo "  $execs exec/s, corpus $(ls "$dir/corpus/$target" | wc -l) files"
done
