#!/usr/bin/env bash
# rxlive beside the peer servers of ../shared/peers in one run: memory per idle session, login
# churn and sum throughput, every server under the same load generator (../shared/loadgen's
# wsload) with the same rules as ../shared/loadgen/bench.sh: server pinned to SERVER_CPU,
# wsload to CLIENT_CPU, a wait for a quiet machine before each run, and a run repeated
# (TRIES, keeping the least disturbed) while other processes or the hypervisor took CPU during
# it; unlike bench.sh, every run gets a fresh server. Ends with a table of rxlive, the best
# peer and the ratio per measure (the server's CPU per unit also split into user space and
# kernel), and one of every run's CPU figures (server, client, other processes, steal), so a
# reader sees how noisy the machine was; with BREAKDOWN=1 it then
# appends scripts/session-memory.sh's breakdown of an idle rxlive session's memory.
#
# ../shared is read-only input: wsload, the peers' Python venv and the Hummingbird peer are
# built into .build-bench/ (git-ignored) when missing. Every run's output stays in
# .build-bench/results/<time>/round<N>/<server>.txt (RESULT lines, as bench.sh writes them).
#
# Usage: [PEERS='node-ws uws-python'] [MODES='throughput-64x1 throughput-256x4 sessions churn']
#        [SESSIONS=10000] [DURATION=10] [ROUNDS=1] [BREAKDOWN=1] scripts/bench-peers.sh
#   PEERS      any of node-ws uws-python py-websockets hummingbird uws-cpp (default: node-ws uws-python,
#              and uws-cpp when it can be run; hummingbird's first
#              build takes minutes); MODES also takes `throughput` for both throughput modes
#   UWS_CPP_BIN  the uws-cpp peer, built (../shared/peers/README.md); or UWS_SRC and USOCKETS_SRC,
#              uWebSockets and uSockets extracted from the fetched repositories at the commits the
#              README names, and it is built into .build-bench/uws-cpp-server
#   ROUNDS     rounds of every mode and server; the table shows medians (min–max)
#   RXLIVE     an rxlive binary to measure instead of building .build/release/rxlive
#   RXLIVE_BEFORE  an older rxlive binary, measured in turn with the others as `rxlive-before`:
#              the table then also shows rxlive ÷ before, a change's effect in the same run
#   SERVER_CPU=0 CLIENT_CPU=1 NOISE_PCT=20 STEAL_PCT=10 TRIES=3 QUIET_WAIT=300 (seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/shared.sh
require_shared loadgen   # Needs ../shared (wsload and the peers), outside this repository: exits 2 without it.
require_shared peers

# uws-cpp joins the default peers once it can be run (built, or its sources given).
default_peers="node-ws uws-python"
if [ -n "${UWS_CPP_BIN:-}" ] || [ -x .build-bench/uws-cpp-server ] || { [ -n "${UWS_SRC:-}" ] && [ -n "${USOCKETS_SRC:-}" ]; }; then
    default_peers="$default_peers uws-cpp"
else
    echo "bench-peers: no uws-cpp peer (set UWS_CPP_BIN, or UWS_SRC and USOCKETS_SRC: ../shared/peers/README.md)" >&2
fi
PEERS="${PEERS:-$default_peers}"
MODES="${MODES:-throughput-64x1 throughput-256x4 sessions churn}"
MODES="$(sed -E 's/(^| )throughput( |$)/\1throughput-64x1 throughput-256x4\2/' <<<"$MODES")"
SESSIONS="${SESSIONS:-10000}"
DURATION="${DURATION:-10}"
ROUNDS="${ROUNDS:-1}"
BREAKDOWN="${BREAKDOWN:-1}"
SERVER_CPU="${SERVER_CPU:-0}"
CLIENT_CPU="${CLIENT_CPU:-1}"
NOISE_PCT="${NOISE_PCT:-20}"
STEAL_PCT="${STEAL_PCT:-10}"
TRIES="${TRIES:-3}"
QUIET_WAIT="${QUIET_WAIT:-300}"

SHARED="$(cd ../shared && pwd)"
WORK="$(pwd)/.build-bench"
for mode in $MODES; do
    case "$mode" in
        throughput-64x1|throughput-256x4|sessions|churn) ;;
        *) echo "unknown mode $mode (throughput-64x1 throughput-256x4 sessions churn)" >&2; exit 2 ;;
    esac
