"""End-to-end: the dashboard view model (/ws/dashboard) of the real rxlive binary, driven by
websocat: who may open it, its stats output, and the marbles of a watched session."""
import base64
import json
import os
import re
import socket
import struct

import pytest

import support
from raw_websocket import RawWebSocket
from test_sessions import READY_LOGIN, READY_SUM, Websocat, text, tap

TOKEN = "e2e-dashboard-token-0123"
READY_DASHBOARD = ('{"ready":{"viewModel":"dashboard","session":"SESSION",'
                   '"inputs":{"watchSession":"text","record":"text","exportTest":"text","downloadRecording":"text"},'
                   '"outputs":["stats","watch","recording","download"]}}')


@pytest.fixture(scope="module")
def server():
    with support.start_rxlive(extra_args=["--login-service", "simulated", "--login-delay", "0.2", "--admin-token", TOKEN]) as process:
        yield process


def dashboard(port, token=TOKEN):
    return Websocat(port, f"/ws/dashboard?token={token}")


def first_frame(port, path):
    """Upgrades `path` over a raw socket; returns (status line, opcode, payload) of the first frame."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        status = head.split(b"\r\n")[0].decode()
        if not status.startswith("HTTP/1.1 101"):
            return status, None, b""
        while len(rest) < 2:
            rest += sock.recv(4096)
        opcode, length, start = rest[0] & 0x0F, rest[1] & 0x7F, 2
        if length == 126:  # a 16-bit length follows (the ready message is over 125 bytes)
            while len(rest) < 4:
                rest += sock.recv(4096)
            length, start = struct.unpack("!H", rest[2:4])[0], 4
        while len(rest) < start + length:
            rest += sock.recv(4096)
        return status, opcode, rest[start:start + length]


def next_output(client, name, timeout=5.0):
    """The value of the next `name` output, skipping the other outputs."""
    for _ in range(50):
        message = json.loads(client.receive(1, timeout)[0])
        if message.get("output") == name:
            return message["value"]
    raise AssertionError(f"no {name} output")


def test_the_dashboard_needs_the_admin_token(server):
    for path in ("/ws/dashboard", "/ws/dashboard?token=", "/ws/dashboard?token=e2e-dashboard-token-0124",
                 f"/ws/dashboard?token={TOKEN}x", f"/ws/dashboard?other={TOKEN}"):
        # Closed with 1008 right after the upgrade, before any message: no ready, no data.
        status, opcode, payload = first_frame(server.port, path)
        assert status.startswith("HTTP/1.1 101") and opcode == 0x8, (path, status, opcode)
        assert struct.unpack("!H", payload[:2])[0] == 1008, payload
        assert b"admin token" in payload[2:]
    status, opcode, payload = first_frame(server.port, f"/ws/dashboard?token={TOKEN}")
    assert opcode == 0x1 and payload.startswith(b'{"ready":{"viewModel":"dashboard"'), payload
    # The other view models stay open to everyone.
    assert first_frame(server.port, "/ws/sum")[1] == 0x1


def test_without_a_dashboard_the_endpoint_does_not_exist():
    with support.start_rxlive(extra_args=["--dashboard", "off", "--admin-token", TOKEN]) as process:
        status, _, _ = first_frame(process.port, f"/ws/dashboard?token={TOKEN}")
        assert status.startswith("HTTP/1.1 404"), status
        assert "dashboard: off" in process.log_path.read_text()
        # Nor is its page served, which could only say "disconnected".
        for path in ("/dashboard", "/dashboard/", "/dashboard/index.html", "/dashboard/dashboard.js"):
            assert support.http_get(process.port, path)[0] == 404, path
        assert support.http_get(process.port, "/index.html")[0] == 200
    # On a loopback address `auto` serves it, with a token made at start and logged once.
    with support.start_rxlive() as process:
        log = process.log_path.read_text()
        token = re.search(r"/dashboard#token=([0-9a-f]{32})", log).group(1)
        client = dashboard(process.port, token)
        try:
            client.ready(READY_DASHBOARD)
        finally:
            client.close()


def test_stats_count_sessions_per_view_model_and_messages(server):
    board = dashboard(server.port)
    sums = [Websocat(server.port, "/ws/sum") for _ in range(2)]
    try:
        board.ready(READY_DASHBOARD)
        board.send(text("watchSession", ""))
        ids = [client.ready(READY_SUM) for client in sums]
        for client in sums:
            client.send(text("number1", "1"), text("number2", "2"), text("number3", "3"))
            client.receive(1)
        # Snapshots come once a second; within a few the two sum sessions are counted.
        for _ in range(5):
            stats = next_output(board, "stats")
            if stats["sessions"]["sum"] == 2 and stats["messagesIn"] > 0:
                break
        assert stats["sessions"] == {"login": 0, "welcome": 0, "sum": 2, "dashboard": 1}, stats
        assert stats["messagesIn"] > 0 and stats["messagesOut"] > 0, stats
        assert isinstance(stats["p50"], int) and stats["p99"] >= stats["p50"] > 0, stats
        assert stats["rxResources"] > 0
        loops = stats["loops"]
        assert [loop["loop"] for loop in loops] == list(range(len(loops))) and sum(loop["sessions"] for loop in loops) == 3, stats
        recent = {session["id"]: session["viewModel"] for session in stats["recent"]}
        assert all(recent.get(session_id) == "sum" for session_id in ids), stats
    finally:
        for client in [board, *sums]:
            client.close()


def test_a_watched_session_shows_its_inputs_and_outputs_as_marbles_in_order(server):
    board = dashboard(server.port)
    login = Websocat(server.port, "/ws/login")
    try:
        board.ready(READY_DASHBOARD)
        session = login.ready(READY_LOGIN)
        board.send(text("watchSession", "0123456789abcdef"))
        assert next_output(board, "watch") == {"notFound": {"session": "0123456789abcdef"}}

        board.send(text("watchSession", session))
        assert next_output(board, "watch") == {"watching": {"session": session, "viewModel": "login", "lanes": [
            {"name": "username", "role": "input", "shape": "value"},
            {"name": "password", "role": "input", "shape": "secret"},
            {"name": "loginTapped", "role": "input", "shape": "tap"},
            {"name": "isLoginButtonEnabled", "role": "output", "shape": "value"},
            {"name": "loginResult", "role": "output", "shape": "value"},
        ]}}
        login.send(text("username", "ada"), text("password", "secret"), tap("loginTapped"))
        login.receive(2)  # the button once both fields are set, then the answer after the login delay
        login.close()

        marbles = []
        while len(marbles) < 10:
            event = next_output(board, "watch")
            assert "marble" in event, event
            marbles.append(event["marble"])
        shown = [(m["lane"], m["kind"], m.get("label"), m.get("length")) for m in marbles]
        assert shown == [
            ("username", "next", "ada", None),
            ("password", "next", None, 6),  # a password: its length, never its value
            ("isLoginButtonEnabled", "next", "true", None),
            ("loginTapped", "next", None, None),
            ("loginResult", "next", "true", None),
            # The connection closed: every lane completes.
            ("username", "completed", None, None), ("password", "completed", None, None),
            ("loginTapped", "completed", None, None), ("isLoginButtonEnabled", "completed", None, None),
            ("loginResult", "completed", None, None),
        ], shown
        times = [m["t"] for m in marbles]
        assert times == sorted(times)
        assert next_output(board, "watch") == {"ended": {"session": session}}
        board.send(text("watchSession", ""))
        assert next_output(board, "watch") == {"stopped": {}}
    finally:
        login.close()
        board.close()


# ---- recording on demand and "Export as test" ----------------------------------------------

def sum_session_with(port, values):
    """A sum session over a raw WebSocket that types `values` into number1..3; returns it open and its id."""
    ws = RawWebSocket(port, "/ws/sum")
    session = ws.receive_json()["ready"]["session"]
    for index, value in enumerate(values):
        ws.send_json({"input": f"number{index + 1}", "value": value})
    return ws, session


def raw_output(client, name):
    for _ in range(50):
        message = client.receive_json()
        if message.get("output") == name:
            return message["value"]
    raise AssertionError(f"no {name} output")


def test_record_records_new_sessions_of_one_view_model_from_their_open_and_exports_each_as_a_test(server):
    board = RawWebSocket(server.port, f"/ws/dashboard?token={TOKEN}")
    assert board.receive_json()["ready"]["viewModel"] == "dashboard"
    assert raw_output(board, "recording") == {"viewModel": None}
    before, before_id = sum_session_with(server.port, ["4"])
    board.send_json({"input": "record", "value": "sum"})
    assert raw_output(board, "recording") == {"viewModel": "sum"}
    live, live_id = sum_session_with(server.port, ["1", "2", "3"])
    assert live.receive_json() == {"output": "sum", "value": 6}
    try:
        # The live session's file so far: the header, its inputs and its output.
        board.send_json({"input": "downloadRecording", "value": live_id})
        got = raw_output(board, "download")
        assert got["kind"] == "recording" and got["fileName"].endswith(f"-sum-{live_id}.rxlive.jsonl"), got
        lines = [json.loads(line) for line in got["text"].splitlines()]
        assert lines[0]["rxliveRecording"] == 2 and lines[0]["session"] == live_id
        assert [line.get("input") or line.get("output") for line in lines[1:]] == ["number1", "number2", "number3", "sum"]

        board.send_json({"input": "exportTest", "value": live_id})
        got = raw_output(board, "download")
        type_name = f"RecordedSumSession{live_id[0].upper()}{live_id[1:]}Tests"  # the id's first letter capitalised
        assert got["fileName"] == f"{type_name}.swift", got
        assert f"final class {type_name}: XCTestCase" in got["text"]
        assert '"number3": .text(scheduler.createHotObservable([.next(' in got["text"]
        assert re.search(r'XCTAssertEqual\(outputSum.events, \[\.next\(\d+, "6"\)\]\)', got["text"]), got["text"]

        # A session opened before Record was pressed was not recorded: a clear error, no file.
        board.send_json({"input": "exportTest", "value": before_id})
        assert raw_output(board, "download") == {
            "session": before_id, "kind": "test", "error": f"session {before_id} was not recorded: press Record before its session opens"}
        # A view model the server does not record (the dashboard) or does not serve: a clear error, nothing armed.
        for name in ("dashboard", "nosuch"):
            board.send_json({"input": "record", "value": name})
            assert raw_output(board, "recording") == {"viewModel": "sum", "error": f'this server records no view model named "{name}"'}
        board.send_json({"input": "record", "value": ""})
        assert raw_output(board, "recording") == {"viewModel": None}
        after, after_id = sum_session_with(server.port, ["5"])
        board.send_json({"input": "downloadRecording", "value": after_id})
        assert "error" in raw_output(board, "download")
        after.close()
    finally:
        before.close()
        live.close()
        board.close()


def test_what_a_dashboard_recorded_on_demand_is_removed_when_the_server_stops(tmp_path):
    # The on-demand folder is made in the system's temporary folder: here a private one.
    with support.start_rxlive(extra_args=["--admin-token", TOKEN], env={"TMPDIR": str(tmp_path)}) as process:
        board = RawWebSocket(process.port, f"/ws/dashboard?token={TOKEN}")
        assert board.receive_json()["ready"]["viewModel"] == "dashboard"
        assert raw_output(board, "recording") == {"viewModel": None}
        board.send_json({"input": "record", "value": "sum"})
        assert raw_output(board, "recording") == {"viewModel": "sum"}
        live, _ = sum_session_with(process.port, ["1", "2", "3"])
        assert live.receive_json() == {"output": "sum", "value": 6}
        live.close()
        board.close()
        folders = list(tmp_path.glob(f"rxlive-dashboard-{process.proc.pid}-*"))
        assert len(folders) == 1 and list(folders[0].glob("*-sum-*.rxlive.jsonl")), list(tmp_path.iterdir())
        assert process.stop() == 0
    assert list(tmp_path.glob("rxlive-dashboard-*")) == []
