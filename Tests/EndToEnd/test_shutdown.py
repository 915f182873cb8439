"""Shutdown of the real rxlive binary: during --drain-grace /healthz answers 503 while new
sessions are still served, then every session is closed with 1001; --shutdown-timeout bounds
the drain even when a peer never answers the close or never finishes its request. Times are
measured from before the signal, with bounds far from what the machine's load can reach."""
import json
import signal
import socket
import time

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