done
for peer in $PEERS; do
    case "$peer" in
        node-ws|uws-python|py-websockets|hummingbird|uws-cpp) ;;
        *) echo "unknown peer $peer (node-ws uws-python py-websockets hummingbird uws-cpp)" >&2; exit 2 ;;
    esac
done
ulimit -n "$(ulimit -Hn)"   # 10,000 sessions need as many descriptors in the server and in wsload
mkdir -p "$WORK"

# --- what the run needs, built into .build-bench/ when missing -------------------------------
if [ -z "${RXLIVE:-}" ]; then
    swift build -c release --product rxlive >/dev/null
    RXLIVE="$(pwd)/.build/release/rxlive"
fi
WSLOAD="$WORK/wsload"
if [ ! -x "$WSLOAD" ] || [ "$SHARED/loadgen/wsload.c" -nt "$WSLOAD" ]; then
    echo "bench-peers: building $WSLOAD"
    cc -O2 -o "$WSLOAD" "$SHARED/loadgen/wsload.c" -luv
fi
VENV="$WORK/peers-venv"
HBPEER="$WORK/hbpeer/release/HBPeer"
for peer in $PEERS; do
    case "$peer" in
        node-ws)
            command -v node >/dev/null || { echo "node is missing: scripts/setup test installs it (node-ws)" >&2; exit 1; } ;;
        uws-python|py-websockets)
            if ! cmp -s "$SHARED/peers/requirements.txt" "$VENV/.requirements" || [ ! -x "$VENV/bin/python" ]; then
                echo "bench-peers: installing ../shared/peers/requirements.txt into $VENV"
                python3 -m venv "$VENV"
                "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$SHARED/peers/requirements.txt"
                cp "$SHARED/peers/requirements.txt" "$VENV/.requirements"
            fi ;;
        hummingbird)
            # SwiftPM writes Package.resolved beside Package.swift, so it builds a copy, not
            # ../shared; the copy keeps the sources' times so an unchanged peer is not rebuilt.
            mkdir -p "$WORK/hbpeer-src"
            cp -R --preserve=timestamps "$SHARED/peers/hummingbird/hbpeer/Package.swift" \
                "$SHARED/peers/hummingbird/hbpeer/Sources" "$WORK/hbpeer-src/"
            chmod -R u+w "$WORK/hbpeer-src"
            [ -x "$HBPEER" ] || echo "bench-peers: building the hummingbird peer (minutes)"
            swift build -c release --package-path "$WORK/hbpeer-src" --scratch-path "$WORK/hbpeer" \
                >"$WORK/hbpeer-build.log" 2>&1 || { tail -30 "$WORK/hbpeer-build.log" >&2; exit 1; } ;;
        uws-cpp)
            if [ -z "${UWS_CPP_BIN:-}" ]; then
                UWS_CPP_BIN="$WORK/uws-cpp-server"
                if [ ! -x "$UWS_CPP_BIN" ]; then
                    [ -n "${UWS_SRC:-}" ] && [ -n "${USOCKETS_SRC:-}" ] || {
                        echo "uws-cpp: set UWS_CPP_BIN, or UWS_SRC and USOCKETS_SRC (../shared/peers/README.md)" >&2; exit 1; }
                    echo "bench-peers: building the uws-cpp peer"
                    UWS_SRC="$UWS_SRC" USOCKETS_SRC="$USOCKETS_SRC" OUT="$UWS_CPP_BIN" \
                        bash "$SHARED/peers/uws-cpp/build.sh" >"$WORK/uws-cpp-build.log" 2>&1 \
                        || { tail -30 "$WORK/uws-cpp-build.log" >&2; exit 1; }
                fi
            fi ;;
    esac
done

source scripts/lib/ports.sh
PUBLIC_DIR=Public   # rxlive's page is not loaded here; an empty folder stands in when absent
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"
RUN_DIR="$WORK/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$RUN_DIR"

# --- servers ---------------------------------------------------------------------------------
SERVER_PID=""
stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done  # 10 s at most
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
    sleep 1   # as bench.sh: the closed sockets and the freed memory settle before the next run
}
trap stop_server EXIT

