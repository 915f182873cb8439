"""Processes sharing one port (`--reuse-port on`, SO_REUSEPORT): each takes a share of the
sessions on its own; a process without it cannot take the port; and each says at start how
many sessions its open-file limit allows."""
import os
import re
import subprocess
import time

from raw_websocket import RawWebSocket
from support import binary, free_port, start_rxlive

SHARED = ["--loops", "1", "--reuse-port", "on", "--login-service", "simulated"]


def sockets_of(pid):
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass  # closed while listed
    return count


def wait_for_log(server, pattern, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, server.log_path.read_text())
        if found:
            return found
        assert server.proc.poll() is None, server.log_path.read_text()
        time.sleep(0.05)
    raise AssertionError(f"no {pattern!r} in {server.log_path}")


def settled_sockets(pids, timeout=10.0):
    """Each process's sockets once the count holds for 200 ms: a start-up health check's
    connection, closing meanwhile, would otherwise count as a session lost."""
    deadline = time.monotonic() + timeout
    counts = {pid: sockets_of(pid) for pid in pids}
    while time.monotonic() < deadline:
        time.sleep(0.2)
        again = {pid: sockets_of(pid) for pid in pids}
        if again == counts:
            return counts
        counts = again
    raise AssertionError(f"the servers' sockets kept changing: {counts}")


def test_two_processes_on_one_port_each_serve_a_share_of_the_sessions():
    port = free_port()
    with start_rxlive(port=port, extra_args=SHARED) as first, start_rxlive(port=port, extra_args=SHARED) as second:
        # The second's health check may have reached the first: wait for its own listener.
        wait_for_log(second, r"listening on")
        before = settled_sockets([first.proc.pid, second.proc.pid])
        sessions = [RawWebSocket(port, "/ws/sum") for _ in range(40)]
        for i, ws in enumerate(sessions):
            assert "ready" in ws.receive_json()
            for name in ("number1", "number2", "number3"):
                ws.send_json({"input": name, "value": str(i)})
            assert ws.receive_json() == {"output": "sum", "value": 3 * i}
        gained = {pid: sockets_of(pid) - count for pid, count in before.items()}
        # The kernel hashes each connection to one listener: all 40 on one is a 2^-39 chance.
        assert all(count > 0 for count in gained.values()), gained
        assert sum(gained.values()) == 40, gained
        for ws in sessions:
            ws.close()


def test_a_process_without_reuse_port_cannot_take_a_shared_port():
    port = free_port()
    with start_rxlive(port=port, extra_args=SHARED):
        result = subprocess.run([str(binary("rxlive")), "--host", "127.0.0.1", "--port", str(port), "--loops", "1",
                                 "--login-service", "simulated"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}: the port is already in use" in result.stderr


def test_start_says_how_many_sessions_the_open_file_limit_allows():
    with start_rxlive(extra_args=["--loops", "1", "--login-service", "simulated"]) as server:
        found = wait_for_log(server, r"sessions: at most (\d+) at once under this process's limit of (\d+) open files")
        allowed, limit = int(found.group(1)), int(found.group(2))
        limits = open(f"/proc/{server.proc.pid}/limits").read()
        soft, hard = re.search(r"Max open files\s+(\d+)\s+(\d+)", limits).groups()
        # Raised to the hard limit, and that is the limit named.
        assert limit == int(soft) == int(hard)
        # One descriptor a session, less those open at start and a reserve of 64.
        open_now = len(os.listdir(f"/proc/{server.proc.pid}/fd"))
        assert limit - open_now - 64 - 16 <= allowed <= limit - 64, (allowed, limit, open_now)
