"""Shutdown of the real rxlive binary: during --drain-grace /healthz answers 503 while new
sessions are still served, then every session is closed with 1001; --shutdown-timeout bounds
the drain even when a peer never answers the close or never finishes its request. Times are
measured from before the signal, with bounds far from what the machine's load can reach."""
import json
import os
import re
import signal
import socket
import time

import pytest

from raw_websocket import RawWebSocket
from support import http_get, start_rxlive

GRACE = 6.0


def wait_for_status(port, status, within=5.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        got = http_get(port, "/healthz")
        if got[0] == status:
            return got
        time.sleep(0.02)
    raise AssertionError(f"/healthz did not answer {status} within {within} s")


def sum_session(port):
    """A sum session with all three numbers set to 0, so each change gets a reply."""
    ws = RawWebSocket(port, "/ws/sum")
    assert "ready" in ws.receive_json()
    for name in ("number1", "number2", "number3"):
        ws.send_json({"input": name, "value": "0"})
    assert ws.receive_json() == {"output": "sum", "value": 0}
    return ws


@pytest.mark.slow  # waits out a grace period
def test_healthz_answers_503_during_the_grace_while_new_sessions_are_served():
    with start_rxlive(extra_args=["--loops", "2", "--drain-grace", str(GRACE)]) as server:
        before = sum_session(server.port)
        signalled = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)

        assert wait_for_status(server.port, 503) == (503, b'{"status":"draining"}')
        for _ in range(4):  # health checks may land on either loop: all are unhealthy
            assert http_get(server.port, "/healthz")[0] == 503
        during = sum_session(server.port)
        during.send_json({"input": "number1", "value": "4"})
        assert during.receive_json() == {"output": "sum", "value": 4}
        before.send_json({"input": "number2", "value": "5"})
        assert before.receive_json() == {"output": "sum", "value": 5}
        assert http_get(server.port, "/index.html")[0] == 200
        assert time.monotonic() - signalled < GRACE, "the steps above took longer than the grace"

        # After the grace: both sessions get 1001, not before the grace has passed.
        for ws in (before, during):
            assert ws.receive_close_code() == 1001
            assert time.monotonic() - signalled >= GRACE - 0.5
            ws.send_frame(0x8, (1001).to_bytes(2, "big"))
        assert server.proc.wait(15) == 0
        assert http_get(server.port, "/healthz", timeout=0.5)[0] == 0


def test_a_second_signal_ends_the_grace():
    with start_rxlive(extra_args=["--drain-grace", "60"]) as server:
        ws = sum_session(server.port)
        signalled = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        wait_for_status(server.port, 503)
        server.proc.send_signal(signal.SIGTERM)
        assert ws.receive_close_code() == 1001
        ws.send_frame(0x8, (1001).to_bytes(2, "big"))
        assert server.proc.wait(15) == 0
        assert time.monotonic() - signalled < 30


def test_shutdown_timeout_bounds_the_drain_with_peers_that_never_answer():
    timeout = 0.5
    with start_rxlive(extra_args=["--loops", "2", "--shutdown-timeout", str(timeout)]) as server:
        silent = [sum_session(server.port) for _ in range(2)]
        half_sent = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        half_sent.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        time.sleep(0.2)  # let the server read the partial head

        signalled = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        for ws in silent:
            assert ws.receive_close_code() == 1001  # read, never answered
        assert server.proc.wait(15) == 0
        elapsed = time.monotonic() - signalled
        # It waited the shutdown timeout for them, and no longer: without the bound the
        # close handshake's own timeout (5 s) and the head timeout (10 s) would hold it up.
        assert timeout - 0.05 <= elapsed < 4.5, elapsed
        assert half_sent.recv(4096) == b""
        half_sent.close()
        for ws in silent:
            ws.close()


def test_sighup_without_tls_and_sigusr1_sigusr2_are_logged_and_ignored():
    """Only SIGTERM and SIGINT end the server: the others leave a session served and say why."""
    with start_rxlive() as server:
        ws = sum_session(server.port)
        for number in (signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2):
            server.proc.send_signal(number)
        deadline = time.monotonic() + 5
        log = ""
        while log.count("ignored") < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
            log = server.log_path.read_text(errors="replace")
        assert "SIGHUP ignored" in log and "SIGUSR1 ignored" in log and "SIGUSR2 ignored" in log, log
        assert server.proc.poll() is None
        ws.send_json({"input": "number1", "value": "5"})
        assert ws.receive_json() == {"output": "sum", "value": 5}
        assert http_get(server.port, "/healthz")[0] == 200
        ws.close()
        assert server.stop() == 0


def signals_held_or_handled(pid, signals=(signal.SIGINT, signal.SIGTERM)):
    """Whether process `pid` runs its own code yet: its main thread blocks `signals` (the
    server's first act) or has handlers for them. Before that, the dynamic loader is still at
    work, and a signal takes its default action in any program."""
    mask = sum(1 << (sig - 1) for sig in signals)
    try:
        fields = dict(line.split(":", 1) for line in open(f"/proc/{pid}/status"))
    except OSError:
        return False
    return any(int(fields[name].strip(), 16) & mask == mask for name in ("SigBlk", "SigCgt"))


def test_a_signal_at_any_point_of_start_up_drains_and_exits_0(tmp_path):
    """SIGINT or SIGTERM at any moment once the process runs its own code (it blocks them
    first thing) is held until the handlers are in place, then drains: exit 0 with the drain
    logged, never the default action, never ignored. The moments count from that first
    thing, not from exec: under load the dynamic loader alone can take more than 100 ms."""
    import subprocess

    import support

    env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    delays = [0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6, 0.8, 1.1, 1.4]
    for index, delay in enumerate(delays):
        sig = signal.SIGINT if index % 2 == 0 else signal.SIGTERM
        log_path = tmp_path / f"start-{index}.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [str(support.binary("rxlive")), "--host", "127.0.0.1", "--port", str(support.free_port()),
                 "--public", str(tmp_path), "--login-service", "simulated"],
                stdout=log, stderr=subprocess.STDOUT, env=env)
            deadline = time.monotonic() + 15
            while not signals_held_or_handled(proc.pid) and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(delay)
            proc.send_signal(sig)
            try:
                code = proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                raise AssertionError(f"{sig.name} {delay} s after start was ignored: {log_path.read_text()}")
        assert code == 0, f"{sig.name} {delay} s after start: exit {code}\n{log_path.read_text()}"
        assert "stopped" in log_path.read_text(), log_path.read_text()


def test_the_drain_is_logged_once_per_loop_with_the_loop_named():
    with start_rxlive(extra_args=["--loops", "3"]) as server:
        assert server.stop(signal.SIGTERM) == 0
    log = server.log_path.read_text().splitlines()
    for word in ("draining", "drained"):
        lines = [line for line in log if line.endswith(f" {word}")]
        loops = sorted(re.search(r"\bloop=(\d+)\b", line).group(1) for line in lines
                       if re.search(r"\bloop=(\d+)\b", line))
        assert loops == ["0", "1", "2"], f"{word}: {lines}"
