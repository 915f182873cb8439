#!/usr/bin/env bash
# Instructions a server spends per sum message and per churned session, counted by callgrind:
# figures that repeat exactly where wall time is noisy (a shared machine). For each server
# given (default: this build's release rxlive), runs it under callgrind twice per measure and
# prints the difference per unit:
#   message: one sum session through FEW and then MANY number1 changes, one at a time;
#   session: FEW and then MANY sum sessions opened (upgrade, `ready`), sent one change,
#            answered and closed, one after another;
#   login:   FEW and then MANY login sessions as wsload's churn runs them: username,
#            password and a tap, the login's result (the simulated service, 1 ms), closed.
#   signed-in: as session, each upgrade with `Authorization: Bearer` (a token of a user in
#            a throwaway accounts file, looked up once, then from the server's cache), and
#   anonymous-store: as session, on the same server with accounts but no token: the pair
#            gives what a signed-in session's open costs beyond an anonymous one.
#   default: as session, on a server started with no login flags, as a user runs it (the
#            store login service and its default database, made in a throwaway folder).
# User-space instructions only: the kernel's share of a system call is not counted.
# With TLS=1 the rxlive servers get a throwaway certificate and the driver speaks TLS 1.3
# (Python's ssl module, the client's work is not counted).
#
# Usage: [TLS=1] scripts/callgrind-sessions.sh [SERVER ...]     (needs valgrind: scripts/setup test)
#   SERVER   an rxlive binary, or uws-cpp=PATH for the uws-cpp peer of ../shared/peers
#   MEASURES "message session" (default), or any of message, session, login, signed-in,
#            anonymous-store and default
#   LAYERS   1: also print, for each rxlive server and measure, where a unit's instructions go
#            by layer (scripts/callgrind-layers.py on the two runs' callgrind outputs)
#   KEEP     DIR: keep each run's callgrind output as DIR/MEASURE-COUNT.out (callgrind_annotate)
#   RXLIVE_RECORD  DIR: the rxlive servers record every session (--record), each run into
#            a new folder in DIR
set -euo pipefail
cd "$(dirname "$0")/.."
MEASURES="${MEASURES:-message session}"
TLS="${TLS:-0}"
CERT_DIR=""
SERVER_TLS=()
if [ "$TLS" = 1 ]; then
    CERT_DIR="$(mktemp -d)"
    trap 'rm -rf "$CERT_DIR"' EXIT
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$CERT_DIR/key.pem" \
        -out "$CERT_DIR/cert.pem" -days 1 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2>/dev/null
    chmod 600 "$CERT_DIR/key.pem"
    SERVER_TLS=(--tls-cert "$CERT_DIR/cert.pem" --tls-key "$CERT_DIR/key.pem")
