"""End-to-end: logins against real accounts. The rxlive binary with its `user` commands,
on a real SQLite file and on a real PostgreSQL server shared by two instances;
websocat as the client. Every answer is compared with PROTOCOL.md's shapes."""
import json
import os
import queue
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import postgres
import support
from raw_websocket import RawWebSocket
from test_sessions import Websocat, tap, text

HERE = Path(__file__).resolve().parent

READY_PREFIX = '{"ready":{"viewModel":"login"'


def rxlive_user(*args, password=None, cwd=support.REPO):
    env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    return subprocess.run([str(support.binary("rxlive")), "user", *args], input=password, capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=60)


def attempt(port, username, password, headers=()):
    """One login session: fills both fields, taps, and returns the answer as JSON."""
    client = Websocat(port, "/ws/login") if not headers else WebsocatWithHeaders(port, headers)
    try:
        assert client.receive(1)[0].startswith(READY_PREFIX)
        client.send(text("username", username), text("password", password), tap("loginTapped"))
        assert json.loads(client.receive(1)[0]) == {"output": "isLoginButtonEnabled", "value": True}
        answer = json.loads(client.receive(1, timeout=30)[0])
        # A right password first hands over its sign-in code (PROTOCOL.md, "Signing in").
        signed_in = "signIn" in answer
        if signed_in:
            assert answer["signIn"]["user"] and len(answer["signIn"]["code"]) >= 22, answer
            answer = json.loads(client.receive(1, timeout=30)[0])
        assert signed_in == (answer == {"output": "loginResult", "value": True}), answer
        return answer
    finally:
        finish(client)


def finish(client):
    """Ends websocat and waits for its reader thread to reach end of file before closing the
    pipe: a thread still reading a closed descriptor would read from whichever pipe reuses
    its number next (the next client's), stealing its first bytes."""
    if client.proc.stdin and not client.proc.stdin.closed:
        client.proc.stdin.close()
    try:
        client.proc.wait(5)
    except subprocess.TimeoutExpired:
        client.proc.kill()
        client.proc.wait()
    while client.lines.get(timeout=10) is not None:
        pass
    client.proc.stdout.close()
    client.proc.stderr.close()


