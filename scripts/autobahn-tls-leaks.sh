#!/usr/bin/env bash
# Autobahn cases 1-10 over TLS against autobahn-echo running under valgrind's leak check.
# kosoku speaks only ws://, so socat carries each of its connections over TLS to the server
# (kosoku -> socat -> TLS -> autobahn-echo). Prints kosoku's tally and valgrind's summaries;
# fails if a case fails or valgrind finds memory definitely lost. Slow (minutes): not part
# of `make test`.
#
#   scripts/autobahn-tls-leaks.sh        (uses .build/debug; RXLIVE_BIN_DIR for others)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${RXLIVE_BIN_DIR:-.build/debug}"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

source scripts/lib/ports.sh
wait_for_port() {
    for _ in $(seq 600); do
        if python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', $1), timeout=0.2)" 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/key.pem" \
    -out "$work/cert.pem" -days 1 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
chmod 600 "$work/key.pem"

tls_port="$(free_port)"
plain_port="$(free_port)"
valgrind --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite \
    --log-file="$work/valgrind.log" \
    "$bin/autobahn-echo" --port "$tls_port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
    > "$work/server.log" 2>&1 &
server=$!
pids+=("$server")
wait_for_port "$tls_port"
socat "TCP-LISTEN:$plain_port,bind=127.0.0.1,reuseaddr,fork" \
    "OPENSSL:localhost:$tls_port,cafile=$work/cert.pem,verify=1" 2>/dev/null &
pids+=("$!")
wait_for_port "$plain_port"

sections=()
for section in 1 2 3 4 5 6 7 9 10; do sections+=(-i "$section.*"); done
started=$SECONDS
status=0
timeout 3600 .venv/bin/kosoku "${sections[@]}" -o "$work/reports" "127.0.0.1:$plain_port" | tail -1 || status=$?
echo "autobahn over TLS under valgrind: $((SECONDS - started)) s"

kill -TERM "$server"
wait "$server" || true
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable" "$work/valgrind.log" | sed 's/^==[0-9]*== *//'
if ! grep -q "definitely lost: 0 bytes" "$work/valgrind.log" && grep -q "definitely lost:" "$work/valgrind.log"; then
    echo "valgrind: memory definitely lost" >&2
    grep -B2 -A25 "definitely lost in" "$work/valgrind.log" | head -80 >&2
    status=1
fi
exit "$status"
