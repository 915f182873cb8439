"""End-to-end teardown: 1,000 sessions closed in every way, then the server's own
counters (GET /metrics) must be back where they started: no open session, no live
Rx resource (so no pending login timer) left behind. Then SIGTERM drains. And 10,000
sessions opened and closed by ws-bench leave no Rx resource behind and give their
memory back: resident memory returns within 5 % of where it started.

The client here is a small raw WebSocket client on Python sockets, so it can also
misbehave: reset the TCP connection, break the protocol, never answer pings.
"""
import base64
import json
import os
import resource
import signal
import socket
import struct
import subprocess
import time

import pytest

import support

SESSIONS = 1000
BATCH = 100
LOGIN_DELAY = 5.0  # long enough that "mid-login" closes really happen mid-login


class RawWebSocket:
    """A minimal RFC 6455 client over a blocking socket."""

    def __init__(self, port, path, timeout=5.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise ConnectionError(f"no upgrade: {status!r}")

    def send_frame(self, opcode, payload=b"", masked=True, fin=True):
        first = (0x80 if fin else 0) | opcode
        length = len(payload)
        mask_bit = 0x80 if masked else 0
        if length < 126:
            header = struct.pack("!BB", first, mask_bit | length)
        elif length < 65536:
            header = struct.pack("!BBH", first, mask_bit | 126, length)
        else:
            header = struct.pack("!BBQ", first, mask_bit | 127, length)
        if masked:
            mask = os.urandom(4)
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            header += mask
        self.sock.sendall(header + payload)

    def send_text(self, text):
        self.send_frame(0x1, text.encode())

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def recv_frame(self):
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read(8))[0]
        assert not second & 0x80, "server frames are never masked"
        return first & 0x0F, self._read(length)

    def recv_text(self):
        """The next text message, answering pings on the way."""
        while True:
            opcode, payload = self.recv_frame()
            if opcode == 0x9:
                self.send_frame(0xA, payload)
            elif opcode == 0x1:
                return payload.decode()
            else:
                raise AssertionError(f"expected text, got opcode {opcode}: {payload!r}")

    def expect_close(self, code=None):
        """Reads until the server's close frame; returns its code (and checks it)."""
        while True:
            opcode, payload = self.recv_frame()
            if opcode == 0x8:
                got = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                if code is not None:
                    assert got == code, f"close code {got}, expected {code}"
                return got

    def expect_eof(self):
        try:
            while self.sock.recv(65536):
                pass
        except (ConnectionResetError, socket.timeout):
            pass

    def reset(self):
        """Closes with a TCP reset instead of a FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def close(self):
        self.sock.close()


def metrics(port):
    status, body = support.http_get(port, "/metrics")
    assert status == 200, status
    values = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = int(float(value))  # gauges are written as 2.0
    return values


def wait_for_baseline(port, start, timeout=4.0):
    """Polls /metrics until open sessions and Rx resources are back at `start`."""
    deadline = time.monotonic() + timeout
    while True:
        now = metrics(port)
        if (now["rxlive_sessions_open"] == start["rxlive_sessions_open"]
                and now["rxlive_rx_resources"] == start["rxlive_rx_resources"]):
            return now
        if time.monotonic() > deadline:
            return now
        time.sleep(0.05)


def text(name, value):
    return json.dumps({"input": name, "value": value})


def tap(name):
    return json.dumps({"input": name})


def open_session(port, view_model):
    ws = RawWebSocket(port, f"/ws/{view_model}")
    ready = json.loads(ws.recv_text())
    assert ready["ready"]["viewModel"] == view_model
    return ws


def start_login(ws):
    ws.send_text(text("username", "ann"))
    ws.send_text(text("password", "pw"))
    assert json.loads(ws.recv_text()) == {"output": "isLoginButtonEnabled", "value": True}
    ws.send_text(tap("loginTapped"))


def start_sum(ws):
    for name, value in (("number1", "1"), ("number2", "2"), ("number3", "3")):
        ws.send_text(text(name, value))
    assert json.loads(ws.recv_text()) == {"output": "sum", "value": 6}


# Each way of closing: (view model, what the client does before, how it closes).
def close_by_client_frame(ws):
    ws.send_frame(0x8, struct.pack("!H", 1000) + b"bye")
    assert ws.expect_close() == 1000
    ws.expect_eof()


def close_by_reset(ws):
    ws.reset()


def close_by_protocol_error(ws):
    ws.send_frame(0x1, b'{"input":"number1","value":"1"}', masked=False)  # clients must mask
    ws.expect_close(1002)
    ws.expect_eof()


def close_by_invalid_utf8(ws):
    ws.send_frame(0x1, b'{"input":"\xff"}')
    ws.expect_close(1007)
    ws.expect_eof()


def close_by_binary_message(ws):
    ws.send_frame(0x2, b"\x01\x02")
    ws.expect_close(1003)
    ws.expect_eof()


def close_by_message_too_big(ws):
    ws.send_frame(0x1, b'"' + b"x" * 70_000 + b'"')
    ws.expect_close(1009)
    ws.expect_eof()


def close_by_half_close(ws):
    ws.sock.shutdown(socket.SHUT_WR)
    ws.expect_eof()


def close_by_write_failure(ws):
    # Many messages whose replies the client never reads, then a reset: the server's
    # writes of those replies fail on a dead socket.
    for i in range(50):
        ws.send_text(text("number1", str(i)))
    ws.reset()


WAYS = [
    ("sum", None, close_by_client_frame),
    ("sum", start_sum, close_by_reset),
    ("sum", start_sum, close_by_protocol_error),
    ("login", start_login, close_by_client_frame),   # mid-login
    ("login", start_login, close_by_reset),          # mid-login
    ("login", start_login, close_by_protocol_error),  # mid-login
    ("sum", start_sum, close_by_invalid_utf8),
    ("login", None, close_by_binary_message),
    ("sum", None, close_by_message_too_big),
    ("login", start_login, close_by_half_close),     # mid-login
    ("sum", start_sum, close_by_write_failure),
]


def test_thousand_sessions_closed_every_way_leave_nothing_behind():
    with support.start_rxlive(extra_args=["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY)]) as server:
        start = metrics(server.port)
        opened = {"sum": 0, "login": 0}
        begun = time.monotonic()
        for first in range(0, SESSIONS, BATCH):
            sockets = []
            for index in range(first, min(first + BATCH, SESSIONS)):
                view_model, prepare, _ = WAYS[index % len(WAYS)]
                ws = open_session(server.port, view_model)
                opened[view_model] += 1
                if prepare:
                    prepare(ws)
                sockets.append((index, ws))
            during = metrics(server.port)
            assert during["rxlive_sessions_open"] == start["rxlive_sessions_open"] + len(sockets)
            for index, ws in sockets:
                WAYS[index % len(WAYS)][2](ws)
                ws.close()
        assert time.monotonic() - begun < LOGIN_DELAY * 20
        closed_at = time.monotonic()
        end = wait_for_baseline(server.port, start)
        # Checked well before the login delay runs out: pending logins were cancelled,
        # not merely finished.
        assert time.monotonic() - closed_at < LOGIN_DELAY
        assert end["rxlive_sessions_open"] == start["rxlive_sessions_open"]
        assert end["rxlive_rx_resources"] == start["rxlive_rx_resources"], (start, end)
        for view_model, count in opened.items():
            key = f'rxlive_sessions_total{{view_model="{view_model}"}}'
            assert end[key] == start[key] + count
        assert server.stop() == 0


def test_heartbeat_timeout_closes_silent_sessions():
    args = ["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY), "--ping-interval", "0.2", "--pong-timeout", "0.3"]
    with support.start_rxlive(extra_args=args) as server:
        start = metrics(server.port)
        sockets = []
        for index in range(50):
            ws = open_session(server.port, "login" if index % 2 else "sum")
            (start_login if index % 2 else start_sum)(ws)
            sockets.append(ws)
        # Never answer a ping: the server must give up on every session by itself.
        deadline = time.monotonic() + 5
        while metrics(server.port)["rxlive_sessions_open"] > start["rxlive_sessions_open"] and time.monotonic() < deadline:
            time.sleep(0.05)
        end = wait_for_baseline(server.port, start)
        assert end["rxlive_sessions_open"] == start["rxlive_sessions_open"]
        assert end["rxlive_rx_resources"] == start["rxlive_rx_resources"], (start, end)
        for ws in sockets:
            ws.close()
        assert server.stop() == 0


def test_sigterm_drains_sessions_with_1001_and_exits_zero():
    server = support.start_rxlive(extra_args=["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY)])
    try:
        sockets = []
        for index in range(40):
            ws = open_session(server.port, "login" if index % 2 else "sum")
            (start_login if index % 2 else start_sum)(ws)
            sockets.append(ws)
        server.proc.send_signal(signal.SIGTERM)
        for ws in sockets:
            ws.expect_close(1001)
            ws.close()
        assert server.proc.wait(10) == 0
    finally:
        server.stop()


TEN_THOUSAND = 10_000


def resident_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(float(line.split()[1]))
    raise AssertionError("no VmRSS")


def open_and_close_idle_sessions(port, count):
    """ws-bench holds `count` sum sessions open until each got `ready`, then closes them all
    with close handshakes; returns its report."""
    done = subprocess.run([str(support.binary("ws-bench")), "idle", "--port", str(port), "--sessions", str(count),
                           "--hold", "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{count}/{count} sessions open" in done.stdout, done.stdout
    return done.stdout


@pytest.mark.slow  # 10,000 sessions
def test_ten_thousand_sessions_opened_and_closed_give_back_rx_resources_and_memory():
    # Each session is a socket on both sides: raise the soft descriptor limit for both
    # processes (they inherit it) as far as the hard limit allows.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < TEN_THOUSAND + 200:
        pytest.skip(f"the descriptor limit ({hard}) is below {TEN_THOUSAND} sessions")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        with support.start_rxlive(extra_args=["--loops", "1"]) as server:
            pid = server.proc.pid
            # The first sessions build what lives as long as the process (type metadata,
            # the loop's pools); the start is measured after them.
            open_and_close_idle_sessions(server.port, 200)
            start = wait_for_baseline(server.port, metrics(server.port), timeout=10.0)
            time.sleep(1.5)  # the loop trims its heap a second after a burst of closes
            rss_start = resident_kib(pid)

            report = open_and_close_idle_sessions(server.port, TEN_THOUSAND)
            assert resident_kib(pid) > rss_start, "the sessions were held in this process"
            end = wait_for_baseline(server.port, start, timeout=20.0)
            assert end["rxlive_sessions_open"] == start["rxlive_sessions_open"]
            assert end["rxlive_rx_resources"] == start["rxlive_rx_resources"], (start, end)
            key = 'rxlive_sessions_total{view_model="sum"}'
            assert end[key] == start[key] + TEN_THOUSAND

            # After a settle, resident memory is back within 5 % of where it started.
            limit = rss_start * 1.05
            deadline = time.monotonic() + 10.0
            rss = resident_kib(pid)
            while rss > limit and time.monotonic() < deadline:
                time.sleep(0.25)
                rss = resident_kib(pid)
            assert rss <= limit, f"RSS {rss} KiB after the sessions closed, {rss_start} KiB before ({report})"
            assert server.stop() == 0
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
