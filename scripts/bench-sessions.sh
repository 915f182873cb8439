#!/usr/bin/env bash
# Session benchmark (issue 5): rxlive's memory per idle session, sum replies/s beside the
# raw echo rate of the same server layer (autobahn-echo) with the same client, and login
# churn. Builds release, starts the servers on free 127.0.0.1 ports, stops them at the end.
# Usage: scripts/bench-sessions.sh [seconds=5] [idle-sessions=10000]
# rxlive runs with --login-delay 0 (login-churn measures the server, not the 2 s simulation)
# and --message-rate 0 (no per-session rate limit: the sum load sends ~500 messages/s each),
# and --loops 1, like autobahn-echo beside it (scripts/bench-loops.sh compares loop counts).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-5}"
IDLE_SESSIONS="${2:-10000}"
ulimit -n "$(ulimit -Hn)"   # 10,000 sessions need as many descriptors in each process

for product in rxlive autobahn-echo ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {  # bounded: 10 s
    for _ in $(seq 100); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" && return 0
        sleep 0.1
    done
    echo "server on port $1 did not start" >&2; return 1
}

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# The page is not needed here; an empty folder stands in when Public/ is absent.
PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"
RX_PORT="$(free_port)"
RX_LOG="/tmp/bench-rxlive.$$.log"
"$BIN/rxlive" --port "$RX_PORT" --public "$PUBLIC_DIR" --loops 1 --login-delay 0 --message-rate 0 --log-level warning >"$RX_LOG" 2>&1 &
RX_PID=$!
PIDS+=("$RX_PID")
ECHO_PORT="$(free_port)"
"$BIN/autobahn-echo" --port "$ECHO_PORT" >/tmp/bench-autobahn-echo.$$.log 2>&1 &
PIDS+=($!)
wait_port "$RX_PORT" || { cat "$RX_LOG" >&2; exit 1; }
wait_port "$ECHO_PORT"

echo "== idle sessions (rxlive pid $RX_PID, fresh server)"
"$BIN/ws-bench" idle --port "$RX_PORT" --sessions "$IDLE_SESSIONS" --server-pid "$RX_PID"
sleep 2   # let the server finish closing them
echo "== raw WebSocket echo, same server layer (autobahn-echo)"
ECHO_LINE="$("$BIN/ws-bench" echo --port "$ECHO_PORT" --connections 64 --seconds "$SECONDS_PER_RUN")"
echo "$ECHO_LINE"
echo "== sum sessions (rxlive /ws/sum)"
SUM_LINE="$("$BIN/ws-bench" sum --port "$RX_PORT" --connections 64 --seconds "$SECONDS_PER_RUN")"
echo "$SUM_LINE"
python3 - "$ECHO_LINE" "$SUM_LINE" <<'PY'
import re, sys
echo = re.search(r"([0-9.]+) round trips/s", sys.argv[1]); total = re.search(r"([0-9.]+) replies/s", sys.argv[2])
if echo and total and float(echo.group(1)) > 0:
    print(f"sum path keeps {100 * float(total.group(1)) / float(echo.group(1)):.1f}% of the echo rate (target >= 70%)")
PY
echo "== login churn (rxlive /ws/login, login delay 0)"
"$BIN/ws-bench" login-churn --port "$RX_PORT" --connections 64 --seconds "$SECONDS_PER_RUN"
