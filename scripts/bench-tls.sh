#!/usr/bin/env bash
# TLS benchmark (issue 10): sum replies/s of rxlive over wss:// beside the same server over
# ws://, 64 sessions each with one number1 change in flight, same client (ws-bench, which
# speaks TLS through OpenSSL memory BIOs like the server), same run. Builds release, makes a
# throwaway certificate, starts both servers on free 127.0.0.1 ports, stops them at the end.
# Usage: scripts/bench-tls.sh [seconds=5] [connections=64]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${1:-5}"
CONNECTIONS="${2:-64}"

for product in rxlive ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_port() {  # bounded: 10 s
    for _ in $(seq 100); do
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$1)))" && return 0
        sleep 0.1
    done
    echo "server on port $1 did not start" >&2; return 1
}

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
PIDS+=($!)
TLS_PORT="$(free_port)"
"$BIN/rxlive" --port "$TLS_PORT" --public "$PUBLIC_DIR" --message-rate 0 --log-level warning \
    --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem" >"$WORK/tls.log" 2>&1 &
PIDS+=($!)
wait_port "$PLAIN_PORT" || { cat "$WORK/plain.log" >&2; exit 1; }
wait_port "$TLS_PORT" || { cat "$WORK/tls.log" >&2; exit 1; }

echo "== ws:// (plain)"
PLAIN_LINE="$("$BIN/ws-bench" sum --port "$PLAIN_PORT" --connections "$CONNECTIONS" --seconds "$SECONDS_PER_RUN")"
echo "$PLAIN_LINE"
echo "== wss:// (TLS 1.3, $(openssl version | cut -d' ' -f1-2))"
TLS_LINE="$("$BIN/ws-bench" sum --port "$TLS_PORT" --connections "$CONNECTIONS" --seconds "$SECONDS_PER_RUN" --tls-ca "$WORK/cert.pem")"
echo "$TLS_LINE"
python3 - "$PLAIN_LINE" "$TLS_LINE" <<'PY'
import re, sys
plain, tls = (re.search(r"([0-9.]+) replies/s", line) for line in sys.argv[1:])
if plain and tls and float(plain.group(1)) > 0:
    print(f"TLS keeps {100 * float(tls.group(1)) / float(plain.group(1)):.1f}% of the plain reply rate")
PY
