#!/usr/bin/env bash
# Echo benchmark (issue 4): RxLive's autobahn-echo vs Debian's Node `ws`, same client, same run.
# Builds release, starts both servers on free 127.0.0.1 ports, runs `ws-bench echo` against
# each (64 connections, one message in flight each), prints both figures, stops both servers.
# Usage: scripts/bench-server.sh [seconds=5] [connections=64]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-5}"
CONNECTIONS="${2:-64}"

swift build -c release --product autobahn-echo >/dev/null
swift build -c release --product ws-bench >/dev/null
BIN="$(swift build -c release --show-bin-path)"

source scripts/lib/ports.sh

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

RX_PORT="$(free_port)"
"$BIN/autobahn-echo" --port "$RX_PORT" >/tmp/bench-autobahn-echo.$$.log 2>&1 &
PIDS+=($!)
NODE_PORT="$(free_port)"
node scripts/node-ws-echo.js "$NODE_PORT" >/dev/null 2>&1 &
PIDS+=($!)
wait_port "$RX_PORT"
wait_port "$NODE_PORT"

echo "== RxLive autobahn-echo (port $RX_PORT)"
"$BIN/ws-bench" echo --port "$RX_PORT" --connections "$CONNECTIONS" --seconds "$SECONDS_PER_RUN"
echo "== Node ws $(node -p "try{require('ws/package.json').version}catch{require('/usr/share/nodejs/ws/package.json').version}") (port $NODE_PORT)"
"$BIN/ws-bench" echo --port "$NODE_PORT" --connections "$CONNECTIONS" --seconds "$SECONDS_PER_RUN"
