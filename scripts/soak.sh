#!/usr/bin/env bash
# Mixed load against one rxlive for N minutes, sampled once a second (scripts/soak.py):
#
#   scripts/soak.sh [MINUTES]          default 10; docs/FUZZING.md has a run's table
#
#   SOAK_BIN   where rxlive and ws-bench are (default .build/release; built when missing)
#   SOAK_OUT   where the CSV, the table and the server's log go (default artifacts/soak)
#
# Not part of make test: it runs for minutes. Loopback only; it stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${SOAK_BIN:-.build/release}"
if [ ! -x "$bin/rxlive" ] || [ ! -x "$bin/ws-bench" ]; then
    swift build -c release --product rxlive
    swift build -c release --product ws-bench
fi
exec .venv/bin/python scripts/soak.py --minutes "${1:-10}" --bin "$bin" --out "${SOAK_OUT:-artifacts/soak}"
