"""End-to-end: the real rxlive binary driven by websocat, one session per view model.

Every line the server sends is compared with the line PROTOCOL.md says it must send.
"""
import json
import os
import queue
import re
import subprocess
import threading
import time

import pytest

import support

LOGIN_DELAY = 0.3
READY_LOGIN = ('{"ready":{"viewModel":"login","session":"SESSION",'
               '"inputs":{"username":"text","password":"text","loginTapped":"tap"},'
               '"outputs":["isLoginButtonEnabled","loginResult"]}}')
READY_SUM = ('{"ready":{"viewModel":"sum","session":"SESSION",'
             '"inputs":{"number1":"text","number2":"text","number3":"text"},"outputs":["sum"]}}')


def websocat_path():
    override = os.environ.get("RXLIVE_WEBSOCAT")
    return override or str(support.tool("websocat"))


class Websocat:
    """One websocat client: each `send` is one text message, each received message one line."""

    def __init__(self, port, path):
        self.proc = subprocess.Popen(
            [websocat_path(), "-t", f"ws://127.0.0.1:{port}{path}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8").rstrip("\n"))
        self.lines.put(None)

    def send(self, *messages):
        for message in messages:
            self.proc.stdin.write(message.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def receive(self, count, timeout=3.0):
        """Exactly `count` lines, each within `timeout`."""
        got = []
        for _ in range(count):
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"timed out after {got}") from None
            if line is None:
                raise AssertionError(f"connection ended after {got}")
            got.append(line)
        return got

    def assert_silent(self, seconds):
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected message {line!r}")

    def ready(self, template):
        line = self.receive(1)[0]
        match = re.fullmatch(re.escape(template).replace("SESSION", '([^"\\\\]+)'), line)
        assert match, f"{line!r} does not match {template!r}"
        return match.group(1)

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(3)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        # The process is gone, so its stdout ends: let the reader finish before the pipe is
        # closed (closing under it fails the thread, and a reused descriptor could feed it
        # another client's bytes).
        self.reader.join(5)
        self.proc.stdout.close()
        self.proc.stderr.close()


def text(name, value):
    return json.dumps({"input": name, "value": value}, separators=(",", ":"))


def tap(name):
    return json.dumps({"input": name}, separators=(",", ":"))


def out(name, value):
    return json.dumps({"output": name, "value": value}, separators=(",", ":"))


def error_code(line):
    message = json.loads(line)
    assert set(message) == {"error"} and set(message["error"]) == {"code", "message"}, line
    assert isinstance(message["error"]["message"], str) and message["error"]["message"], line
    return message["error"]["code"]


def metrics(port):
    status, body = support.http_get(port, "/metrics")
    assert status == 200
    values = {}
    for line in body.decode().splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            values[name] = int(float(value))  # gauges are written as 2.0
    return values


@pytest.fixture(scope="module")
def server():
    with support.start_rxlive(extra_args=["--login-service", "simulated", "--login-delay", str(LOGIN_DELAY)]) as process:
        yield process


@pytest.fixture
def client(server):
    opened = []

    def connect(path):
        ws = Websocat(server.port, path)
        opened.append(ws)
        return ws

    yield connect
    for ws in opened:
        ws.close()


def test_sum_session(client):
    ws = client("/ws/sum")
    ws.ready(READY_SUM)
    # As a page does: the current value of every field right after connecting.
    ws.send(text("number1", ""), text("number2", ""), text("number3", ""))
    assert ws.receive(1) == [out("sum", 0)]
    ws.send(text("number1", "1"), text("number2", "2"), text("number3", "3"))
    assert ws.receive(3) == [out("sum", 1), out("sum", 3), out("sum", 6)]
    # Not integers count as 0; Int() takes one leading sign and nothing else.
    ws.send(text("number1", "abc"), text("number2", "-20"), text("number3", " 3"), text("number3", "+3"), text("number1", "4.5"))
    assert ws.receive(5) == [out("sum", 5), out("sum", -17), out("sum", -20), out("sum", -17), out("sum", -17)]
    # Huge values: exact, never an overflow; beyond Int they count as 0.
    big = str(2**63 - 1)
    ws.send(text("number1", big), text("number2", big), text("number3", big), text("number3", "9" * 40))
    assert ws.receive(4) == [out("sum", 2**63 - 1 - 20 + 3), out("sum", 2 * (2**63 - 1) + 3), out("sum", 3 * (2**63 - 1)), out("sum", 2 * (2**63 - 1))]
    ws.assert_silent(0.2)


def test_sum_session_refusals_leave_it_unchanged(client):
    ws = client("/ws/sum")
    ws.ready(READY_SUM)
    ws.send(text("number1", "1"), text("number2", "2"), text("number3", "3"))
    assert ws.receive(1) == [out("sum", 6)]
    refused = [
        ("hello", "bad_json"),
        ("[1,2,3]", "bad_json"),
        ('{"input":"number1","value":"1"} trailing', "bad_json"),
        ('{"input":"number1","value":"1","extra":true}', "bad_json"),
        ('{"input":"number1","input":"number1","value":"1"}', "bad_json"),
        ('{"input":"number1","value":"\\ud800"}', "bad_json"),
        ('{"input":"number1","value":' + "[" * 5000 + "]" * 5000 + "}", "bad_json"),
        (text("number9", "1"), "unknown_input"),
        (tap("loginTapped"), "unknown_input"),
        (tap("number1"), "bad_value"),
        ('{"input":"number1","value":12}', "bad_value"),
        ('{"input":"number1","value":-1e999}', "bad_value"),
        ('{"input":"number1","value":null}', "bad_value"),
    ]
    for message, code in refused:
        ws.send(message)
        assert [error_code(line) for line in ws.receive(1)] == [code], message
    ws.send(text("number2", "10"))
    assert ws.receive(1) == [out("sum", 14)]
    # A long value (60 KiB) is just a field that is not an integer.
    ws.send(text("number3", "7" * 60_000))
    assert ws.receive(1) == [out("sum", 11)]


