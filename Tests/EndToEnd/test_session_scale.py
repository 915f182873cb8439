"""15,000 sum sessions on one server (issue 38): one `rxlive` and a `ws-bench hold` client in
a process of its own open them all (each upgraded, `ready` received, its Rx graph built), the
server's resident memory per session stays within the target, and after the client closes
them all the Rx resource count is back where it started and the memory went back near its
start. The figures are those of scripts/bench-million.py, on one process."""
import re
import subprocess
import threading
import time
import urllib.request

import pytest

from support import BIN_DIR, binary, start_rxlive

SESSIONS = 15_000
# Bytes of resident memory per idle sum session: the server's RSS with every session open,
# less its RSS before the first, over the sessions (docs/BENCHMARKS.md, "One million sessions").
# A release build holds about 1,000 (998 to 1,002 seen; the target is 1,000;
# scripts/heap-in-use.sh counts the same bytes without RSS's noise). The tests run on the debug
# build, whose sessions hold about 140 more (1,137 to 1,141 seen): its Rx keeps a
# synchronization tracker per sink (DEBUG code), and an output's closure has a context of its
# own (no specialisation). `RXLIVE_BIN_DIR=.build/release` checks the release figure.
BYTES_PER_SESSION_LIMIT = 1_030 if BIN_DIR.name == "release" else 1_175


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def metric(port, name):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        for line in reply.read().decode().splitlines():
            if line.startswith(name + " "):
                return int(float(line.split()[1]))
    raise AssertionError(f"/metrics has no {name}")


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds} s: {what}")


class HoldClient:
    """`ws-bench hold` in its own process; its lines are collected as they come."""

    def __init__(self, port, control):
        self.control = control
        self.lines = []
        self.proc = subprocess.Popen(
            [str(binary("ws-bench")), "hold", "--port", str(port), "--sessions", str(SESSIONS),
             "--control", str(control), "--timeout", "240"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.strip())

    def line(self, prefix):
        return next((line for line in self.lines if line.startswith(prefix)), None)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


@pytest.mark.slow  # opening and closing 15,000 sessions on a debug build: 10 to 20 s
def test_fifteen_thousand_sum_sessions_stay_within_the_memory_target_and_leave_nothing(tmp_path):
    with start_rxlive(extra_args=["--loops", "1", "--login-service", "simulated", "--dashboard", "off"]) as server:
        pid = server.proc.pid
        time.sleep(1)  # the start's own allocations settle
        rss_start = rss_kib(pid)
        resources_start = metric(server.port, "rxlive_rx_resources")
        control = tmp_path / "control"
        control.mkdir()
        client = HoldClient(server.port, control)
        try:
            wait_for(lambda: client.line("hold: ready") or client.proc.poll() is not None, 180,
                     "ws-bench opened every session")
            ready = client.line("hold: ready")
            assert ready, "\n".join(client.lines)
            opened, failed = map(int, re.search(r"ready (\d+) failed (\d+)", ready).groups())
            assert (opened, failed) == (SESSIONS, 0), ready
            assert metric(server.port, "rxlive_sessions_open") == SESSIONS
            time.sleep(2)  # the last `ready` messages' output chunks go back to the pool
            bytes_per_session = (rss_kib(pid) - rss_start) * 1024 / SESSIONS
            print(f"{SESSIONS} sessions: {bytes_per_session:.0f} bytes of RSS per idle sum session")
            assert bytes_per_session <= BYTES_PER_SESSION_LIMIT, \
                f"{bytes_per_session:.0f} bytes of RSS per idle sum session (limit {BYTES_PER_SESSION_LIMIT})"

            (control / "close").touch()
            wait_for(lambda: client.proc.poll() is not None, 120, "ws-bench closed every session")
            assert client.line("hold: closed"), "\n".join(client.lines)
            wait_for(lambda: metric(server.port, "rxlive_sessions_open") == 0, 60, "the server closed every session")
            # Every graph's subscriptions and subjects are gone: Rx counts what it had at the start.
            wait_for(lambda: metric(server.port, "rxlive_rx_resources") == resources_start, 30,
                     f"Rx resources back to {resources_start}")
            # The heap trimmer gives the sessions' memory back to the system after the burst of closes.
            wait_for(lambda: rss_kib(pid) <= rss_start * 1.1, 30,
                     f"RSS back within 10 % of its start ({rss_start} KiB)")
        finally:
            client.stop()
