#!/usr/bin/env bash
# TLS benchmark (issue 10): sum replies/s of rxlive over wss:// beside the same server over
# ws://, 64 sessions each with one number1 change in flight, same client (ws-bench, which
# speaks TLS through the same TLSSession as the server), same run; and the server's CPU
# time per reply, which depends far less than the rate on what else the machine runs; then the
# resident memory of an idle sum session on each (ws-bench idle, IDLE_SESSIONS at once).
# Builds release, makes a throwaway certificate, starts both servers on free 127.0.0.1 ports,
# stops them at the end.
# Usage: [IDLE_SESSIONS=2000] scripts/bench-tls.sh [seconds=5] [connections=64] [rounds=3]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-5}"
CONNECTIONS="${2:-64}"
ROUNDS="${3:-3}"
IDLE_SESSIONS="${IDLE_SESSIONS:-2000}"
ulimit -n "$(ulimit -Hn)"

for product in rxlive ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"

source scripts/lib/ports.sh

WORK="$(mktemp -d)"
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
    -days 1 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
chmod 600 "$WORK/key.pem"

PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$WORK"
PLAIN_PORT="$(free_port)"
"$BIN/rxlive" --port "$PLAIN_PORT" --public "$PUBLIC_DIR" --message-rate 0 --log-level warning >"$WORK/plain.log" 2>&1 &
PLAIN_PID=$!
PIDS+=("$PLAIN_PID")
TLS_PORT="$(free_port)"
"$BIN/rxlive" --port "$TLS_PORT" --public "$PUBLIC_DIR" --message-rate 0 --log-level warning \
    --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem" >"$WORK/tls.log" 2>&1 &
TLS_PID=$!
PIDS+=("$TLS_PID")
wait_port "$PLAIN_PORT" || { cat "$WORK/plain.log" >&2; exit 1; }
wait_port "$TLS_PORT" || { cat "$WORK/tls.log" >&2; exit 1; }

# CPU seconds (user + system) a process has used so far.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }

# One ws-bench sum run: its line, then the server's CPU time per reply. The reply rate moves
# with whatever else the machine runs; CPU per reply much less so.
run() {  # label port pid [ws-bench options]
    local label="$1" port="$2" pid="$3" before after line
    shift 3
    before="$(cpu_seconds "$pid")"
    line="$("$BIN/ws-bench" sum --port "$port" --connections "$CONNECTIONS" --seconds "$SECONDS_PER_RUN" "$@")"
    after="$(cpu_seconds "$pid")"
    echo "$label $line"
    python3 -c 'import re, sys
rate = float(re.search(r"([0-9.]+) replies/s", sys.argv[1]).group(1))
print(f"{sys.argv[4]} server CPU {float(sys.argv[3]) - float(sys.argv[2]):.2f} s, "
      f"{1e6 * (float(sys.argv[3]) - float(sys.argv[2])) / max(1.0, rate * float(sys.argv[5])):.1f} us per reply")' \
        "$line" "$before" "$after" "$label" "$SECONDS_PER_RUN"
}

# Plain and TLS runs alternate, so load from elsewhere on the machine hits both alike.
echo "== sum replies, $CONNECTIONS sessions x 1 in flight, ws:// vs wss:// (TLS 1.3, $(openssl version | cut -d' ' -f1-2))"
for round in $(seq "$ROUNDS"); do
    run "round $round ws:// " "$PLAIN_PORT" "$PLAIN_PID"
    run "round $round wss://" "$TLS_PORT" "$TLS_PID" --tls-ca "$WORK/cert.pem"
done | tee "$WORK/runs.txt"
python3 - "$WORK/runs.txt" <<'PY'
import re, sys
rates = {"ws://": [], "wss://": []}
cpu = {"ws://": [], "wss://": []}
for line in open(sys.argv[1]):
    scheme = "wss://" if "wss://" in line else "ws://"
    if m := re.search(r"([0-9.]+) replies/s", line):
        rates[scheme].append(float(m.group(1)))
    if m := re.search(r"([0-9.]+) us per reply", line):
        cpu[scheme].append(float(m.group(1)))
mean = lambda values: sum(values) / len(values)
print(f"mean replies/s: ws:// {mean(rates['ws://']):,.0f}, wss:// {mean(rates['wss://']):,.0f} "
      f"(TLS keeps {100 * mean(rates['wss://']) / mean(rates['ws://']):.1f}%)")
print(f"mean server CPU per reply: ws:// {mean(cpu['ws://']):.1f} us, wss:// {mean(cpu['wss://']):.1f} us "
      f"(TLS adds {mean(cpu['wss://']) - mean(cpu['ws://']):.1f} us)")
PY

# Idle sessions last: the servers' pools and caches are warm by now, as on a server that has
# been serving.
echo "== memory per idle sum session, $IDLE_SESSIONS sessions"
echo "ws://  $("$BIN/ws-bench" idle --port "$PLAIN_PORT" --sessions "$IDLE_SESSIONS" --server-pid "$PLAIN_PID" | grep RSS)"
echo "wss:// $("$BIN/ws-bench" idle --port "$TLS_PORT" --sessions "$IDLE_SESSIONS" --server-pid "$TLS_PID" --tls-ca "$WORK/cert.pem" | grep RSS)"
