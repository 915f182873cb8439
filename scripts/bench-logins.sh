#!/usr/bin/env bash
# Login benchmark (issue 11): logins/s against the account store (argon2id at its default
# parameters, SQLite), and the p99 of sum sessions on the same server while 100 logins hash
# beside its idle p99. Builds release, makes 100 accounts in a temporary SQLite file, starts
# rxlive on a free 127.0.0.1 port, stops it by pid at the end.
# Usage: scripts/bench-logins.sh [seconds=5] [login-workers: default rxlive's, cores - 1]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-5}"
WORKERS="${2:-}"

for product in rxlive ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"

source scripts/lib/ports.sh

WORK="$(mktemp -d)"
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

DATABASE="sqlite:$WORK/accounts.sqlite"
echo "== adding 100 accounts (bench0 … bench99) to $DATABASE"
for i in $(seq 0 99); do echo secret | "$BIN/rxlive" user add "bench$i" --database "$DATABASE" >/dev/null; done

PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$WORK"
PORT="$(free_port)"
ARGS=(--port "$PORT" --public "$PUBLIC_DIR" --database "$DATABASE" --message-rate 0 --log-level warning)
[ -z "$WORKERS" ] || ARGS+=(--login-workers "$WORKERS")
"$BIN/rxlive" "${ARGS[@]}" >"$WORK/rxlive.log" 2>&1 &
PIDS+=($!)
wait_port "$PORT" || { cat "$WORK/rxlive.log" >&2; exit 1; }
echo "rxlive ${ARGS[*]}  (login workers: ${WORKERS:-default}; $(nproc) cores)"

# Idle and busy runs alternate, three of each, so load from outside (other processes on
# the machine) falls on both alike; the medians are compared.
IDLE_LINES=()
BUSY_LINES=()
CHURN_LINES=()
for round in 1 2 3; do
    echo "== round $round: sum sessions, idle server"
    IDLE_LINES+=("$("$BIN/ws-bench" sum --port "$PORT" --connections 64 --seconds "$SECONDS_PER_RUN")")
    echo "${IDLE_LINES[-1]}"
    echo "== round $round: 100 logins in flight (login-churn) and, after 1 s, the same sum load beside them"
    "$BIN/ws-bench" login-churn --port "$PORT" --connections 100 --accounts 100 --seconds "$((SECONDS_PER_RUN + 2))" \
        >"$WORK/churn.txt" 2>&1 &
    CHURN_PID=$!
    PIDS+=("$CHURN_PID")
    sleep 1
    BUSY_LINES+=("$("$BIN/ws-bench" sum --port "$PORT" --connections 64 --seconds "$SECONDS_PER_RUN")")
    echo "${BUSY_LINES[-1]}"
    wait "$CHURN_PID"
    CHURN_LINES+=("$(cat "$WORK/churn.txt")")
    echo "${CHURN_LINES[-1]}"
done

python3 - "${IDLE_LINES[@]}" "${BUSY_LINES[@]}" "${CHURN_LINES[@]}" <<'PY'
import re, statistics, sys
lines = sys.argv[1:]
idle_lines, busy_lines, churn_lines = lines[0:3], lines[3:6], lines[6:9]
def p99(line):
    """The p99 in milliseconds from a ws-bench line ("p99 456.7 us")."""
    match = re.search(r"p99 ([0-9.]+) (us|ms)", line)
    return float(match.group(1)) / (1000 if match.group(2) == "us" else 1) if match else None
idle = [p99(line) for line in idle_lines if p99(line)]
busy = [p99(line) for line in busy_lines if p99(line)]
logins = [float(m.group(1)) for m in (re.search(r"([0-9.]+) sessions/s", line) for line in churn_lines) if m]
if logins:
    print(f"logins/s: median {statistics.median(logins):.1f} (runs: {', '.join(f'{x:.1f}' for x in logins)})")
if idle and busy:
    mi, mb = statistics.median(idle), statistics.median(busy)
    print(f"sum p99: idle median {mi:.2f} ms, while logins hash median {mb:.2f} ms = {mb / mi:.2f}x idle (target <= 2x)")
    print(f"  idle runs: {', '.join(f'{x:.2f}' for x in idle)} ms; busy runs: {', '.join(f'{x:.2f}' for x in busy)} ms")
PY