# A fresh server $1 on port $2, pinned, with the peers' environment (PORT, LOGIN_DELAY_MS=1);
# rxlive gets the same through its flags: simulated login with a 1 ms delay, no rate limit
# (the throughput load sends far more than the default per-session limit), one loop for its
# one CPU.
start_server() {
    local name="$1" port="$2" cmd log="$RUN_DIR/$1.log"
    case "$name" in
        rxlive|rxlive-before)
            local binary="$RXLIVE"
            [ "$name" = rxlive ] || binary="$RXLIVE_BEFORE"
            cmd=("$binary" --port "$port" --public "$PUBLIC_DIR" --loops 1 --login-service simulated
                 --login-delay 0.001 --message-rate 0 --log-level warning) ;;
        node-ws) cmd=(node "$SHARED/peers/node-ws/server.js") ;;
        uws-python) cmd=("$VENV/bin/python" "$SHARED/peers/uws-python/server.py") ;;
        py-websockets) cmd=("$VENV/bin/python" "$SHARED/peers/py-websockets/server.py") ;;
        hummingbird) cmd=("$HBPEER") ;;
        uws-cpp) cmd=("$UWS_CPP_BIN") ;;
    esac
    PORT="$port" LOGIN_DELAY_MS=1 taskset -c "$SERVER_CPU" "${cmd[@]}" >>"$log" 2>&1 &
    SERVER_PID=$!
    wait_port "$port" || { tail -20 "$log" >&2; exit 1; }
    sleep 0.5   # as bench.sh: accepting is not always the end of start-up
}

# --- load ------------------------------------------------------------------------------------
# bench.sh's rule: two seconds in a row below 15 % of a CPU.
QUIET_PCT="${QUIET_PCT:-15}"
source scripts/lib/quiet.sh

load_args() {
    case "$1" in
        throughput-64x1) echo "throughput --conns 64 --depth 1 --duration $DURATION" ;;
        throughput-256x4) echo "throughput --conns 256 --depth 4 --duration $DURATION" ;;
        sessions) echo "sessions --sessions $SESSIONS" ;;
        churn) echo "churn --conns 32 --duration $DURATION" ;;
    esac
}

# user and system ticks of the server
server_ticks() { sed 's/^.*) //' "/proc/$SERVER_PID/stat" | awk '{print $12, $13}'; }

# user+nice+system+irq+softirq and steal ticks of the machine, user+system ticks of the server
cpu_ticks() {
    local x a b c d e f g h user system
    read -r x a b c d e f g h _ </proc/stat
    read -r user system <<<"$(server_ticks)"
    echo "$((a + b + c + f + g)) $h $((user + system))"
}

# One wsload run against the server started last; prints its output. wsload gives no CPU
# figures for sessions, so for that mode they are taken here, over the whole wsload run
# (opening, holding, closing), and added to its RESULT line with cpu_window=run.
run_load() {
    local mode="$1" port="$2" out t0 t1 c0 c1 times
    out="$(mktemp)"
    if [ "$mode" != sessions ]; then
        # The server's user and system ticks around the run: their shares split its CPU per
        # unit into its own code's and the kernel's (wsload's window is the run less warm-up).
        local ticks0 ticks1
        ticks0="$(server_ticks)"
        # shellcheck disable=SC2046  # load_args is words by design
        taskset -c "$CLIENT_CPU" "$WSLOAD" $(load_args "$mode") --port "$port" --server-pid "$SERVER_PID" \
            >"$out" 2>&1 || true
        ticks1="$(server_ticks)"
        awk -v t0="$ticks0" -v t1="$ticks1" '
            BEGIN { split(t0, a, " "); split(t1, b, " "); user = b[1] - a[1]; all = user + b[2] - a[2] }
            /^RESULT / && all > 0 { printf "%s server_user_share_pct=%.1f\n", $0, 100 * user / all; next } { print }' "$out"
        rm -f "$out"; return 0
    fi
    c0="$(cpu_ticks)"; t0="$(date +%s%N)"
    # shellcheck disable=SC2046
    times="$( { TIMEFORMAT='%3U %3S'; time taskset -c "$CLIENT_CPU" "$WSLOAD" $(load_args "$mode") --port "$port" \
        --server-pid "$SERVER_PID" >"$out" 2>&1 || true; } 2>&1 )"
    t1="$(date +%s%N)"; c1="$(cpu_ticks)"
    awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v times="$times" -v hz="$(getconf CLK_TCK)" '
        BEGIN { split(c0, a, " "); split(c1, b, " "); split(times, u, " "); w = (t1 - t0) / 1e9
                server = 100 * (b[3] - a[3]) / hz / w; client = 100 * (u[1] + u[2]) / w
                machine = 100 * (b[1] - a[1]) / hz / w
                extra = sprintf(" server_cpu_pct=%.0f client_cpu_pct=%.0f other_cpu_pct=%.0f steal_pct=%.0f cpu_window=run",
                                server, client, machine - server - client, 100 * (b[2] - a[2]) / hz / w) }
        /^RESULT / { print $0 extra; next } { print }' "$out"
    rm -f "$out"
}

