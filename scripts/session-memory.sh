#!/usr/bin/env bash
# Where an idle sum session's bytes go (issue 13): runs rxlive under heaptrack, opens N and
# then 2N idle /ws/sum sessions with ws-bench (one fresh server each), stops the server with
# SIGKILL while they are open (so the trace ends with every session's memory live), and
# prints the live heap bytes per session from the difference of the two runs (start-up and
# pools cancel out), by layer and by allocation site. Bytes are those requested from malloc;
# malloc adds 8 to 16 bytes of its own to each block. With TLS=1 the server and ws-bench speak
# TLS 1.3 (a throwaway certificate), and the sites outside the project are named by their
# innermost library function (OpenSSL's allocations, by what called CRYPTO_malloc).
# Usage: [TLS=1] scripts/session-memory.sh [sessions=2000]
set -euo pipefail
cd "$(dirname "$0")/.."
SESSIONS="${1:-2000}"
TLS="${TLS:-0}"
command -v heaptrack >/dev/null || { echo "heaptrack is missing: scripts/setup test installs it" >&2; exit 1; }
ulimit -n "$(ulimit -Hn)"
for product in rxlive ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"
WORK="$(mktemp -d /tmp/session-memory.XXXXXX)"
SERVER_PID=""
cleanup() { [ -n "$SERVER_PID" ] && kill -KILL "$SERVER_PID" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

source scripts/lib/ports.sh
SERVER_TLS=()
BENCH_TLS=()
if [ "$TLS" = 1 ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
        -days 1 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
    chmod 600 "$WORK/key.pem"
    SERVER_TLS=(--tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem")
    BENCH_TLS=(--tls-ca "$WORK/cert.pem")
fi
PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"

# One traced run with $1 sessions; leaves the live bytes by stack in $WORK/live-$1.txt.
traced_run() {
    local sessions="$1" port trace_pid fds
    port="$(free_port)"
    heaptrack -o "$WORK/trace-$sessions" "$BIN/rxlive" --port "$port" --public "$PUBLIC_DIR" \
        --login-delay 0 --message-rate 0 --log-level warning "${SERVER_TLS[@]}" >"$WORK/server-$sessions.log" 2>&1 &
    trace_pid=$!
    SERVER_PID=""
    for _ in $(seq 100); do  # bounded: 10 s for the server to start under heaptrack
        SERVER_PID="$(pgrep -P "$trace_pid" -x rxlive || true)"
        [ -n "$SERVER_PID" ] && python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$port)))" && break
        sleep 0.1
    done
    [ -n "$SERVER_PID" ] || { cat "$WORK/server-$sessions.log" >&2; exit 1; }
    "$BIN/ws-bench" idle --port "$port" --sessions "$sessions" --hold 30 "${BENCH_TLS[@]}" >"$WORK/bench-$sessions.log" 2>&1 &
    local bench_pid=$!
    # ws-bench holds the sessions 30 s once all are ready: wait until the server holds a
    # descriptor for each (bounded: 60 s), then 2 s for the last ready messages to be written
    # (their output chunks go back to the loop's pool), then stop the server.
    for _ in $(seq 600); do
        fds="$(ls "/proc/$SERVER_PID/fd" 2>/dev/null | wc -l)"
        [ "$fds" -ge "$sessions" ] && break
        sleep 0.1
    done
    sleep 2
    kill -KILL "$SERVER_PID"
    SERVER_PID=""
    wait "$trace_pid" 2>/dev/null || true
    kill "$bench_pid" 2>/dev/null || true
    wait "$bench_pid" 2>/dev/null || true
    heaptrack_print -f "$WORK"/trace-"$sessions".*zst --print-peaks 0 --print-allocators 0 \
        --print-temporary 0 --print-leaks 0 -F "$WORK/live-$sessions.txt" --flamegraph-cost-type leaked >/dev/null 2>&1
}

traced_run "$SESSIONS"
traced_run "$((2 * SESSIONS))"
python3 - "$WORK/live-$SESSIONS.txt" "$WORK/live-$((2 * SESSIONS)).txt" "$SESSIONS" "TLS=$TLS" <<'PY'
import collections, re, subprocess, sys
# The innermost frame of one of our modules names the allocation site; its module the layer.
MODULES = {"9EventLoop": "EventLoop", "10HTTPServer": "HTTPServer", "9WebSocket": "WebSocket",
           "8Sessions": "Sessions", "10ViewModels": "ViewModels", "7RxSwift": "RxSwift", "7RxRelay": "RxRelay",
           "3TLS": "TLS", "6RxLive": "RxLive", "11RxLiveForms": "RxLiveForms", "6rxlive": "rxlive"}
pattern = re.compile(r"\$s(" + "|".join(MODULES) + r")\d*[A-Za-z_]")
ALLOCATORS = re.compile(r"^(0x[0-9a-f]+|CRYPTO_(m|z|re)alloc|CRYPTO_memdup|CRYPTO_strdup|BUF_MEM_grow\w*|"
                        r"OPENSSL_sk_\w+|OPENSSL_LH_\w+|swift_slowAlloc|swift_allocObject|\S*malloc|\S*calloc|realloc)( |$)")
def load(path):
    sites = collections.Counter()
    for line in open(path):
        stack, cost = line.rstrip("\n").rsplit(" ", 1)
        frames = [frame for frame in stack.split(";") if frame]
        site = "(outside the project)"
        library = ""
        for frame in reversed(frames):
            if pattern.search(frame) and "allocate" not in frame.split(" ")[0][:40]:
                site = frame
                break
            # The innermost named library function (OpenSSL's exported ones have names).
            if not library and not ALLOCATORS.match(frame):
                library = frame.partition(" (")[0]
        if library and not library.startswith("$s"):
            site = f"{site} -> {library}"
        sites[site] += int(cost)
    return sites
small, large, n = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
per_site = {site: (large[site] - small[site]) / n for site in set(small) | set(large)}
layers = collections.Counter()
for site, value in per_site.items():
    match = pattern.search(site)
    layers[MODULES[match.group(1)] if match else "(outside the project)"] += value
total = sum(per_site.values())
print(f"live heap per idle sum session{' over TLS' if 'TLS=1' in sys.argv else ''}, from {n} and {2 * n} sessions: {total:,.0f} bytes requested")
print("by layer (the innermost frame of our code that allocated):")
for layer, value in layers.most_common():
    if abs(value) >= 1: print(f"  {value:8,.0f}  {layer}")
print("by allocation site (top 20):")
top = [(site, value) for site, value in sorted(per_site.items(), key=lambda item: -item[1])[:20] if value >= 1]
names = [site.partition(" (")[0].partition(" -> ")[0] for site, _ in top]
try:  # readable names: swift demangle, one mangled name a line
    readable = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                              capture_output=True, text=True, check=True).stdout.splitlines()
except (OSError, subprocess.CalledProcessError):
    readable = names
for (site, value), name in zip(top, readable if len(readable) == len(top) else names):
    where = site.partition(" -> ")[0].partition(" (")[2].rstrip(")")
    library = site.partition(" -> ")[2]
    print(f"  {value:8,.0f}  {name[:120]}" + (f" -> {library}" if library else "") + (f"  [{where}]" if where else ""))
PY
