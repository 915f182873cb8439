"""End-to-end: `--record` writes each session to its own file over a real WebSocket, and
`replay` plays the files back against a build's declarations: the same build says `same`, a
build with a changed view model (the replay-fixture executable: rxlive's forms with a sum that
adds one) exits 1 naming the first output that differs. The sign-up example's session, with
its service's latency, replays the same too; no password typed ever reaches a recording, an
exported test or a log."""
import json
import os
import stat
import subprocess

import pytest

import support
from raw_websocket import RawWebSocket
from test_example_signup import EXAMPLE_BIN, outputs

EXAMPLE = support.REPO / "Examples" / "SignUp"

PASSWORD = "Tr0ub4dor&3-horse-battery"


def replay(binary_dir, name, *args):
    return subprocess.run([str(binary_dir / name), "replay", *args], capture_output=True, text=True, timeout=60)


def recordings(folder):
    return sorted(folder.glob("*.rxlive.jsonl"))


def header(path):
    return json.loads(path.read_text().splitlines()[0])


def add_user(database, name, password):
    env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    result = subprocess.run([str(support.binary("rxlive")), "user", "add", "--database", database, name], input=password,
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr


@pytest.fixture
def recorded(tmp_path):
    """rxlive recording into a fresh folder, with an account store holding ada."""
    database = f"sqlite:{tmp_path}/accounts.sqlite"
    add_user(database, "ada", PASSWORD)
    folder = tmp_path / "recordings"
    server = support.start_rxlive(extra_args=["--record", str(folder), "--database", database])
    yield server, folder
    server.stop()


def sum_session(port):
    ws = RawWebSocket(port, "/ws/sum")
    assert ws.receive_json()["ready"]["viewModel"] == "sum"
    for name, value in (("number1", "1"), ("number2", "2"), ("number3", "3")):
        ws.send_json({"input": name, "value": value})
    assert ws.receive_json() == {"output": "sum", "value": 6}
    ws.send_json({"input": "number1", "value": "10"})
    assert ws.receive_json() == {"output": "sum", "value": 15}
    ws.close()


def login_session(port):
    ws = RawWebSocket(port, "/ws/login")
    assert ws.receive_json()["ready"]["viewModel"] == "login"
    ws.send_json({"input": "username", "value": "ada"})
    ws.send_json({"input": "password", "value": PASSWORD})
    assert ws.receive_json() == {"output": "isLoginButtonEnabled", "value": True}
    ws.send_json({"input": "loginTapped"})
    assert "signIn" in ws.receive_json()
    assert ws.receive_json() == {"output": "loginResult", "value": True}
    ws.close()


def record(recorded, *sessions):
    """Runs each session against the recording server, stops it, and returns the recordings."""
    server, folder = recorded
    for session in sessions:
        session(server.port)
    assert server.stop() == 0
    return recordings(folder)


def test_each_session_is_recorded_to_its_own_file_that_only_its_owner_reads(recorded):
    files = record(recorded, sum_session, sum_session)
    assert [header(path)["viewModel"] for path in files] == ["sum", "sum"]
    assert len({header(path)["session"] for path in files}) == 2
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(recorded[1].stat().st_mode) == 0o700


def test_a_recorded_sum_and_login_replay_the_same_and_a_changed_sum_differs(recorded):
    files = record(recorded, sum_session, login_session)
    assert sorted(header(path)["viewModel"] for path in files) == ["login", "sum"]
    same = replay(support.BIN_DIR, "rxlive", *map(str, files))
    assert same.returncode == 0, same.stdout + same.stderr
    assert same.stdout.splitlines() == [f"{path}: same" for path in files]
    # A build whose sum adds one: the login is still the same, the sum's first output differs.
    changed = replay(support.BIN_DIR, "replay-fixture", *map(str, files))
    assert changed.returncode == 1, changed.stdout + changed.stderr
    lines = dict(line.split(": ", 1) for line in changed.stdout.splitlines())
    by_model = {header(path)["viewModel"]: str(path) for path in files}
    assert lines[by_model["login"]] == "same"
    assert lines[by_model["sum"]].startswith('differs: output "sum" at 0.'), lines
    assert lines[by_model["sum"]].endswith(": recorded 6, now 7"), lines


def test_no_password_typed_reaches_a_recording_an_export_or_a_log(recorded):
    files = record(recorded, login_session)
    server = recorded[0]
    assert len(files) == 1
    recording = files[0].read_text()
    assert '"input":"password","secret":%d}' % len(PASSWORD) in recording
    assert '"answer":"login","n":0,"value":true}' in recording
    export = replay(support.BIN_DIR, "rxlive", "--rxtest", str(files[0]))
    assert export.returncode == 0, export.stderr
    assert "final class RecordedLoginSession" in export.stdout
    assert '"*' + "*" * (len(PASSWORD) - 1) + '"' in export.stdout
    for text in (recording, export.stdout, export.stderr, server.log_path.read_text(errors="replace")):
        assert PASSWORD not in text


def test_a_recording_that_is_not_one_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.rxlive.jsonl"
    bad.write_text('{"hello":1}\n')
    result = replay(support.BIN_DIR, "rxlive", str(bad))
    assert result.returncode == 2
    assert "not an RxLive recording" in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow  # the example's build
def test_a_sign_up_session_with_its_services_latency_replays_the_same(tmp_path):
    if not (EXAMPLE_BIN / "signup-server").exists():
        pytest.fail(f"{EXAMPLE_BIN}/signup-server is missing: scripts/test builds it")
    folder = tmp_path / "recordings"
    port = support.free_port()
    old = support.BIN_DIR
    support.BIN_DIR = EXAMPLE_BIN
    try:
        server = support.ServerProcess("signup-server", [
            "--host", "127.0.0.1", "--port", str(port), "--public", str(EXAMPLE / "Public"), "--record", str(folder)], port)
    finally:
        support.BIN_DIR = old
    try:
        ws = RawWebSocket(port, "/ws/signup")
        assert ws.receive_json()["ready"]["viewModel"] == "signup"
        for name in ("username", "password", "repeatedPassword"):
            ws.send_json({"input": name, "value": ""})
        outputs(ws, 5)
        ws.send_json({"input": "username", "value": "grace"})
        # Validating, the indicator on, then after the service's 300 ms the answer and the indicator off.
        got = outputs(ws, 4)
        assert ("validatedUsername", {"ok": {"message": "Username available"}}) in got
        ws.send_json({"input": "password", "value": PASSWORD})
        ws.send_json({"input": "repeatedPassword", "value": PASSWORD})
        got = dict(outputs(ws, 4))
        assert got["signUpEnabled"] is True
        ws.close()
    finally:
        assert server.stop() == 0
    files = recordings(folder)
    assert len(files) == 1 and header(files[0])["viewModel"] == "signup"
    same = replay(EXAMPLE_BIN, "signup-server", str(files[0]))
    assert (same.returncode, same.stdout) == (0, f"{files[0]}: same\n"), same.stdout + same.stderr
    text = files[0].read_text()
    assert '"output":"validatedUsername","value":{"ok":{"message":"Username available"}}}' in text
    assert '"input":"repeatedPassword","secret":%d}' % len(PASSWORD) in text
    assert PASSWORD not in text
    assert PASSWORD not in server.log_path.read_text(errors="replace")