field() { sed -n "s/^RESULT .*\b$1=\(-\?[0-9]*\).*/\1/p" <<<"$2" | tail -1; }

# Server $1, mode $2: up to TRIES runs, each on a fresh server, until one is undisturbed;
# appends the least disturbed RESULT line (and a NOTE per disturbed try) to round's $1.txt.
# Sessions runs are not repeated: memory does not depend on the CPU others take.
measure() {
    local name="$1" mode="$2" file="$3" port out best="" best_noise=1000000 other steal noise try tries="$TRIES"
    [ "$mode" != sessions ] || tries=1
    for try in $(seq "$tries"); do
        port="$(free_port)"
        start_server "$name" "$port"
        wait_quiet | tee -a "$file"
        out="$(run_load "$mode" "$port")"
        stop_server
        grep -v '^RESULT ' <<<"$out" | sed "s/^/[$name $mode] /" | tee -a "$file" || true
        other="$(field other_cpu_pct "$out")"; steal="$(field steal_pct "$out")"
        if [ -z "$other" ] || [ -z "$steal" ]; then
            echo "NOTE [$name $mode] no RESULT from wsload (try $try)" | tee -a "$file"; continue
        fi
        noise=$(((other > 0 ? other : 0) + (steal > 0 ? steal : 0)))
        if [ "$noise" -lt "$best_noise" ]; then best="$(grep '^RESULT ' <<<"$out" | tail -1) try=$try"; best_noise=$noise; fi
        [ "$other" -gt "$NOISE_PCT" ] || [ "$steal" -gt "$STEAL_PCT" ] || break
        echo "NOTE [$name $mode] disturbed run (other_cpu_pct=$other steal_pct=$steal), try $try of $tries" | tee -a "$file"
    done
    [ -z "$best" ] || echo "$best server=$name" | tee -a "$file"
}

# --- the run ---------------------------------------------------------------------------------
# Servers take turns within each mode, so that the figures compared were taken minutes apart,
# not the length of a whole run.
MINE="rxlive"
[ -z "${RXLIVE_BEFORE:-}" ] || MINE="rxlive rxlive-before"
echo "bench-peers: rxlive ($RXLIVE${RXLIVE_BEFORE:+, before: $RXLIVE_BEFORE}) beside $PEERS; modes $MODES; $ROUNDS round(s); results in $RUN_DIR"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
    mkdir -p "$RUN_DIR/round$round"
    for mode in $MODES; do
        for name in $MINE $PEERS; do
            echo "== round $round, $mode, $name $(date -u +%T)"
            measure "$name" "$mode" "$RUN_DIR/round$round/$name.txt"
        done
    done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

echo
python3 - "$RUN_DIR" "$SESSIONS" "$NOISE_PCT" "$STEAL_PCT" "$LOAD_BEFORE" "$LOAD_AFTER" "$MODES" $MINE $PEERS <<'PY'
import os, platform, statistics, sys
from pathlib import Path

run_dir, sessions, noise_pct, steal_pct, load_before, load_after, modes = sys.argv[1:8]
servers = sys.argv[8:]
peers = [s for s in servers if not s.startswith("rxlive")]
before = "rxlive-before" in servers
MODE_TITLES = {"throughput-64x1": "throughput 64×1", "throughput-256x4": "throughput 256×4",
               "sessions": f"sessions N={int(sessions):,}", "churn": "churn 32 workers"}