class WebsocatWithHeaders(Websocat):
    """A websocat client that sends extra request headers (`Name: value`)."""

    def __init__(self, port, headers):
        extra = [f"--header={header}" for header in headers]
        self.proc = subprocess.Popen(
            [str(support.tool("websocat")), "-t", *extra, f"ws://127.0.0.1:{port}/ws/login"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()


ACCEPTED = {"output": "loginResult", "value": True}
REJECTED = {"output": "loginResult", "value": False}


def assert_rate_limited(answer):
    assert set(answer) == {"error"}, answer
    assert answer["error"]["code"] == "rate_limited"
    assert isinstance(answer["error"]["retryAfter"], int) and 1 <= answer["error"]["retryAfter"] <= 2, answer
    assert f"try again in {answer['error']['retryAfter']} s" in answer["error"]["message"]


# ---------------------------------------------------------------- SQLite


def test_user_commands_manage_accounts_in_a_private_sqlite_file(tmp_path):
    added = rxlive_user("add", "ada", password="engine\n", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert added.stdout == "added user ada\n"
    database = tmp_path / "data" / "rxlive.sqlite"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600, "the default file is the owner's only"
    assert stat.S_IMODE(database.parent.stat().st_mode) == 0o700
    assert b"engine" not in database.read_bytes(), "only the hash is stored"

    assert rxlive_user("add", "grace", password="cobol\n", cwd=tmp_path).returncode == 0
    taken = rxlive_user("add", "ada", password="other\n", cwd=tmp_path)
    assert (taken.returncode, taken.stderr) == (1, "rxlive: user ada already exists\n")
    assert rxlive_user("list", cwd=tmp_path).stdout == "ada\ngrace\n"
    assert rxlive_user("remove", "ada", cwd=tmp_path).stdout == "removed user ada\n"
    missing = rxlive_user("remove", "ada", cwd=tmp_path)
    assert (missing.returncode, missing.stderr) == (1, "rxlive: no user ada\n")
    assert rxlive_user("list", cwd=tmp_path).stdout == "grace\n"
    empty = rxlive_user("add", "alan", password="", cwd=tmp_path)
    assert empty.returncode == 2 and "no password" in empty.stderr


@pytest.fixture
def sqlite_server(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database]) as server:
        yield server


def test_a_stored_account_logs_in_and_nothing_else_does(sqlite_server):
    assert attempt(sqlite_server.port, "ada", "engine") == ACCEPTED
    assert attempt(sqlite_server.port, "ada", "Engine") == REJECTED
    assert attempt(sqlite_server.port, "nobody", "engine") == REJECTED


def test_failed_attempts_are_throttled_and_a_success_resets_them(sqlite_server):
    for _ in range(3):
        assert attempt(sqlite_server.port, "ada", "wrong") == REJECTED
    # Within two seconds of the third failure even the right password waits.
    throttled = attempt(sqlite_server.port, "ada", "engine")
    assert_rate_limited(throttled)
    # Another user is not affected.
    assert attempt(sqlite_server.port, "grace", "wrong") == REJECTED
    # After the wait the right password logs in, and the count starts again from zero.
    time.sleep(throttled["error"]["retryAfter"])
    assert attempt(sqlite_server.port, "ada", "engine") == ACCEPTED
    for _ in range(3):
        assert attempt(sqlite_server.port, "ada", "wrong") == REJECTED
    assert_rate_limited(attempt(sqlite_server.port, "ada", "wrong"))


def test_a_name_with_a_nul_or_an_invisible_character_never_logs_in(sqlite_server):
    for name, why in [("ada\u0000zzz", "U+0000"), ("ada\u0000' OR 1=1", "U+0000"), ("a\u200bda", "U+200B"),
                      ("\u202eada", "U+202E"), ("x" * 60_000, "at most 64 characters")]:
        answer = attempt(sqlite_server.port, name, "engine")
        assert answer["error"]["code"] == "bad_value", (repr(name[:20]), answer)
        assert why in answer["error"]["message"], answer
    assert attempt(sqlite_server.port, "ada", "engine") == ACCEPTED, "and nothing was counted against ada"


def test_the_store_follows_a_file_replaced_or_deleted_while_serving(tmp_path):
    path = tmp_path / "accounts.sqlite"
    database = f"sqlite:{path}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database]) as server:
        assert attempt(server.port, "ada", "engine") == ACCEPTED
        # A new file built aside replaces the live one (as a restore from backup would).
        replacement = f"sqlite:{tmp_path / 'new.sqlite'}"
        assert rxlive_user("add", "dave", "--database", replacement, password="pw\n").returncode == 0
        os.rename(tmp_path / "new.sqlite", path)
        assert attempt(server.port, "dave", "pw") == ACCEPTED
        assert attempt(server.port, "ada", "engine") == REJECTED, "the unlinked file no longer answers"
        # The live file changed by the command line counts at the next login.
        assert rxlive_user("add", "erin", "--database", database, password="pw2\n").returncode == 0
        assert attempt(server.port, "erin", "pw2") == ACCEPTED
        # A deleted file is not answered from, nor silently recreated.
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{path}{suffix}"):
                os.unlink(f"{path}{suffix}")
        assert attempt(server.port, "dave", "pw")["error"]["code"] == "login_unavailable"
        assert not path.exists()
    log = server.log_path.read_text()
    assert "warning" in log and "was replaced while open" in log, "the replacement is logged"


def test_a_database_file_others_may_read_is_refused(tmp_path):
    path = tmp_path / "accounts.sqlite"
    assert rxlive_user("add", "ada", "--database", f"sqlite:{path}", password="engine\n").returncode == 0
    os.chmod(path, 0o644)
    listed = rxlive_user("list", "--database", f"sqlite:{path}")
    assert listed.returncode != 0 and "chmod 600" in listed.stderr, listed.stderr


def test_x_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    with support.start_rxlive(extra_args=["--database", database, "--trusted-proxy", "127.0.0.1"]) as server:
        # Ten failures (the per-address allowance) for ten names, all from one forwarded client.
        for index in range(10):
            assert attempt(server.port, f"user{index}", "x", headers=["X-Forwarded-For: 203.0.113.5"]) == REJECTED
        assert_rate_limited(attempt(server.port, "user10", "x", headers=["X-Forwarded-For: 203.0.113.5"]))
        # Another forwarded client is counted apart.
        assert attempt(server.port, "user10", "x", headers=["X-Forwarded-For: 203.0.113.6"]) == REJECTED
    with support.start_rxlive(extra_args=["--database", database]) as server:
        # Without --trusted-proxy the header is the client's own word: the peer, 127.0.0.1, counts.
        assert attempt(server.port, "user11", "x", headers=["X-Forwarded-For: 203.0.113.5"]) == REJECTED


# ---------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="module")
def cluster():
    if not postgres.available():
        pytest.skip("PostgreSQL 15 is not installed: run scripts/setup test")
    server = postgres.PostgresCluster()
    try:
        yield server
    finally:
        server.remove()


def test_two_instances_share_accounts_and_throttling_on_postgres(cluster):
    added = rxlive_user("add", "ada", "--database", cluster.uri, password="engine\n")
    assert added.returncode == 0, added.stderr
    args = ["--database", cluster.uri]
    with support.start_rxlive(extra_args=args) as first, support.start_rxlive(extra_args=args) as second:
        assert attempt(first.port, "ada", "engine") == ACCEPTED
        assert attempt(second.port, "ada", "engine") == ACCEPTED
        # Failures on either instance count together.
        assert attempt(first.port, "ada", "wrong") == REJECTED
        assert attempt(second.port, "ada", "wrong") == REJECTED
        assert attempt(first.port, "ada", "wrong") == REJECTED
        assert_rate_limited(attempt(second.port, "ada", "engine"))
    assert rxlive_user("list", "--database", cluster.uri).stdout == "ada\n"


def test_a_stopped_database_answers_login_unavailable_until_it_is_back(cluster):
    assert rxlive_user("add", "grace", "--database", cluster.uri, password="cobol\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", cluster.uri]) as server:
        assert attempt(server.port, "grace", "cobol") == ACCEPTED
        cluster.stop()
        try:
            answer = attempt(server.port, "grace", "cobol")
            assert answer == {"error": {"code": "login_unavailable",
                                        "message": "the login service is unavailable; try again later"}}
            assert support.http_get(server.port, "/healthz")[0] == 200, "the server keeps serving"
        finally:
            cluster.start()
        # The pool reconnects once the server is back.
        assert attempt(server.port, "grace", "cobol") == ACCEPTED
        # A restart between two logins leaves a dead connection in the pool: it is replaced at once.
        cluster.stop()
        cluster.start()
        assert attempt(server.port, "grace", "cobol") == ACCEPTED


@pytest.mark.parametrize("name, why", [
    ("ada\u200bx", "U+200B"),
    ("\u202eada", "U+202E"),
    ("a" * 65, "at most 64"),
    (b"ad\xffa", "UTF-8"),
])
def test_user_add_refuses_names_the_login_form_would_refuse(tmp_path, name, why):
    """The command line checks names with the login's rules, on the bytes as given."""
    args = [str(support.binary("rxlive")).encode(), b"user", b"add", name if isinstance(name, bytes) else name.encode()]
    env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    result = subprocess.run(args, input=b"engine\n", capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 2, result
    assert why in result.stderr.decode(errors="replace"), result.stderr
    assert rxlive_user("list", cwd=tmp_path).stdout == ""


@pytest.mark.parametrize("password, why", [
    (b"\xff\xfeengine\n", "UTF-8"),
    (b"x" * 1025 + b"\n", "at most 1024"),
])
def test_user_add_refuses_passwords_that_could_never_log_in(tmp_path, password, why):
    env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    result = subprocess.run([str(support.binary("rxlive")), "user", "add", "ada"], input=password,
                            capture_output=True, env=env, cwd=tmp_path, timeout=60)
    assert result.returncode == 2, result
    assert why in result.stderr.decode(errors="replace"), result.stderr
    assert rxlive_user("list", cwd=tmp_path).stdout == ""


def test_user_add_stores_the_name_in_nfc(tmp_path):
    decomposed = "Jose\u0301"
    assert rxlive_user("add", decomposed, password="engine\n", cwd=tmp_path).returncode == 0
    assert rxlive_user("list", cwd=tmp_path).stdout == "Jos\u00e9\n"


def test_database_passwords_are_never_printed_at_any_log_level(tmp_path):
    """Passwords in every URI form, in RXLIVE_DATABASE and in PGPASSWORD, with the database
    down (so every warning and error path logs), at trace level and in the user commands."""
    secrets = ["pw1secret", "pw2secret", "pw3secret", "pw4secret", "pw5secret"]
    flag_uri = "postgres://ada:pw1secret@127.0.0.1:1/db?sslpassword=pw3secret&password=pw2secret"
    env_uri = "postgresql://127.0.0.1:1/db?user=ada&password=pw5secret"
    outputs = []
    for args, env in [
        (["--database", flag_uri], {"PGPASSWORD": "pw4secret"}),
        ([], {"RXLIVE_DATABASE": env_uri, "PGPASSWORD": "pw4secret"}),
    ]:
        with support.start_rxlive(extra_args=["--log-level", "trace", *args], env=env) as server:
            answer = attempt(server.port, "ada", "engine")
            assert answer["error"]["code"] == "login_unavailable", answer
        outputs.append(server.log_path.read_text(errors="replace"))
    for args in (["list", "--database", flag_uri], ["add", "ada", "--database", env_uri]):
        result = rxlive_user(*args, password="engine\n", cwd=tmp_path)
        assert result.returncode != 0
        outputs += [result.stdout, result.stderr]
    everything = "\n".join(outputs)
    assert "127.0.0.1:1" in everything, "the logs name the database"
    for secret in secrets:
        assert secret not in everything, f"{secret} printed:\n{everything}"


def forwarded_login(port, address, username, password, timeout=30.0):
    """One login session as a client behind the trusted proxy at `address`: the answer to
    one tap as JSON, and the seconds from the tap to that answer."""
    ws = RawWebSocket(port, "/ws/login", headers=[f"X-Forwarded-For: {address}"], timeout=timeout)
    try:
        assert "ready" in ws.receive_json()
        ws.send_json({"input": "username", "value": username})
        ws.send_json({"input": "password", "value": password})
        assert ws.receive_json() == {"output": "isLoginButtonEnabled", "value": True}
        tapped = time.monotonic()
        ws.send_json({"input": "loginTapped"})
        answer = ws.receive_json()
        if "signIn" in answer:  # a right password's hand-over code comes first
            answer = ws.receive_json()
            assert answer == {"output": "loginResult", "value": True}, answer
        return answer, time.monotonic() - tapped
    finally:
        ws.close()


@pytest.fixture
def proxied_server(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database, "--trusted-proxy", "127.0.0.1"]) as server:
        yield server


def test_an_attacker_cannot_lock_the_owner_out(proxied_server):
    """Wrong passwords for ada from one address slow that address, not ada from hers."""
    attacker, owner = "203.0.113.66", "198.51.100.7"
    answers = [forwarded_login(proxied_server.port, attacker, "ada", f"guess{n}")[0] for n in range(12)]
    assert answers[:3] == [REJECTED] * 3
    assert all(answer.get("error", {}).get("code") == "rate_limited" for answer in answers[3:]), answers
    # The owner, from an address with no failures of its own, logs in at once.
    assert forwarded_login(proxied_server.port, owner, "ada", "engine")[0] == ACCEPTED
    # And the attacker is still held back, even with the right password.
    assert forwarded_login(proxied_server.port, attacker, "ada", "engine")[0]["error"]["code"] == "rate_limited"


def test_a_legitimate_login_is_answered_in_under_a_second_while_a_hundred_addresses_hammer(proxied_server):
    """The hashing queue is bounded and fair per client address: a flood from 100 addresses
    (another process, so it does not share this one's interpreter) is shed with busy,
    and a login from its own address is not stuck behind it."""
    flood = subprocess.Popen([sys.executable, str(HERE / "tools" / "login_flood.py"), str(proxied_server.port), "100", "20"],
                             stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(2.0)  # the flood is on and the queue full
        # Three logins a second apart, from three addresses of the user's: the median says how
        # long a login takes during the flood, whatever else this shared machine does at one moment.
        logins = []
        for index in range(3):
            logins.append(forwarded_login(proxied_server.port, f"198.51.100.{7 + index}", "ada", "engine"))
            time.sleep(1.0)
    finally:
        flood.send_signal(signal.SIGTERM)
        counts = json.loads(flood.communicate(timeout=15)[0] or "{}")
    seconds = sorted(elapsed for _, elapsed in logins)
    print(f"legitimate logins during the flood: {', '.join(f'{s:.3f}' for s in seconds)} s; flood answers {counts}")
    assert [answer for answer, _ in logins] == [ACCEPTED] * 3
    assert seconds[1] < 1.0, f"a login took {seconds[1]:.2f} s (median) during the flood"
    assert counts.get("busy", 0) > 0, f"the flood was shed: {counts}"
