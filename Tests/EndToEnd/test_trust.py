"""End-to-end: issue 35's defects, each against the real rxlive binary on 127.0.0.1: paths
judged after they are decoded, a FIFO in the public folder, shedding, database secrets,
usernames, settings that can never match, and a restore over the live SQLite file."""
import json
import os
import queue
import shutil
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import support
from support import free_port
from test_accounts import attempt, finish, rxlive_user
from test_sessions import Websocat, tap, text


def raw_get(port, target, timeout=3.0):
    """Status of a GET of `target` sent exactly as written (urllib would tidy it); 0 if none."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        data = b""
        try:
            while b"\r\n" not in data:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            return 0
    return int(data.split(b" ")[1]) if data.startswith(b"HTTP/1.1 ") else 0


def test_a_hidden_path_stays_hidden_however_it_is_spelled():
    with support.start_rxlive(extra_args=["--dashboard", "off"]) as process:
        for target in ("//dashboard", "/%64ashboard", "/%64ashboard/index.html", "//dashboard/dashboard.js",
                       "/dashboard//", "/%64ashboard/%64ashboard.js", "///%64ashboard//index.html"):
            assert raw_get(process.port, target) == 404, target
        # Routes are found by the same normal form, and the page's files still are.
        assert raw_get(process.port, "//healthz") == 200
        assert raw_get(process.port, "/%69ndex.html") == 200
        assert raw_get(process.port, "//style.css") == 200


def test_a_fifo_in_the_public_folder_does_not_stop_the_server():
    with tempfile.TemporaryDirectory() as base:
        public = Path(base)
        (public / "index.html").write_bytes(b"<!doctype html><title>t</title>\n")
        os.mkfifo(public / "fifo.html")
        with support.start_rxlive(public=public) as process:
            started = time.monotonic()
            assert raw_get(process.port, "/fifo.html") == 404
            assert time.monotonic() - started < 2
            assert raw_get(process.port, "/index.html") == 200
            assert process.stop(signal.SIGTERM, timeout=5) == 0


# ---------------------------------------------------------------- shedding

def login_session(port, username, password):
    client = Websocat(port, "/ws/login")
    assert client.receive(1)[0].startswith('{"ready":{"viewModel":"login"')
    client.send(text("username", username), text("password", password))
    assert json.loads(client.receive(1)[0]) == {"output": "isLoginButtonEnabled", "value": True}
    return client


def next_answer(client, timeout=30):
    """The next answer to a tap: a right password's sign-in hand-over ({"signIn"}) comes first and is skipped."""
    while "signIn" in (answer := json.loads(client.receive(1, timeout=timeout)[0])):
        pass
    return answer