# (title, mode, field, better, scale, unit)
MEASURES = [
    (f"memory per idle session at {int(sessions):,} sessions", "sessions", "bytes_per_session", min, 1, "B"),
    ("churn: sessions opened, logged in and closed /s", "churn", "sessions_per_s", max, 1, "/s"),
    ("churn: p50 per session", "churn", "p50_us", min, 1e-3, "ms"),
    ("churn: sessions per server CPU-second", "churn", "per_cpu_s", max, 1, ""),
    ("churn: server user-space µs per session", "churn", "user_ns", min, 1e-3, "µs"),
    ("churn: server kernel µs per session", "churn", "system_ns", min, 1e-3, "µs"),
    ("throughput 64×1: sum replies/s", "throughput-64x1", "msgs_per_s", max, 1, "/s"),
    ("throughput 64×1: replies per server CPU-second", "throughput-64x1", "per_cpu_s", max, 1, ""),
    ("throughput 64×1: server user-space µs per reply", "throughput-64x1", "user_ns", min, 1e-3, "µs"),
    ("throughput 64×1: server kernel µs per reply", "throughput-64x1", "system_ns", min, 1e-3, "µs"),
    ("throughput 64×1: p99", "throughput-64x1", "p99_us", min, 1e-3, "ms"),
    ("throughput 256×4: sum replies/s", "throughput-256x4", "msgs_per_s", max, 1, "/s"),
    ("throughput 256×4: replies per server CPU-second", "throughput-256x4", "per_cpu_s", max, 1, ""),
    ("throughput 256×4: server user-space µs per reply", "throughput-256x4", "user_ns", min, 1e-3, "µs"),
    ("throughput 256×4: server kernel µs per reply", "throughput-256x4", "system_ns", min, 1e-3, "µs"),
    ("throughput 256×4: p99", "throughput-256x4", "p99_us", min, 1e-3, "ms"),
]

def mode_of(row):
    if row["mode"] == "throughput":
        return f"throughput-{row['conns']}x{row['depth']}"
    return row["mode"]

runs = []  # (round, server, mode, row)
dropped = {}  # (round, server, mode) -> the disturbed tries left out, as "other % / steal %"
for round_dir in sorted(Path(run_dir).glob("round*"), key=lambda p: int(p.name[5:])):
    rnd = int(round_dir.name[5:])
    for server in servers:
        path = round_dir / f"{server}.txt"
        if not path.exists():
            continue
        waited = 0  # seconds spent waiting for a quiet machine before the next RESULT
        for line in path.read_text().splitlines():
            if line.startswith("RESULT "):
                row = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
                row["waited"] = waited
                waited = 0
                # Work per second of the server's own CPU time (user + system): the measure
                # that holds when the load generator cannot saturate a server.
                done = row.get("msgs_per_s") or row.get("sessions_per_s")
                if done and float(row.get("server_cpu_pct", 0)) > 0:
                    row["per_cpu_s"] = float(done) / (float(row["server_cpu_pct"]) / 100)
                    # That CPU per unit, split into user space (the server's own code and its
                    # libraries) and the kernel's share (system calls, TCP on both ends of loopback).
                    if "server_user_share_pct" in row:
                        share = float(row["server_user_share_pct"]) / 100
                        row["user_ns"] = 1e9 / row["per_cpu_s"] * share
                        row["system_ns"] = 1e9 / row["per_cpu_s"] * (1 - share)
                runs.append((rnd, server, mode_of(row), row))
            elif line.startswith("NOTE waited "):
                waited += int(line.split()[2])
            elif " disturbed run (" in line:  # NOTE [server mode] disturbed run (other_cpu_pct=X steal_pct=Y), ...
                mode = line.split("]")[0].split()[-1]
                cpu = dict(kv.split("=") for kv in line.split("(")[1].split(")")[0].split())
                dropped.setdefault((rnd, server, mode), []).append(
                    f"{cpu['other_cpu_pct']} % / {cpu['steal_pct']} %")

def flawed(row):
    """Why a run's figures are not clean, or ''."""
    why = []
    if int(row.get("errors", 0)) or int(row.get("wrong", 0)):
        why.append(f"errors={row.get('errors')} wrong={row.get('wrong')}")
    if row["mode"] == "sessions" and int(row["held"]) < int(row["sessions"]):
        why.append(f"held {row['held']} of {row['sessions']}")
    return ", ".join(why)

