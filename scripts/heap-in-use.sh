#!/usr/bin/env bash
# Malloc's own count of an idle sum session's bytes (issue 38): opens N idle /ws/sum sessions
# on one release rxlive (`--loops 1`) with `ws-bench hold`, and asks glibc (`mallinfo2()`, from
# scripts/lib/malloc-report.c preloaded into the server and asked by a signal) for its bytes in
# use before the first session and with all N open. The
# difference over N is what the sessions hold in whole malloc chunks, exactly and run after
# run: headers, rounding, and which free chunk each block was carved from included. RSS moves
# by about 10 bytes a session between runs (pages touched, the heap's top pad), and heaptrack
# counts bytes requested, so neither shows whether a smaller object really takes a smaller
# chunk: glibc hands out a free chunk whole when the rest would be under 32 bytes, so an
# object 16 bytes smaller can still take the chunk it took before.
# Prints the bytes in use a session in the main arena, with the mmapped blocks (the
# loop's, the deadline heap's and the registry's arrays, whose capacity doubles), and RSS.
# Usage: scripts/heap-in-use.sh [sessions=15000]
set -euo pipefail
cd "$(dirname "$0")/.."
SESSIONS="${1:-15000}"
swift build -c release --product rxlive >/dev/null
swift build -c release --product ws-bench >/dev/null
BIN="$(swift build -c release --show-bin-path)"
ulimit -n "$(ulimit -Hn)"  # a descriptor a session
WORK="$(mktemp -d /tmp/heap-in-use.XXXXXX)"
SERVER_PID="" BENCH_PID=""
cleanup() {
    [ -n "$BENCH_PID" ] && kill "$BENCH_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
source scripts/lib/ports.sh
cc -O2 -shared -fPIC -o "$WORK/malloc-report.so" scripts/lib/malloc-report.c

# Appends the server's bytes in use (written to its stderr) to its log.
malloc_stats() {
    kill -s RTMIN+6 "$SERVER_PID"
    sleep 0.5
}
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$SERVER_PID/status"; }

port="$(free_port)"
mkdir "$WORK/db" "$WORK/control"
LD_PRELOAD="$WORK/malloc-report.so" "$BIN/rxlive" --host 127.0.0.1 --port "$port" --public Public --database "sqlite:$WORK/db/rxlive.sqlite" --loops 1 \
    --login-service simulated --dashboard off --log-level warning >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
wait_port "$port"
sleep 1  # the start's own allocations settle
malloc_stats
rss_start="$(rss_kib)"
"$BIN/ws-bench" hold --port "$port" --sessions "$SESSIONS" --control "$WORK/control" --timeout 240 >"$WORK/bench.log" 2>&1 &
BENCH_PID=$!
for _ in $(seq 1200); do  # bounded: 240 s for every session to be ready
    grep -q "^hold: ready" "$WORK/bench.log" && break
    kill -0 "$BENCH_PID" 2>/dev/null || break
    sleep 0.2
done
grep "^hold: ready $SESSIONS failed 0" "$WORK/bench.log" || { cat "$WORK/bench.log" >&2; exit 1; }
sleep 2  # the last `ready` messages' output chunks go back to the pool
malloc_stats
rss_open="$(rss_kib)"
touch "$WORK/control/close"
python3 - "$WORK/server.log" "$SESSIONS" "$rss_start" "$rss_open" <<'PY'
import re, sys
log, sessions, rss_start, rss_open = open(sys.argv[1]).read(), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
# Each report gives the main arena's bytes in use and the mmapped blocks apart.
in_use = []
for arena_bytes, mmapped in re.findall(r"malloc-report in_use=(\d+) mmapped=(\d+)", log):
    in_use += [int(arena_bytes), int(arena_bytes) + int(mmapped)]
if len(in_use) != 4:
    sys.exit(f"expected two malloc reports in the server's log, found {len(in_use) // 2}")
arena = (in_use[2] - in_use[0]) / sessions
total = (in_use[3] - in_use[1]) / sessions
rss = (rss_open - rss_start) * 1024 / sessions
print(f"heap-in-use: sessions={sessions} arena_bytes_per_session={arena:.1f} "
      f"with_mmap_bytes_per_session={total:.1f} rss_bytes_per_session={rss:.0f}")
PY
