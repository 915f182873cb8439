#!/usr/bin/env bash
# Instructions the server spends per sum message, counted by callgrind: figures that repeat
# exactly where wall time is noisy (a shared machine). For each rxlive binary given (default:
# this build's release rxlive), runs it under callgrind twice, drives one sum session through
# FEW and then MANY number1 changes, one at a time, and prints the difference per message.
# Usage: scripts/callgrind-sessions.sh [rxlive ...]     (needs valgrind: scripts/setup test)
set -euo pipefail
cd "$(dirname "$0")/.."
FEW=1000
MANY=6000
if [ $# -eq 0 ]; then
    swift build -c release --product rxlive >/dev/null
    set -- "$(swift build -c release --show-bin-path)/rxlive"
fi
PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"

# One sum session: number2 and number3 once, then COUNT number1 changes, each answered before the next.
drive() {
    python3 - "$1" "$2" <<'PY'
import sys, importlib.util
spec = importlib.util.spec_from_file_location("ws", "scripts/watch-session.py")
ws = importlib.util.module_from_spec(spec); spec.loader.exec_module(ws)
port, count = int(sys.argv[1]), int(sys.argv[2])
sock = ws.connect(port, "/ws/sum")
sock.settimeout(120)
replies = ws.messages(sock)
next(replies)  # ready
ws.send_text(sock, '{"input":"number2","value":"2"}')
ws.send_text(sock, '{"input":"number3","value":"3"}')
for i in range(count):
    ws.send_text(sock, '{"input":"number1","value":"%d"}' % i)
    assert next(replies) == {"output": "sum", "value": i + 5}
sock.close()
PY
}

instructions() {  # binary, message count -> total instructions of the run
    local out port pid binary
    out="$(mktemp)"
    # A copy without debug info: valgrind cannot read the DWARF 5 of a dependency's C shims
    # (swift-atomics'), and totals need no symbols.
    binary="$(mktemp)"
    cp "$1" "$binary"
    strip --strip-debug "$binary"
    chmod 0755 "$binary"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" --port "$port" --public "$PUBLIC_DIR" \
        --message-rate 0 --login-service simulated --log-level error >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 600); do  # bounded: 60 s for valgrind to start the server
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$port)))" && break
        sleep 0.1
    done
    drive "$port" "$2"
    sleep 1  # let the server finish closing the session
    kill -TERM "$pid"
    wait "$pid" || true
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
    rm -f "$out" "$binary"
}

for binary in "$@"; do
    few="$(instructions "$binary" "$FEW")"
    many="$(instructions "$binary" "$MANY")"
    echo "$binary: $(( (many - few) / (MANY - FEW) )) instructions per sum message (callgrind, $FEW vs $MANY messages)"
done
