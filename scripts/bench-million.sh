#!/usr/bin/env bash
# One million live sum sessions on this machine: as many `rxlive --loops 1` servers as the
# open-file limit needs, one `ws-bench hold` client each; open every session, read the
# servers' CPU over a quiet window of pings, send RATE changes a second to random sessions
# for SECONDS, close them all, and print one line:
#   million: sessions=N processes=P open_s=S bytes_per_session=B total_rss_mb=T p99_ms=L wrong=W errors=E ping_cpu_pct=C resources_after=R
# with the servers' total RSS over time in OUT/rss.csv and OUT/rss.svg. The kernel limits it
# needs (local port range, somaxconn, SYN backlog, connection tracking) are raised where this host allows, and put
# back at the end; docs/OPERATIONS.md, "Many sessions on one host", names each.
#
# Usage: scripts/bench-million.sh [--sessions 1000000] [--rate 10000] [--seconds 60] [--ping-interval 30]
#                                 [--quiet-window INTERVAL+5] [--out DIR]
#                                 [--keep-sysctls]
set -euo pipefail
cd "$(dirname "$0")/.."
for product in rxlive ws-bench; do swift build -c release --product "$product" >/dev/null; done
BIN="$(swift build -c release --show-bin-path)"
OUT="$(mktemp -d /tmp/bench-million.XXXXXX)"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = --out ] && OUT="${args[$((i + 1))]}"; done
[[ " $* " == *" --out "* ]] || args+=(--out "$OUT")
exec python3 scripts/bench-million.py --bin "$BIN" "${args[@]}"
