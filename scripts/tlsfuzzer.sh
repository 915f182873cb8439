#!/usr/bin/env bash
# Runs tlsfuzzer's TLS 1.3 scripts against rxlive and, as the baseline, `openssl s_server`
# with the same certificate, side by side, and prints a Markdown table of the cases each
# passes (docs/SECURITY.md keeps the latest). Fails (exit 1) when rxlive fails a case that
# openssl s_server passes. Not part of `make test`: it needs the two checkouts below.
#
#   scripts/tlsfuzzer.sh TLSFUZZER_DIR TLSLITE_NG_DIR [script-name ...]
#   TLSFUZZER=… TLSLITE_NG=… scripts/tlsfuzzer.sh
#
# TLSFUZZER_DIR: a checkout of https://github.com/tlsfuzzer/tlsfuzzer (its scripts/ and
# tlsfuzzer/ folders); TLSLITE_NG_DIR: one of https://github.com/tlsfuzzer/tlslite-ng at the
# version tlsfuzzer's requirements.txt names (its tlslite/ folder). Also needed: python3 with
# the `ecdsa` module (Debian: python3-ecdsa; PYTHON picks the interpreter), openssl, and a
# built rxlive (swift build; RXLIVE_BIN_DIR for another build). Script names default to the
# list below, e.g. `conversation` runs scripts/test-tls13-conversation.py. Logs go to
# artifacts/tlsfuzzer/.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: scripts/tlsfuzzer.sh TLSFUZZER_DIR TLSLITE_NG_DIR [script-name ...]" >&2
    echo "  (or TLSFUZZER and TLSLITE_NG in the environment)" >&2
    echo "tlsfuzzer.sh: $1" >&2
    exit 2
}

tlsfuzzer="${1:-${TLSFUZZER:-}}"
tlslite="${2:-${TLSLITE_NG:-}}"
shift $(($# < 2 ? $# : 2))
[ -n "$tlsfuzzer" ] || usage "needs a tlsfuzzer checkout (git clone https://github.com/tlsfuzzer/tlsfuzzer)"
[ -n "$tlslite" ] || usage "needs a tlslite-ng checkout (git clone https://github.com/tlsfuzzer/tlslite-ng, at the version tlsfuzzer's requirements.txt names)"
[ -f "$tlsfuzzer/tlsfuzzer/runner.py" ] && [ -d "$tlsfuzzer/scripts" ] \
    || usage "$tlsfuzzer is not a tlsfuzzer checkout (no tlsfuzzer/runner.py and scripts/)"
[ -f "$tlslite/tlslite/api.py" ] || usage "$tlslite is not a tlslite-ng checkout (no tlslite/api.py)"
python="${PYTHON:-/usr/bin/python3}"
"$python" -c 'import ecdsa' 2>/dev/null || usage "$python has no ecdsa module, which tlslite-ng needs (Debian: apt-get install python3-ecdsa)"
command -v openssl >/dev/null || usage "needs openssl (Debian: apt-get install openssl)"
rxlive="${RXLIVE_BIN_DIR:-.build/debug}/rxlive"
[ -x "$rxlive" ] || usage "$rxlive is missing: build it first (swift build)"

scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
    scripts=(conversation record-layer-limits record-padding keyupdate keyupdate-from-server zero-content-type
             zero-length-data empty-alert unencrypted-alert connection-abort count-tickets multiple-ccs-messages
             ccs finished legacy-version invalid-ciphers nociphers hrr)
fi
for name in "${scripts[@]}"; do
    [ -e "$tlsfuzzer/scripts/test-tls13-$name.py" ] || usage "$tlsfuzzer/scripts/test-tls13-$name.py does not exist"
done

work="$(mktemp -d)"
logs=artifacts/tlsfuzzer
mkdir -p "$logs"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# RSA: tlsfuzzer's TLS 1.3 scripts offer RSA-PSS signatures only.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
    -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
chmod 600 "$work/key.pem"

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "tlsfuzzer.sh: nothing listens on 127.0.0.1:$1; see $logs" >&2
    exit 1
}

rxlive_port="$(free_port)"
"$rxlive" --host 127.0.0.1 --port "$rxlive_port" --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
    --database "sqlite:$work/db/rxlive.sqlite" >"$logs/rxlive.log" 2>&1 &
pids+=($!)
openssl_port="$(free_port)"
# -www answers each request with a status page, as rxlive answers tlsfuzzer's `GET /` with the page.
openssl s_server -accept "127.0.0.1:$openssl_port" -cert "$work/cert.pem" -key "$work/key.pem" -www -quiet \
    >"$logs/openssl-s_server.log" 2>&1 &
pids+=($!)
wait_for "$rxlive_port"
wait_for "$openssl_port"

# Every case of every script (-n 0): by default some scripts run a random sample of their
# cases, which would differ between the two servers. Extra arguments some scripts need, the
# same for both servers.
declare -A extra=([count-tickets]="-t 2")

run() {  # server port script: runs one script, its output in the log
    local log="$logs/$1-$3.log"
    # shellcheck disable=SC2086
    PYTHONPATH="$tlslite:$tlsfuzzer" timeout 900 "$python" "$tlsfuzzer/scripts/test-tls13-$3.py" \
        -h 127.0.0.1 -p "$2" -n 0 ${extra[$3]:-} >"$log" 2>&1 || true
}
for name in "${scripts[@]}"; do
    echo "tlsfuzzer.sh: test-tls13-$name.py" >&2
    run openssl-s_server "$openssl_port" "$name" &
    run rxlive "$rxlive_port" "$name"
    wait $!
done

"$python" - "$logs" "${scripts[@]}" <<'PY'
"""Reads each script's log (each case prints "NAME ..." and then "OK", or "Error while processing"
when it failed; sanity runs several times and passes if every run did) and tables the results."""
import sys
from pathlib import Path

logs, names = Path(sys.argv[1]), sys.argv[2:]


def cases(server, name):
    results = {}
    current = None
    for line in (logs / f"{server}-{name}.log").read_text(errors="replace").splitlines():
        if line.endswith("...") and not line.startswith(" "):
            current = line[:-3].rstrip()
        elif current and (line.startswith("OK") or line == "Error while processing"
                          or line.startswith("Expected error message") or line.startswith("XPASS")):
            results[current] = results.get(current, True) and line.startswith("OK")
            current = None
    return results


print("| script | cases | openssl s_server passes | rxlive passes | both fail |")
print("| --- | --- | --- | --- | --- |")
worse, better, both_failed = [], [], []
for name in names:
    theirs, ours = cases("openssl-s_server", name), cases("rxlive", name)
    every = sorted(set(theirs) | set(ours))
    both = [case for case in every if not theirs.get(case, False) and not ours.get(case, False)]
    worse += [f"{name}: {case}" for case in every if theirs.get(case, False) and not ours.get(case, False)]
    better += [f"{name}: {case}" for case in every if ours.get(case, False) and not theirs.get(case, False)]
    both_failed += [f"{name}: {case}" for case in both]
    print(f"| {name} | {len(every)} | {sum(theirs.values())} | {sum(ours.values())} | {len(both)} |")
if better:
    print("\nCases rxlive passes and openssl s_server fails:\n" + "\n".join(f"- {case}" for case in better))
if both_failed:
    print("\nCases both fail:\n" + "\n".join(f"- {case}" for case in both_failed))
if worse:
    print("\nCases openssl s_server passes and rxlive fails:\n" + "\n".join(f"- {case}" for case in worse))
    sys.exit(1)
if not any(cases("rxlive", name) for name in names):
    print("no case ran: see the logs in", logs)
    sys.exit(1)
PY
