#!/usr/bin/env bash
# Session benchmark (issue 5): rxlive's memory per idle session, sum replies/s beside the
# raw echo rate of the same server layer (autobahn-echo) with the same client, and login
# churn. Builds release, starts the servers on free 127.0.0.1 ports, stops them at the end.
# Usage: scripts/bench-sessions.sh [seconds=5] [idle-sessions=10000]
# rxlive runs the login example's simulated login with --login-delay 0 (login-churn measures the server,
# not the 2 s simulation nor password hashing: scripts/bench-logins.sh does that)
# and --message-rate 0 (no per-session rate limit: the sum load sends ~500 messages/s each),
# and --loops 1, like autobahn-echo beside it (scripts/bench-loops.sh compares loop counts).
# RXLIVE_BASELINE=path/to/another/rxlive (optional): runs the sum load against it too, in
# alternation with this build, so the two are compared in the same conditions.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-5}"
IDLE_SESSIONS="${2:-10000}"
ulimit -n "$(ulimit -Hn)"   # 10,000 sessions need as many descriptors in each process

for product in rxlive autobahn-echo ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"

source scripts/lib/ports.sh

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# The page is not needed here; an empty folder stands in when Public/ is absent.
PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"
RX_PORT="$(free_port)"
RX_LOG="/tmp/bench-rxlive.$$.log"
ADMIN_TOKEN="bench-admin-token-$$-0000"
"$BIN/rxlive" --port "$RX_PORT" --public "$PUBLIC_DIR" --loops 1 --login-service simulated --login-delay 0 --message-rate 0 --log-level warning \
    --admin-token "$ADMIN_TOKEN" >"$RX_LOG" 2>&1 &
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

if [ -n "${RXLIVE_BASELINE:-}" ]; then
    BASE_PORT="$(free_port)"
    "$RXLIVE_BASELINE" --port "$BASE_PORT" --public "$PUBLIC_DIR" --login-delay 0 --message-rate 0 --log-level warning \
        >/tmp/bench-baseline.$$.log 2>&1 &
    PIDS+=($!)
    wait_port "$BASE_PORT"
    echo "== idle sessions, RXLIVE_BASELINE (pid ${PIDS[-1]}, fresh server)"
    "$BIN/ws-bench" idle --port "$BASE_PORT" --sessions "$IDLE_SESSIONS" --server-pid "${PIDS[-1]}"
    sleep 2
    echo "== sum sessions, this build and RXLIVE_BASELINE in turn (nobody watching)"
    for round in 1 2 3; do
        echo "round $round this build: $("$BIN/ws-bench" sum --port "$RX_PORT" --connections 64 --seconds "$SECONDS_PER_RUN")"
        echo "round $round baseline:   $("$BIN/ws-bench" sum --port "$BASE_PORT" --connections 64 --seconds "$SECONDS_PER_RUN")"
    done
fi

# Session marbles: a 65th sum session under the same load, watched or not from /ws/dashboard;
# the 64 others' figures show what the viewer costs them.
echo "== 64 sum sessions beside one more busy sum session, without and with a viewer on it"
for viewer in without with; do
    "$BIN/ws-bench" sum --port "$RX_PORT" --connections 1 --seconds $((SECONDS_PER_RUN + 3)) >/tmp/bench-watched.$$.log &
    WATCHED_PID=$!
    sleep 1
    VIEWER_PID=""
    if [ "$viewer" = with ]; then
        python3 scripts/watch-session.py "$RX_PORT" "$ADMIN_TOKEN" sum $((SECONDS_PER_RUN + 1)) >/tmp/bench-viewer.$$.log &
        VIEWER_PID=$!
        sleep 1
    fi
    echo "$viewer a viewer, the 64 others: $("$BIN/ws-bench" sum --port "$RX_PORT" --connections 64 --seconds "$SECONDS_PER_RUN")"
    wait "$WATCHED_PID"
    echo "$viewer a viewer, the watched one: $(cat /tmp/bench-watched.$$.log)"
    if [ -n "$VIEWER_PID" ]; then wait "$VIEWER_PID"; cat /tmp/bench-viewer.$$.log; fi
done
