"""The rxlive command line: help, version, configuration from flags and
environment (flags win), and one-line errors with exit code 2."""
import json
import os
import re
import resource
import select
import signal
import socket
import subprocess
import time

import pytest

from support import REPO, ServerProcess, binary, free_port, http_get, tool

ENV_VARIABLES = ["RXLIVE_HOST", "RXLIVE_PORT", "RXLIVE_PUBLIC", "RXLIVE_LOGIN_DELAY", "RXLIVE_LOG_LEVEL",
                 "RXLIVE_MAX_MESSAGE_SIZE", "RXLIVE_PING_INTERVAL", "RXLIVE_PONG_TIMEOUT",
                 "RXLIVE_ALLOWED_ORIGINS", "RXLIVE_MESSAGE_RATE",
                 "RXLIVE_TLS_CERT", "RXLIVE_TLS_KEY", "RXLIVE_SERVER_NAMES", "RXLIVE_LOGIN_SERVICE", "RXLIVE_DATABASE",
                 "RXLIVE_LOGIN_WORKERS", "RXLIVE_TRUSTED_PROXIES",
                 "RXLIVE_LOOPS", "RXLIVE_SHUTDOWN_TIMEOUT", "RXLIVE_DRAIN_GRACE"]


def clean_env(**overrides):
    """The test process's environment without any RXLIVE_* setting but the login example's simulated
    login (these tests are about the command line and the login delay, not accounts), plus overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    env["RXLIVE_LOGIN_SERVICE"] = "simulated"
    env.update(overrides)
    return env


def run_rxlive(*args, env=None, cwd=REPO, timeout=20):
    return subprocess.run([str(binary("rxlive")), *args], capture_output=True, text=True,
                          env=env if env is not None else clean_env(), cwd=cwd, timeout=timeout)


def make_public(tmp_path, marker):
    public = tmp_path / marker / "Public"
    public.mkdir(parents=True)
    (public / "index.html").write_text(f"<!doctype html><title>{marker}</title><p>{marker}</p>\n")
    return public


def test_help_lists_every_option_and_its_environment_variable():
    result = run_rxlive("--help")
    assert result.returncode == 0, result.stderr
    for flag in ["--host", "--port", "--public", "--login-delay", "--log-level", "--max-message-size",
                 "--ping-interval", "--pong-timeout", "--allowed-origin", "--message-rate",
                 "--tls-cert", "--tls-key", "--server-name", "--login-service",
                 "--database", "--login-workers", "--trusted-proxy", "--dashboard", "--admin-token", "--loops", "--shutdown-timeout", "--drain-grace",
                 "--version", "--help"]:
        assert flag in result.stdout, f"{flag} missing from --help"
    # Help text wraps lines, so look for each variable in the text with line breaks removed.
    flat = re.sub(r"\s+", "", result.stdout)
    for variable in ENV_VARIABLES:
        assert variable in flat, f"{variable} missing from --help"


def test_version_prints_the_version_in_the_source():
    declared = re.search(r'version: "([^"]+)"', (REPO / "Sources/rxlive/main.swift").read_text()).group(1)
    result = run_rxlive("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == declared
    assert re.fullmatch(r"\d+\.\d+\.\d+", declared)


@pytest.mark.parametrize("args, env, names", [
    (["--port", "abc"], {}, "--port"),
    (["--port", "70000"], {}, "--port"),
    (["--login-delay", "-1"], {}, "--login-delay"),
    (["--ping-interval", "0"], {}, "--ping-interval"),
    (["--max-message-size", "many"], {}, "--max-message-size"),
    (["--message-rate", "-5"], {}, "--message-rate"),
    (["--log-level", "loud"], {}, "--log-level"),
    (["--public", "/nonexistent/rxlive-public"], {}, "/nonexistent/rxlive-public"),
    (["--no-such-flag"], {}, "--no-such-flag"),
    (["--port"], {}, "--port"),
    ([], {"RXLIVE_PORT": "eighty"}, "RXLIVE_PORT"),
    ([], {"RXLIVE_LOGIN_DELAY": "soon"}, "RXLIVE_LOGIN_DELAY"),
    ([], {"RXLIVE_LOG_LEVEL": "verbose"}, "RXLIVE_LOG_LEVEL"),
    ([], {"RXLIVE_HOST": ""}, "RXLIVE_HOST"),
    (["--login-service", "magic"], {}, "--login-service"),
    (["--database", "mysql://db"], {}, "--database"),
    (["--login-workers", "0"], {}, "--login-workers"),
    ([], {"RXLIVE_DATABASE": "accounts.db"}, "RXLIVE_DATABASE"),
    (["--dashboard", "sometimes"], {}, "--dashboard"),
    (["--admin-token", "short"], {}, "--admin-token"),
    ([], {"RXLIVE_ADMIN_TOKEN": "sixteen chars or more, but spaces"}, "RXLIVE_ADMIN_TOKEN"),
    (["--loops", "0"], {}, "--loops"),
    ([], {"RXLIVE_LOOPS": "two"}, "RXLIVE_LOOPS"),
    (["--shutdown-timeout", "0"], {}, "--shutdown-timeout"),
    ([], {"RXLIVE_DRAIN_GRACE": "-1"}, "RXLIVE_DRAIN_GRACE"),
])
def test_bad_value_exits_2_with_one_line_naming_it(args, env, names):
    result = run_rxlive(*args, env=clean_env(**env))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert names in lines[0]
    assert result.stdout == ""


def test_a_bad_flag_is_refused_even_with_a_good_environment_value():
    result = run_rxlive("--log-level", "loud", env=clean_env(RXLIVE_LOG_LEVEL="info"))
    assert result.returncode == 2 and "--log-level" in result.stderr


def test_port_in_use_exits_2_with_one_line():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = run_rxlive("--host", "127.0.0.1", "--port", str(port), "--public", str(REPO / "Public"))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert str(port) in lines[0]


def test_port_in_use_with_accounts_is_still_one_line_naming_the_flag(tmp_path):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        env = clean_env()
        del env["RXLIVE_LOGIN_SERVICE"]
        result = run_rxlive("--host", "127.0.0.1", "--port", str(port), "--public", str(REPO / "Public"),
                            "--database", f"sqlite:{tmp_path}/accounts.sqlite", env=env)
    assert result.returncode == 2
    assert result.stderr == (f"rxlive: error: cannot listen on 127.0.0.1:{port}: the port is already in use; "
                             "choose another with --port (RXLIVE_PORT)\n")


def test_environment_sets_port_and_public_folder(tmp_path):
    port = free_port()
    public = make_public(tmp_path, "from-env")
    env = clean_env(RXLIVE_HOST="127.0.0.1", RXLIVE_PORT=str(port), RXLIVE_PUBLIC=str(public))
    with ServerProcess("rxlive", [], port, env=env):
        status, body = http_get(port, "/")
        assert status == 200 and b"from-env" in body


def test_flags_win_over_environment(tmp_path):
    env_port, flag_port = free_port(), free_port()
    env_public, flag_public = make_public(tmp_path, "from-env"), make_public(tmp_path, "from-flag")
    # The bad delay in the environment is never read: the flag replaces it.
    env = clean_env(RXLIVE_HOST="127.0.0.1", RXLIVE_PORT=str(env_port), RXLIVE_PUBLIC=str(env_public),
                    RXLIVE_LOGIN_DELAY="soon")
    args = ["--port", str(flag_port), "--public", str(flag_public), "--login-delay", "0.5"]
    with ServerProcess("rxlive", args, flag_port, env=env):
        status, body = http_get(flag_port, "/")
        assert status == 200 and b"from-flag" in body
        assert http_get(env_port, "/healthz", timeout=0.5)[0] == 0, "nothing may listen on the env port"


def test_public_folder_found_in_the_working_directory(tmp_path):
    public = make_public(tmp_path, "from-cwd")
    port = free_port()
    env = clean_env(RXLIVE_PORT=str(port))
    with ServerProcess("rxlive", [], port, env=env, cwd=public.parent):
        status, body = http_get(port, "/")
        assert status == 200 and b"from-cwd" in body


def test_log_level_filters_the_start_up_line():
    port = free_port()
    with ServerProcess("rxlive", ["--port", str(port)], port, env=clean_env()) as server:
        pass
    assert f"127.0.0.1:{port}" in server.log_path.read_text()

    port = free_port()
    with ServerProcess("rxlive", ["--port", str(port)], port, env=clean_env(RXLIVE_LOG_LEVEL="warning")) as server:
        pass
    assert f"127.0.0.1:{port}" not in server.log_path.read_text()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_stops_the_server_with_exit_0(sig):
    port = free_port()
    server = ServerProcess("rxlive", ["--port", str(port)], port, env=clean_env())
    assert http_get(port, "/healthz")[0] == 200
    assert server.stop(sig) == 0
    assert http_get(port, "/healthz", timeout=0.5)[0] == 0


def read_message(client, timeout=5.0):
    """The next JSON line websocat printed, failing after `timeout` seconds."""
    ready, _, _ = select.select([client.stdout], [], [], timeout)
    assert ready, f"no message within {timeout} s"
    return json.loads(client.stdout.readline())


def seconds_until_login_result(port):
    """Seconds from a login tap with both fields filled to its loginResult, seen by websocat."""
    # Unbuffered, so select() sees every line not yet read.
    client = subprocess.Popen([str(tool("websocat")), "-t", f"ws://127.0.0.1:{port}/ws/login"], bufsize=0,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert "ready" in read_message(client)
        client.stdin.write(b'{"input":"username","value":"ada"}\n{"input":"password","value":"secret"}\n')
        assert read_message(client) == {"output": "isLoginButtonEnabled", "value": True}
        tapped = time.monotonic()
        client.stdin.write(b'{"input":"loginTapped"}\n')
        assert read_message(client) == {"output": "loginResult", "value": True}
        return time.monotonic() - tapped
    finally:
        client.kill()
        client.wait()


def test_environment_sets_the_login_delay():
    port = free_port()
    with ServerProcess("rxlive", ["--port", str(port)], port, env=clean_env(RXLIVE_LOGIN_DELAY="0.5")):
        elapsed = seconds_until_login_result(port)
    # Not the 2 s default: the variable's half second.
    assert 0.45 <= elapsed < 1.7


def test_login_delay_flag_wins_over_environment():
    port = free_port()
    env = clean_env(RXLIVE_LOGIN_DELAY="30")
    with ServerProcess("rxlive", ["--port", str(port), "--login-delay", "0.1"], port, env=env):
        elapsed = seconds_until_login_result(port)
    assert 0.05 <= elapsed < 1.7


def test_raises_the_open_file_limit_to_the_hard_limit():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard <= 256:
        pytest.skip(f"the hard open-file limit ({hard}) leaves nothing to raise")
    port = free_port()
    server = subprocess.Popen([str(binary("rxlive")), "--port", str(port)], cwd=REPO, env=clean_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard)))
    try:
        deadline = time.monotonic() + 15
        while http_get(port, "/healthz", timeout=0.5)[0] != 200:
            assert server.poll() is None and time.monotonic() < deadline, "rxlive did not start"
            time.sleep(0.05)
        limits = open(f"/proc/{server.pid}/limits").read()
        soft_now = next(line.split()[3] for line in limits.splitlines() if line.startswith("Max open files"))
        assert soft_now == str(hard)
    finally:
        server.terminate()
        assert server.wait(10) == 0


def test_usage_says_serving_needs_no_subcommand():
    result = run_rxlive("--help")
    assert result.returncode == 0, result.stderr
    usage = result.stdout.split("USAGE: ", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line.strip() for line in usage] == [
        "rxlive [<options>]", "rxlive replay [--rxtest] <file> ...", "rxlive user <subcommand>"]


@pytest.mark.parametrize("command", ["add", "remove", "list", "passwd", "token", "sessions", "revoke"])
def test_each_user_command_lists_the_database_option(command):
    result = run_rxlive("user", command, "--help")
    assert result.returncode == 0, result.stderr
    assert "--database <database>" in result.stdout
    assert "RXLIVE_DATABASE" in re.sub(r"\s+", "", result.stdout)


def test_settings_table_prints_every_setting_of_the_help():
    table = run_rxlive("settings-table")
    assert table.returncode == 0, table.stderr
    flags = re.findall(r"^\| `(--[a-z-]+)`", table.stdout, re.MULTILINE)
    help_flags = set(re.findall(r"^  (--[a-z-]+) <", run_rxlive("--help").stdout, re.MULTILINE))
    assert set(flags) == help_flags and len(flags) == 30
