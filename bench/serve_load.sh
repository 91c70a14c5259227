#!/usr/bin/env bash
# The load test of `palace serve` (bench/serve_load.mjs): 200 games at once, then a restart.
#   bench/serve_load.sh [BUILD_DIR=build] [GAMES=200] [PLIES=20]
set -euo pipefail
cd "$(dirname "$0")/.."
exec node bench/serve_load.mjs "${1:-build}/palace" "${2:-200}" "${3:-20}"
