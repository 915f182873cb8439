#!/usr/bin/env bash
# permessage-deflate's cost per idle session: rxlive's resident memory per idle sum session
# with --deflate on (every client offers permessage-deflate, so each session negotiates it and
# gets its ready message compressed) beside --deflate off, each on a fresh server. The two
# must not differ by more than 5%: no zlib stream is held by an idle session.
# Builds release, starts the servers on free 127.0.0.1 ports, stops them at the end.
# Usage: scripts/bench-deflate.sh [idle-sessions=10000]
set -euo pipefail
cd "$(dirname "$0")/.."
IDLE_SESSIONS="${1:-10000}"
ulimit -n "$(ulimit -Hn)"   # 10,000 sessions need as many descriptors in each process

for product in rxlive ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"

source scripts/lib/ports.sh

SERVER_PID=""
cleanup() { [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT

PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"

# Prints the KiB per session of one fresh server with --deflate $1 (the client offers deflate both times).
measure() {
    local port log line
    port="$(free_port)"
    log="/tmp/bench-deflate-rxlive.$$.log"
    # No pings during the run: the measure is the sessions at rest.
    "$BIN/rxlive" --port "$port" --public "$PUBLIC_DIR" --message-rate 0 --ping-interval 3600 \
        --log-level warning --deflate "$1" >"$log" 2>&1 &
    SERVER_PID=$!
    wait_port "$port" || { cat "$log" >&2; exit 1; }
    line="$("$BIN/ws-bench" idle --deflate --port "$port" --sessions "$IDLE_SESSIONS" --server-pid "$SERVER_PID")"
    echo "$line" | sed "s/^/deflate $1: /" >&2
    kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    # "RSS <before> KiB before, <after> KiB after": the exact growth, not the rounded figure.
    echo "$line" | sed -n 's/.*RSS \([0-9]*\) KiB before, \([0-9]*\) KiB after.*/\1 \2/p'
}

ON="$(measure on)"
OFF="$(measure off)"
python3 - "$ON" "$OFF" "$IDLE_SESSIONS" <<'PY'
import sys
sessions = int(sys.argv[3])
def per_session(pair):
    before, after = map(int, pair.split())
    return (after - before) * 1024 / sessions
on, off = per_session(sys.argv[1]), per_session(sys.argv[2])
print(f"idle sessions: {sessions}; bytes per idle session: deflate on {on:.0f}, deflate off {off:.0f} "
      f"({100 * (on - off) / off:+.1f}%, target within ±5%)")
PY