def test_right_passwords_from_one_address_are_never_refused_as_failed_logins(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    names = [f"colleague{index}" for index in range(6)]
    for name in names:
        assert rxlive_user("add", name, "--database", database, password="right horse\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database, "--login-workers", "1"]) as server:
        # Six people behind one NAT address (here 127.0.0.1) press "log in" at once.
        clients = [login_session(server.port, name, "right horse") for name in names]
        try:
            for client in clients:
                client.send(tap("loginTapped"))
            answers = [next_answer(client) for client in clients]
        finally:
            for client in clients:
                finish(client)
        assert answers == [{"output": "loginResult", "value": True}] * 6, answers

        # One person taps ten times as fast as they can: each tap replaces the last request.
        client = login_session(server.port, names[0], "right horse")
        try:
            client.send(*[tap("loginTapped")] * 10)
            first = next_answer(client)
            rest = []
            for _ in range(20):  # ten taps get at most ten answers and their hand-overs
                if (line := next_line(client, 2.0)) is None:
                    break
                if "signIn" not in json.loads(line):
                    rest.append(json.loads(line))
        finally:
            finish(client)
        for answer in [first, *rest]:
            assert answer == {"output": "loginResult", "value": True}, answer


def next_line(client, timeout):
    """The next message, or None when none comes within `timeout` seconds."""
    try:
        return client.lines.get(timeout=timeout)
    except queue.Empty:
        return None



# ---------------------------------------------------------------- database secrets

LOG_LEVELS = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
# Each form of --database that once printed its secret: a `?` in the userinfo password, libpq's
# own error text (a bad escape, an unbalanced bracket), and values rxlive does not recognise.
SECRET_FORMS = {
    "SECRETQMARK": "postgres://u:SECRET?QMARK@127.0.0.1:1/db",
    "SECRETZZ": "postgres://u:SECRETZZ%zz@127.0.0.1:1/db",
    "SECRETPCT": "postgres://127.0.0.1:1/db?password=SECRETPCT%",
    "SECRETV6": "postgres://u:SECRETV6@[::1/db",
    "SECRETCASE": "Postgres://u:SECRETCASE@127.0.0.1:1/db",
    "SECRETKEYWORDS": "host=127.0.0.1 port=1 password=SECRETKEYWORDS",
    "SECRETAMP": "postgresql://127.0.0.1:1/db?password=SECRET&AMP",
}


def secret_fragments(secret):
    """What must never be printed: every password here starts with SECRET, and the name's
    tail is the rest of it (where it is long enough to be told apart from other words)."""
    tail = secret[len("SECRET"):]
    return ["SECRET", tail] if len(tail) >= 3 else ["SECRET"]


def started_or_exited(process, port, timeout=10.0):
    """True once rxlive answers /healthz, False once it has exited."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        if support.http_get(port, "/healthz", timeout=0.5)[0] == 200:
            return True
        time.sleep(0.05)
    raise AssertionError("rxlive neither started nor exited")


def run_rxlive(args, env=None, timeout=20):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    full_env.update(env or {})
    return subprocess.run([str(support.binary("rxlive")), *args], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=support.REPO, input="engine\n")


@pytest.mark.slow  # every log level and user command: half a minute
def test_no_database_secret_is_printed_at_any_log_level_or_by_any_user_command(tmp_path):
    outputs = []
    for secret, location in SECRET_FORMS.items():
        for level in LOG_LEVELS:
            port = free_port()
            for given in (["--database", location], []):
                env = {} if given else {"RXLIVE_DATABASE": location}
                args = ["--host", "127.0.0.1", "--port", str(port), "--log-level", level,
                        "--public", str(support.REPO / "Public"), *given]
                process = subprocess.Popen([str(support.binary("rxlive")), *args], stdout=subprocess.PIPE,
                                           stderr=subprocess.STDOUT, text=True,
                                           env={**{k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}, **env})
                if started_or_exited(process, port):
                    # libpq can read the URI: a login reaches the database, which is down.
                    answer = attempt(port, "ada", "engine")
                    assert answer["error"]["code"] == "login_unavailable", answer
                    process.send_signal(signal.SIGTERM)
                    output, _ = process.communicate(timeout=10)
                else:
                    output, _ = process.communicate(timeout=10)
                    assert process.returncode == 2, (location, output)
                    assert output.count("\n") == 1, output
                    assert ("--database" if given else "RXLIVE_DATABASE") in output, output
                outputs.append((secret, output))
        for command in (["user", "add", "ada"], ["user", "remove", "ada"], ["user", "list"]):
            for result in (run_rxlive([*command, "--database", location]),
                           run_rxlive(command, env={"RXLIVE_DATABASE": location})):
                assert result.returncode != 0, (command, location)
                outputs.append((secret, result.stdout + result.stderr))
    for secret, output in outputs:
        for fragment in secret_fragments(secret):
            assert fragment not in output, f"{fragment} printed:\n{output}"


# ---------------------------------------------------------------- usernames

# Names that render as "ada" (or cannot be told from it in `user list`), and why each is refused.
LOOKALIKE_NAMES = {
    "ada\u034f": "U+034F", "ada\u3164": "U+3164", "\u115fada": "U+115F", "ada\u1160": "U+1160",
    "ada\u2800": "U+2800", "ada\ufe0f": "U+FE0F", "ada\U000e0100": "U+E0100", "ada\uffa0": "U+FFA0",
    "ada ": "begin or end with a space", " ada": "begin or end with a space",
    "ada\u00a0": "U+00A0", "ada\u3000": "U+3000", "a  da": "two spaces",
}


def test_names_that_look_like_another_are_refused_on_the_command_line_and_on_the_wire(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    for name, why in LOOKALIKE_NAMES.items():
        added = rxlive_user("add", name, "--database", database, password="engine\n")
        assert added.returncode == 2 and why in added.stderr, (ascii(name), added.stderr)
    assert rxlive_user("list", "--database", database).stdout == "ada\n"
    with support.start_rxlive(extra_args=["--database", database]) as server:
        for name, why in LOOKALIKE_NAMES.items():
            answer = attempt(server.port, name, "engine")
            assert answer["error"]["code"] == "bad_value" and why in answer["error"]["message"], (ascii(name), answer)
        # Nothing was counted against the name they imitate; single inner spaces are fine.
        assert attempt(server.port, "ada", "engine") == {"output": "loginResult", "value": True}
    assert rxlive_user("add", "Ada Lovelace", "--database", database, password="engine\n").returncode == 0


# ---------------------------------------------------------------- settings that can never match

def refused_at_start(args, env=None):
    """rxlive's exit code and its output when started with `args` on a free port."""
    port = free_port()
    result = run_rxlive(["--host", "127.0.0.1", "--port", str(port), "--public", str(support.REPO / "Public"), *args], env=env)
    return result.returncode, result.stdout + result.stderr


def test_trusted_proxies_are_addresses_and_ranges_and_nothing_else_starts():
    for value in ("notanip", "10.0.0.0/33", "127.0.0.1:8080", "localhost"):
        code, output = refused_at_start(["--trusted-proxy", value])
        assert code == 2 and output.count("\n") == 1 and output.startswith("rxlive: error: --trusted-proxy: "), output
    code, output = refused_at_start([], env={"RXLIVE_TRUSTED_PROXIES": "127.0.0.1,notanip"})
    assert code == 2 and "RXLIVE_TRUSTED_PROXIES: 'notanip'" in output, output


def test_a_trusted_proxy_range_makes_each_forwarded_client_count_on_its_own(tmp_path):
    database = f"sqlite:{tmp_path / 'accounts.sqlite'}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database, "--trusted-proxy", "127.0.0.0/8"]) as server:
        # Four clients behind the proxy, one wrong try each: none is held back by the others' tries.
        for client in range(1, 5):
            answer = attempt(server.port, "ada", "wrong", headers=[f"X-Forwarded-For: 203.0.113.{client}"])
            assert answer == {"output": "loginResult", "value": False}, (client, answer)


def test_server_names_and_origins_that_can_never_match_stop_the_start():
    for flag, value, why in [("--server-name", "myhost:8080", "without a port"),
                             ("--server-name", "*.example", "no other wildcard"),
                             ("--server-name", "[::1", "brackets hold an IPv6 address"),
                             ("--allowed-origin", "evil", "is not an origin"),
                             ("--allowed-origin", "https://example.com/", "is not an origin")]:
        code, output = refused_at_start([flag, value])
        assert code == 2 and output.count("\n") == 1, (value, output)
        assert output.startswith(f"rxlive: error: {flag}: '{value}'") and why in output, output
    code, output = refused_at_start([], env={"RXLIVE_SERVER_NAMES": "example.com,example.com:443"})
    assert code == 2 and "RXLIVE_SERVER_NAMES: 'example.com:443'" in output, output


# ---------------------------------------------------------------- restoring the SQLite file

def test_a_backup_restored_through_sqlite_is_served_and_one_copied_over_the_live_file_is_reported(tmp_path):
    live, backup = tmp_path / "accounts.sqlite", tmp_path / "backup.sqlite"
    database = f"sqlite:{live}"
    accepted, rejected = {"output": "loginResult", "value": True}, {"output": "loginResult", "value": False}
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    with support.start_rxlive(extra_args=["--database", database]) as server:
        assert attempt(server.port, "ada", "engine") == accepted
        # A backup as OPERATIONS.md takes it (SQLite's backup API, as sqlite3's .backup).
        with sqlite3.connect(live) as source, sqlite3.connect(backup) as target:
            source.backup(target)
        assert rxlive_user("add", "erin", "--database", database, password="pw\n").returncode == 0
        assert rxlive_user("remove", "ada", "--database", database).returncode == 0
        assert attempt(server.port, "erin", "pw") == accepted

        # Restored as OPERATIONS.md says, while serving (sqlite3's .restore: the same API).
        with sqlite3.connect(backup) as source, sqlite3.connect(live) as target:
            source.backup(target)
        assert attempt(server.port, "ada", "engine") == accepted, "the account only in the backup is back"
        assert attempt(server.port, "erin", "pw") == rejected, "the account made after the backup is gone"
        assert "rewritten on disk" not in server.log_path.read_text()

        # Copied over the live file (same inode): the log still wins, and the server says so.
        assert rxlive_user("add", "frank", "--database", database, password="pw\n").returncode == 0
        inode = live.stat().st_ino
        shutil.copyfile(backup, live)
        assert live.stat().st_ino == inode
        attempt(server.port, "ada", "engine")
        log = server.log_path.read_text()
        assert "rewritten on disk while open, not through SQLite" in log, log
        assert "Restoring a backup" in log


def test_a_lookalike_name_stored_before_the_rule_is_listed_apart_and_can_be_removed(tmp_path):
    path = tmp_path / "accounts.sqlite"
    database = f"sqlite:{path}"
    assert rxlive_user("add", "ada", "--database", database, password="engine\n").returncode == 0
    # As an older rxlive stored it: "ada" and a Hangul filler, with ada's hash.
    with sqlite3.connect(path) as connection:
        connection.execute("INSERT INTO accounts SELECT 'ada' || char(12644), password_hash, created_at, updated_at "
                           "FROM accounts WHERE username = 'ada'")
    assert rxlive_user("list", "--database", database).stdout == "ada\nada\\u{3164}\n"
    removed = rxlive_user("remove", "ada\\u{3164}", "--database", database)
    assert removed.returncode == 0, removed.stderr
    assert rxlive_user("list", "--database", database).stdout == "ada\n"
