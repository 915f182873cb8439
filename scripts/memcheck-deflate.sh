#!/usr/bin/env bash
# Runs the debug autobahn-echo under valgrind memcheck through a permessage-deflate Autobahn
# run (kosoku: a slice of sections 12 and 13, enough to use every zlib path: the shared
# inflater and the deflaters of each window size, fragmented compressed messages), stops it
# with SIGTERM and prints valgrind's leak summary. Fails when any bytes are definitely lost.
# Usage: scripts/memcheck-deflate.sh [kosoku case patterns...]
set -euo pipefail
cd "$(dirname "$0")/.."
# Default: each data set, fragmented and not, every 13.x offer (window 9 and 15, with and without
# context takeover asked), and a fragmented uncompressed case; valgrind makes each ~50x slower.
if [ "$#" -gt 0 ]; then CASES=("$@"); else CASES=("12.1.3" "12.2.2" "12.4.11" "12.5.4" "13.*.3" "5.6"); fi

swift build --product autobahn-echo >/dev/null
BIN="$(swift build --show-bin-path)"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')"
OUT="${TMPDIR:-/tmp}/memcheck-deflate.$$"
mkdir -p "$OUT"
valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
    --log-file="$OUT/valgrind.log" "$BIN/autobahn-echo" --port "$PORT" >"$OUT/server.log" 2>&1 &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
for _ in $(seq 300); do   # valgrind starts slowly: up to 30 s
    grep -q listening "$OUT/server.log" 2>/dev/null && break
    sleep 0.1
done
grep -q listening "$OUT/server.log" || { echo "autobahn-echo did not start under valgrind" >&2; cat "$OUT/valgrind.log" >&2; exit 1; }

ARGS=()
for pattern in "${CASES[@]}"; do ARGS+=(-i "$pattern"); done
# A case failing from valgrind's slowness is no leak: the summary below is the verdict.
.venv/bin/kosoku "${ARGS[@]}" -o "$OUT/reports" "127.0.0.1:$PORT" | tail -3 || true
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || true
trap - EXIT
grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|still reachable" "$OUT/valgrind.log" | sed 's/^==[0-9]*== *//'
if grep -q "definitely lost: [1-9]" "$OUT/valgrind.log"; then
    echo "memcheck: bytes definitely lost, see $OUT/valgrind.log" >&2
    exit 1
fi
echo "memcheck: nothing definitely lost (log: $OUT/valgrind.log)"