def values(server, mode, field):
    return [float(r[field]) for _, s, m, r in runs if s == server and m == mode and field in r]

def show(v, scale, unit):
    fmt = (lambda x: f"{x * scale:,.2f}") if scale != 1 else (lambda x: f"{x:,.0f}")
    if len(v) == 1:
        return f"{fmt(v[0])} {unit}"
    return f"{fmt(statistics.median(v))} {unit} ({fmt(min(v))}–{fmt(max(v))})"

rounds = max((r for r, *_ in runs), default=0)
print(f"machine: {platform.node()}, {platform.system()} {platform.release()}, "
      f"{os.cpu_count()} CPUs "
      f"({next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), '?')}); "
      f"load average {load_before} before, {load_after} after")
print(f"rxlive beside the best of {', '.join(peers)}: "
      + ("one round" if rounds == 1 else f"median (min–max) of {rounds} rounds") + "\n")
print("| measure | rxlive | best peer | rxlive ÷ best |" + (" rxlive before | rxlive ÷ before |" if before else ""))
print("| --- | ---: | ---: | ---: |" + (" ---: | ---: |" if before else ""))
for title, mode, field, better, scale, unit in MEASURES:
    mine = values("rxlive", mode, field)
    theirs = {p: values(p, mode, field) for p in peers if values(p, mode, field)}
    if not mine and not theirs:
        continue
    best = better(theirs, key=lambda p: statistics.median(theirs[p])) if theirs else None
    ratio = (f"{statistics.median(mine) / statistics.median(theirs[best]):.2f}×"
             if mine and best and statistics.median(theirs[best]) else "–")
    lower = "lower is better" if better is min else "higher is better"
    extra = ""
    if before:
        old = values("rxlive-before", mode, field)
        versus = f"{statistics.median(mine) / statistics.median(old):.2f}×" if mine and old and statistics.median(old) else "–"
        extra = f" {show(old, scale, unit) if old else '–'} | {versus} |"
    print(f"| {title} | {show(mine, scale, unit) if mine else '–'} | "
          f"{f'{best}: ' + show(theirs[best], scale, unit) if best else '–'} | {ratio} ({lower}) |" + extra)

print(f"\nruns (CPU: % of one CPU during the measured window; other = the rest of the machine's busy time,"
      f" other processes and unattributed softirq, below 0 when the counters disagree; a run is repeated while other > {noise_pct} % or"
      f" steal > {steal_pct} %; sessions: over the whole wsload run)\n")
print("| round | mode | server | figure | server CPU | client CPU | other CPU | steal | try | note |")
print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
order = {m: i for i, m in enumerate(modes.split())}  # the order they ran in
for rnd, server, mode, row in sorted(runs, key=lambda r: (r[0], order.get(r[2], 9), servers.index(r[1]))):
    figure = {"sessions": lambda: f"{int(row['bytes_per_session']):,} B/session",
              "churn": lambda: f"{float(row['sessions_per_s']):,.0f}/s, p50 {int(row['p50_us']) / 1000:.2f} ms"}.get(
        mode, lambda: f"{float(row['msgs_per_s']):,.0f}/s, p99 {int(row['p99_us']) / 1000:.2f} ms")()
    note = [n for n in (flawed(row),) if n]
    if row["waited"]:
        note.append(f"waited {row['waited']} s for a quiet machine")
    if (rnd, server, mode) in dropped:
        note.append("left out, other / steal: " + ", ".join(dropped[(rnd, server, mode)]))
    if int(row.get("other_cpu_pct", 0)) > int(noise_pct) or int(row.get("steal_pct", 0)) > int(steal_pct):
        note.append("disturbed")
    pct = lambda k: f"{row[k]} %" if k in row else "–"
    print(f"| {rnd} | {MODE_TITLES.get(mode, mode)} | {server} | {figure} | {pct('server_cpu_pct')} | "
          f"{pct('client_cpu_pct')} | {pct('other_cpu_pct')} | {pct('steal_pct')} | {row.get('try', '–')} | "
          f"{'; '.join(note)} |")
print(f"\nRESULT lines: {run_dir}")
PY

if [ "$BREAKDOWN" = 1 ]; then
    echo
    echo "== where an idle rxlive session's bytes go (scripts/session-memory.sh 2000)"
    scripts/session-memory.sh 2000
fi