fi
if [ $# -eq 0 ]; then
    swift build -c release --product rxlive >/dev/null
    set -- "$(swift build -c release --show-bin-path)/rxlive"
fi
if [ -n "${RXLIVE_RECORD:-}" ]; then
    mkdir -p "$RXLIVE_RECORD"
    RXLIVE_RECORD_ROOT="$RXLIVE_RECORD"
fi
PUBLIC_DIR=Public
[ -d "$PUBLIC_DIR" ] || PUBLIC_DIR="$(mktemp -d)"

# Drives the server on port $1: measure $2, COUNT $3 units.
drive() {
    python3 - "$1" "$2" "$3" "$CERT_DIR" "${TOKEN:-}" <<'PY'
import sys, importlib.util
spec = importlib.util.spec_from_file_location("ws", "scripts/watch-session.py")
ws = importlib.util.module_from_spec(spec); spec.loader.exec_module(ws)
port, measure, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
token = sys.argv[5] if len(sys.argv) > 5 else ""
if sys.argv[4]:  # TLS: every connection the driver opens is wrapped
    import socket, ssl
    context = ssl.create_default_context(cafile=sys.argv[4] + "/cert.pem")
    plain_connection = socket.create_connection
    ws.socket.create_connection = lambda *args, **kwargs: context.wrap_socket(
        plain_connection(*args, **kwargs), server_hostname="localhost")

def session():
    sock = ws.connect(port, "/ws/sum", headers=[f"Authorization: Bearer {token}"] if token else [])
    sock.settimeout(120)
    replies = ws.messages(sock)
    next(replies)  # ready
    return sock, replies

if measure == "message":
    sock, replies = session()
    ws.send_text(sock, '{"input":"number2","value":"2"}')
    ws.send_text(sock, '{"input":"number3","value":"3"}')
    for i in range(count):
        ws.send_text(sock, '{"input":"number1","value":"%d"}' % i)
        assert next(replies) == {"output": "sum", "value": i + 5}
    sock.close()
elif measure == "login":
    for i in range(count):
        sock = ws.connect(port, "/ws/login")
        sock.settimeout(120)
        replies = ws.messages(sock)
        next(replies)  # ready
        ws.send_text(sock, '{"input":"username","value":"user%d"}' % i)
        ws.send_text(sock, '{"input":"password","value":"secret"}')
        ws.send_text(sock, '{"input":"loginTapped"}')
        while (reply := next(replies)) != {"output": "loginResult", "value": True}:
            assert reply.get("output") == "isLoginButtonEnabled", reply
        sock.close()
else:
    for i in range(count):
        sock, replies = session()
        for name in ("number1", "number2", "number3"):
            ws.send_text(sock, '{"input":"%s","value":"%d"}' % (name, i))
        assert next(replies) == {"output": "sum", "value": 3 * i}
        sock.close()
PY
}

instructions() {  # server, measure, count -> total instructions of the run
    local out port pid binary server="$1"
    out="$(mktemp)"
    # RXLIVE_RECORD=DIR: each run records into a new empty folder in DIR, so that the two
    # runs start alike (a first run that makes the folder pays for it once, skewing the unit).
    if [ -n "${RXLIVE_RECORD_ROOT:-}" ]; then
        export RXLIVE_RECORD="$(mktemp -d -p "$RXLIVE_RECORD_ROOT")"
    fi
    # A copy without debug info: valgrind cannot read the DWARF 5 of a dependency's C shims
    # (swift-atomics'), and totals need no symbols.
    binary="$(mktemp)"
    cp "${server#uws-cpp=}" "$binary"
    strip --strip-debug "$binary"
    chmod 0755 "$binary"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    if [[ "$server" == uws-cpp=* ]]; then
        PORT="$port" LOGIN_DELAY_MS=1 valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" >/dev/null 2>&1 &
    elif [ "$2" = signed-in ] || [ "$2" = anonymous-store ]; then
        valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" --port "$port" --public "$PUBLIC_DIR" \
            --message-rate 0 --database "sqlite:$ACCOUNTS/accounts.sqlite" --log-level error "${SERVER_TLS[@]}" >/dev/null 2>&1 &
    elif [ "$2" = default ]; then
        # No login flags: the default database (data/rxlive.sqlite) is made in a throwaway folder.
        rm -rf "$ACCOUNTS/default" && mkdir -p "$ACCOUNTS/default"
        local public; public="$(realpath "$PUBLIC_DIR")"
        (cd "$ACCOUNTS/default" && exec valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" --port "$port" \
            --public "$public" --message-rate 0 --log-level error "${SERVER_TLS[@]}") >/dev/null 2>&1 &
    else
        valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" --port "$port" --public "$PUBLIC_DIR" \
            --message-rate 0 --login-service simulated --login-delay 0.001 --log-level error "${SERVER_TLS[@]}" >/dev/null 2>&1 &
    fi
    pid=$!
    for _ in $(seq 600); do  # bounded: 60 s for valgrind to start the server
        python3 -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1',$port)))" && break
        sleep 0.1
    done
    TOKEN="$([ "$2" = signed-in ] && echo "$TOKEN_OF_ADA")" drive "$port" "$([ "$2" = message ] || [ "$2" = login ] && echo "$2" || echo session)" "$3"
    sleep 1  # let the server finish closing the sessions
    kill -TERM "$pid"
    wait "$pid" || true
    awk '/^(summary|totals):/ { print $2; exit }' "$out"
    if [ "${LAYERS:-0}" = 1 ]; then cp "$out" "$KEPT/$3.out"; fi
    if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$out" "$KEEP/$2-$3.out"; fi
    rm -f "$out" "$binary"
}

# A throwaway accounts file with one user and a token, for signed-in and anonymous-store.
ACCOUNTS="$(mktemp -d)"
KEPT="$(mktemp -d)"  # the callgrind outputs LAYERS=1 reads
trap 'rm -rf "$ACCOUNTS" "$KEPT" ${CERT_DIR:+"$CERT_DIR"}' EXIT
TOKEN_OF_ADA=""

for server in "$@"; do
    for measure in $MEASURES; do
        case "$measure" in
            message) few=1000; many=6000 ;;
            session|login|anonymous-store|default) few=200; many=1200 ;;
            signed-in)
                few=200; many=1200
                [[ "$server" != uws-cpp=* ]] || continue
                rm -f "$ACCOUNTS"/accounts.sqlite*
                echo engine | "$server" user add ada --database "sqlite:$ACCOUNTS/accounts.sqlite" >/dev/null
                TOKEN_OF_ADA="$("$server" user token ada --database "sqlite:$ACCOUNTS/accounts.sqlite" 2>/dev/null)" ;;
            *) echo "unknown measure $measure (message session login signed-in anonymous-store default)" >&2; exit 2 ;;
        esac
        a="$(instructions "$server" "$measure" "$few")"
        b="$(instructions "$server" "$measure" "$many")"
        case "$measure" in
            login) unit="login session" ;;
            signed-in) unit="signed-in sum session" ;;
            anonymous-store) unit="anonymous sum session (server with accounts)" ;;
            default) unit="sum session (default configuration)" ;;
            *) unit="sum $measure" ;;
        esac
        echo "$server: $(( (b - a) / (many - few) )) instructions per $unit$([ "$TLS" = 1 ] && echo " over TLS") (callgrind, $few vs $many)"
        if [ "${LAYERS:-0}" = 1 ] && [[ "$server" != uws-cpp=* ]]; then
            python3 scripts/callgrind-layers.py "$KEPT/$few.out" "$KEPT/$many.out" "$few" "$many"
        fi
    done
done
