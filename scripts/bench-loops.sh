#!/usr/bin/env bash
# Event loops benchmark (issue 10): sum replies/s of rxlive at --loops 1 and at --loops 2 in
# one run, the ratio, and how the sessions spread over the loops (from /metrics, read while
# the load runs). The load generator runs on the same machine, unpinned in both cases: with
# two loops the server needs both cores, so pinning the client to one would not compare.
# Load: the shared C generator wsload (../shared/loadgen or $WSLOAD), 256 sessions × 4
# number1 changes in flight; without it, our ws-bench (256 sessions × 1 in flight).
# Builds release, starts a fresh server per case on a free 127.0.0.1 port, stops it after.
# Usage: [ROUNDS=1] [QUIET_WAIT=300] scripts/bench-loops.sh [seconds=10] [connections=256] [depth=4]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-10}"
CONNECTIONS="${2:-256}"
DEPTH="${3:-4}"
ulimit -n "$(ulimit -Hn)"

swift build -c release --product rxlive >/dev/null
BIN="$(swift build -c release --show-bin-path)"
WSLOAD="${WSLOAD:-}"
LOADGEN_SOURCE="$(pwd)/../shared/loadgen/wsload.c"
if [ -z "$WSLOAD" ] && [ -f "$LOADGEN_SOURCE" ]; then
    WSLOAD="$(mktemp -d)/wsload"
    cc -O2 -o "$WSLOAD" "$LOADGEN_SOURCE" -luv
fi
if [ -z "$WSLOAD" ]; then
    swift build -c release --product ws-bench >/dev/null
    echo "NOTE no wsload: using ws-bench sum (one change in flight per session)"
fi

source scripts/lib/ports.sh
# "open0 open1 ..." of rxlive_loop_sessions_open from /metrics
sessions_per_loop() {
    python3 - "$1" <<'PY'
import re, sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
print(" ".join(v for _, v in sorted(re.findall(r'^rxlive_loop_sessions_open\{loop="(\d+)"\} (\d+)$', text, re.M),
                                     key=lambda pair: int(pair[0]))))
PY
}

source scripts/lib/quiet.sh

SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null; wait 2>/dev/null || true; }
trap cleanup EXIT

# One run: a fresh server with $1 loops under the load; prints the load's result, the sessions
# per loop, and sets CASE_RESULT to "rate other_cpu_pct server_cpu_pct spread..." for the summary.
run_case() {
    local loops=$1 port out load spread rate other server
    port="$(free_port)"
    "$BIN/rxlive" --port "$port" --loops "$loops" --message-rate 0 --login-delay 0 --log-level warning \
        >"/tmp/bench-loops-rxlive.$$.log" 2>&1 &
    SERVER_PID=$!
    wait_port "$port"
    wait_quiet
    out="/tmp/bench-loops-load.$$.txt"
    if [ -n "$WSLOAD" ]; then
        "$WSLOAD" throughput --port "$port" --conns "$CONNECTIONS" --depth "$DEPTH" \
            --duration "$SECONDS_PER_RUN" --server-pid "$SERVER_PID" >"$out" 2>&1 &
    else
        "$BIN/ws-bench" sum --port "$port" --connections "$CONNECTIONS" --seconds "$SECONDS_PER_RUN" >"$out" 2>&1 &
    fi
    load=$!
    sleep "$(python3 -c "print(1 + $SECONDS_PER_RUN / 2)")"   # mid-measurement: every session is open
    spread="$(sessions_per_loop "$port")"
    wait "$load" || { cat "$out" >&2; exit 1; }
    echo "== --loops $loops"
    cat "$out"
    echo "sessions per loop (/metrics, during the load): $spread"
    rate="$(python3 -c "import re,sys; m=re.search(r'msgs_per_s=([0-9.]+)|([0-9.]+) replies/s', open(sys.argv[1]).read()); print(m and (m.group(1) or m.group(2)) or 0)" "$out")"
    other="$(sed -n 's/.*other_cpu_pct=\(-\?[0-9]*\).*/\1/p' "$out" | tail -1)"
    server="$(sed -n 's/.*server_cpu_pct=\(-\?[0-9]*\).*/\1/p' "$out" | tail -1)"
    kill -TERM "$SERVER_PID"; wait "$SERVER_PID" || true; SERVER_PID=
    CASE_RESULT="$rate ${other:-0} ${server:-0} $spread"
}

# Rounds of (--loops 1, --loops 2) back to back; the summary takes the round whose runs
# other processes disturbed least (wsload's other_cpu_pct), as others share this machine.
SUMMARY=()
for round in $(seq "${ROUNDS:-1}"); do
    run_case 1; one="$CASE_RESULT"
    run_case 2; two="$CASE_RESULT"
    SUMMARY+=("$one|$two")
done

python3 - "${SUMMARY[@]}" <<'PY'
import sys
rounds = []
for text in sys.argv[1:]:
    one, two = (part.split() for part in text.split("|"))
    rounds.append((float(one[0]), int(one[1]), int(one[2]), float(two[0]), int(two[1]), int(two[2]),
                   [int(x) for x in two[3:]]))
# Replies per second of server CPU: what each reply costs the server, whatever else runs.
per_cpu = lambda rate, cpu: f"{100 * rate / cpu:,.0f}" if cpu > 0 else "n/a"
for index, (one, noise1, cpu1, two, noise2, cpu2, spread) in enumerate(rounds, 1):
    print(f"round {index}: --loops 1 {one:,.0f}/s (server CPU {cpu1}%, other processes {noise1}%; "
          f"{per_cpu(one, cpu1)} per server CPU-second), --loops 2 {two:,.0f}/s (server CPU {cpu2}%, "
          f"other processes {noise2}%; {per_cpu(two, cpu2)} per server CPU-second): {two / one:.2f}x")
one, noise1, cpu1, two, noise2, cpu2, spread = min(rounds, key=lambda r: max(r[1], r[4]))
print(f"replies/s: --loops 1 {one:,.0f}   --loops 2 {two:,.0f}   ratio {two / one:.2f}x (target >= 1.3x)"
      + (f", least disturbed of {len(rounds)} rounds" if len(rounds) > 1 else ""))
if spread and sum(spread):
    mean = sum(spread) / len(spread)
    print(f"sessions per loop at --loops 2: {spread}; largest deviation from the mean "
          f"{100 * max(abs(s - mean) for s in spread) / mean:.1f}% (target <= 20%)")
PY