def test_login_session(client):
    ws = client("/ws/login")
    ws.ready(READY_LOGIN)
    ws.send(text("username", ""), text("password", ""))
    assert ws.receive(1) == [out("isLoginButtonEnabled", False)]
    ws.send(tap("loginTapped"))
    assert ws.receive(1) == [out("loginResult", False)], "an invalid tap answers false at once"
    ws.send(text("username", "ann"), text("password", "secret"))
    assert ws.receive(2) == [out("isLoginButtonEnabled", False), out("isLoginButtonEnabled", True)]
    started = time.monotonic()
    ws.send(tap("loginTapped"))
    assert ws.receive(1, timeout=LOGIN_DELAY + 2) == [out("loginResult", True)]
    elapsed = time.monotonic() - started
    assert LOGIN_DELAY - 0.05 <= elapsed < LOGIN_DELAY + 1.0, elapsed
    # Refusals answer at once and change nothing.
    ws.send(text("loginTapped", "x"), tap("username"), '{"input":"loginTapped","value":null}', tap("nope"), "{")
    assert [error_code(line) for line in ws.receive(5)] == ["bad_value", "bad_value", "bad_value", "unknown_input", "bad_json"]
    ws.send(text("password", ""))
    assert ws.receive(1) == [out("isLoginButtonEnabled", False)]


def test_second_tap_cancels_the_pending_login(client):
    ws = client("/ws/login")
    ws.ready(READY_LOGIN)
    ws.send(text("username", "ann"), text("password", "pw"))
    assert ws.receive(1) == [out("isLoginButtonEnabled", True)]
    started = time.monotonic()
    ws.send(tap("loginTapped"))
    time.sleep(LOGIN_DELAY / 2)
    ws.send(tap("loginTapped"))
    assert ws.receive(1, timeout=LOGIN_DELAY + 2) == [out("loginResult", True)]
    assert time.monotonic() - started >= LOGIN_DELAY * 1.5 - 0.05, "the first tap's answer was cancelled"
    ws.assert_silent(LOGIN_DELAY + 0.2)


def test_invalid_tap_during_a_pending_login_answers_false_only(client):
    ws = client("/ws/login")
    ws.ready(READY_LOGIN)
    ws.send(text("username", "ann"), text("password", "pw"))
    ws.receive(1)
    ws.send(tap("loginTapped"), text("password", ""), tap("loginTapped"))
    assert ws.receive(2) == [out("isLoginButtonEnabled", False), out("loginResult", False)]
    ws.assert_silent(LOGIN_DELAY + 0.3)


def test_too_many_login_taps_are_rate_limited(client):
    ws = client("/ws/login")
    ws.ready(READY_LOGIN)
    ws.send(text("username", ""), text("password", ""))
    ws.receive(1)
    ws.send(*[tap("loginTapped")] * 12)
    lines = ws.receive(12)
    assert lines[:10] == [out("loginResult", False)] * 10
    assert [error_code(line) for line in lines[10:]] == ["rate_limited"] * 2


def test_message_flood_is_rate_limited_and_the_session_goes_on(client):
    ws = client("/ws/sum")
    ws.ready(READY_SUM)
    ws.send(text("number2", "0"), text("number3", "0"))
    # 1000 at once: the default limit (bursts of 200, then 100/s) refuses most of them
    # unless sending them took over 8 s.
    ws.send(*[text("number1", str(i)) for i in range(1000)])
    lines = ws.receive(1000, timeout=5)
    sums = [line for line in lines if line.startswith('{"output"')]
    limited = [line for line in lines if not line.startswith('{"output"')]
    assert len(sums) >= 150 and limited, (len(sums), len(limited))
    assert all(error_code(line) == "rate_limited" for line in limited)
    time.sleep(1.0)
    ws.send(text("number1", "41"))
    assert ws.receive(1) == [out("sum", 41)]


def test_unknown_view_model_is_404(server):
    status, _ = support.http_get(server.port, "/ws/nope")
    assert status == 404


def test_metrics_count_sessions_and_messages(server, client):
    before = metrics(server.port)
    ws = client("/ws/sum")
    ws.ready(READY_SUM)
    ws.send(text("number1", "1"), "nope")
    ws.receive(1)
    ws.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        after = metrics(server.port)
        if after["rxlive_sessions_open"] == before["rxlive_sessions_open"]:
            break
        time.sleep(0.05)
    assert after['rxlive_sessions_total{view_model="sum"}'] == before['rxlive_sessions_total{view_model="sum"}'] + 1
    assert after["rxlive_sessions_open"] == before["rxlive_sessions_open"]
    assert after["rxlive_messages_received_total"] >= before["rxlive_messages_received_total"] + 2
    assert after["rxlive_messages_sent_total"] >= before["rxlive_messages_sent_total"] + 2
    assert after["rxlive_errors_sent_total"] >= before["rxlive_errors_sent_total"] + 1
    for name in ["rxlive_rx_resources", 'rxlive_sessions_total{view_model="login"}']:
        assert name in after
    status, body = support.http_get(server.port, "/metrics")
    assert b"# TYPE rxlive_sessions_open gauge" in body and b"# TYPE rxlive_rx_resources gauge" in body
