"""Scale-out on loopback, as docs/OPERATIONS.md lays it out: a PostgreSQL cluster in a
temporary folder, nginx with deploy/nginx.conf's settings on a free port (its own config,
pid file and logs in a temporary folder, run as the current user), two rxlive instances
sharing the database, and the page in headless Chromium connected through nginx."""
import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import postgres
import support
from raw_websocket import RawWebSocket, upgrade_status
from test_accounts import ACCEPTED, REJECTED, assert_rate_limited, attempt, rxlive_user
from test_browser import browser, element, is_enabled, text_of, wait_until  # noqa: F401 (browser is a fixture)
from test_sign_in import post

pytestmark = pytest.mark.slow  # nginx and PostgreSQL in front of several instances

NGINX = Path("/usr/sbin/nginx")
DEPLOY_CONF = support.REPO / "deploy" / "nginx.conf"


class Nginx:
    """nginx with deploy/nginx.conf's http settings, rewritten for free loopback ports and a
    temporary folder; stopped by the pid in its pid file."""

    def __init__(self, port, upstreams):
        self.port = port
        self.folder = Path(tempfile.mkdtemp(prefix="rxlive-nginx-"))
        self.pid_file = self.folder / "nginx.pid"
        self.log = self.folder / "error.log"
        conf = DEPLOY_CONF.read_text()
        conf = re.sub(r"(?m)^pid .*;$", f"pid {self.pid_file};", conf)
        conf = re.sub(r"(?m)^error_log .*;$", f"error_log {self.log} info;", conf)
        conf = re.sub(r"(?m)^worker_processes .*;$", "worker_processes 1;", conf)
        conf = conf.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{port};")
        servers = re.findall(r"(?m)^\s*server 127\.0\.0\.1:\d+ .*;$", conf)
        assert len(servers) == len(upstreams) == 2, servers
        for line, upstream in zip(servers, upstreams):
            conf = conf.replace(line, re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{upstream}", line))
        if os.geteuid() == 0:
            # As root nginx would hand its workers to `nobody`: keep them the current user's.
            conf = f"user {pwd.getpwuid(0).pw_name};\n" + conf
        self.conf = self.folder / "nginx.conf"
        self.conf.write_text(conf)
        self.proc = subprocess.Popen([str(NGINX), "-p", str(self.folder), "-c", str(self.conf), "-e", str(self.log),
                                      "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 15
        while support.http_get(port, "/healthz", timeout=0.5)[0] != 200:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"nginx did not start: {self.proc.stderr.read().decode()} {self.log.read_text()}")
            time.sleep(0.05)

    def stop(self):
        if self.pid_file.exists():
            pid = int(self.pid_file.read_text().strip())
            if pid != self.proc.pid:
                raise AssertionError(f"pid file says {pid}, started {self.proc.pid}")
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGQUIT)  # graceful stop, by pid
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def sessions_total(port, view_model):
    status, body = support.http_get(port, "/metrics")
    assert status == 200
    match = re.search(rf'^rxlive_sessions_total{{view_model="{view_model}"}} (\d+)$', body.decode(), re.M)
    return int(match.group(1))


def open_sessions(port):
    status, body = support.http_get(port, "/metrics")
    if status != 200:
        return 0
    return int(float(re.search(r"^rxlive_sessions_open ([0-9.]+)$", body.decode(), re.M).group(1)))


@pytest.fixture
def layout():
    if not postgres.available() or not NGINX.exists():
        pytest.skip("PostgreSQL 15 or nginx is not installed: run scripts/setup test")
    cluster = postgres.PostgresCluster()
    instances, proxy = [], None
    try:
        args = ["--database", cluster.uri, "--trusted-proxy", "127.0.0.1"]
        instances = [support.start_rxlive(extra_args=args) for _ in range(2)]
        proxy = Nginx(support.free_port(), [instance.port for instance in instances])
        yield cluster, instances, proxy
    finally:
        if proxy:
            proxy.stop()
        for instance in instances:
            instance.stop()
        cluster.remove()


def test_two_instances_behind_nginx_share_accounts_throttling_and_the_page_survives_an_instance(layout, browser):
    cluster, instances, proxy = layout
    # An account added through one instance's command logs in through the other instance.
    assert rxlive_user("add", "ada", "--database", cluster.uri, password="engine\n").returncode == 0
    assert attempt(instances[1].port, "ada", "engine") == ACCEPTED

    # Failed attempts through nginx land on both instances and count together.
    logins_before = [sessions_total(instance.port, "login") for instance in instances]
    for _ in range(3):
        assert attempt(proxy.port, "grace", "wrong") == REJECTED
    assert_rate_limited(attempt(proxy.port, "grace", "wrong"))
    served = [sessions_total(instance.port, "login") - before for instance, before in zip(instances, logins_before)]
    assert all(count >= 1 for count in served), f"nginx sent every attempt to one instance: {served}"

    # The page, through nginx: both forms live, a login checked against PostgreSQL.
    browser.get(f"http://127.0.0.1:{proxy.port}/")
    for form in ("login", "sum"):
        wait_until(browser, f"the {form} session is connected",
                   lambda: element(browser, f"{form}-status").get_attribute("data-state") == "live")
    element(browser, "username").send_keys("ada")
    element(browser, "password").send_keys("engine")
    wait_until(browser, "the button enables", lambda: is_enabled(browser, "login"))
    element(browser, "login").click()
    wait_until(browser, "ada is signed in through nginx (the code redeemed on either instance)",
               lambda: text_of(browser, "signed-in-user") == "ada")
    # The hand-over's form post reloaded the page; the sum's fields are typed on the page as it is now.
    for form in ("login", "sum"):
        wait_until(browser, f"the {form} session is connected again",
                   lambda: element(browser, f"{form}-status").get_attribute("data-state") == "live")
    for field, value in (("number1", "4"), ("number2", "5"), ("number3", "z")):
        element(browser, field).send_keys(value)
    wait_until(browser, "the sum is 9", lambda: text_of(browser, "sum") == "9")

    # Kill the instance holding the page's sessions (the busier one, if they are split).
    victim = max(instances, key=lambda instance: open_sessions(instance.port))
    survivor = next(instance for instance in instances if instance is not victim)
    assert open_sessions(victim.port) >= 1
    victim.stop(sig=signal.SIGKILL)

    for form in ("login", "sum"):
        wait_until(browser, f"the {form} form is live again",
                   lambda: element(browser, f"{form}-status").get_attribute("data-state") == "live")
    wait_until(browser, "the other instance sends the sum of the kept values",
               lambda: text_of(browser, "sum") == "9" and element(browser, "sum").get_attribute("data-stale") == "false")
    wait_until(browser, "still signed in: the survivor finds the cookie's sign-in in PostgreSQL",
               lambda: text_of(browser, "signed-in-user") == "ada")
    # Each session reconnects on its own jittered backoff: the welcome session (its text kept
    # on the page meanwhile) may come back after the forms.
    wait_until(browser, "the login, sum and welcome sessions are now on the surviving instance",
               lambda: open_sessions(survivor.port) == 3)
    assert open_sessions(survivor.port) == 3, "the login, sum and welcome sessions are now on the surviving instance"


def test_log_out_on_one_instance_signs_out_a_live_session_on_the_other_within_a_second(layout):
    cluster, instances, _ = layout
    assert rxlive_user("add", "ada", "--database", cluster.uri, password="engine\n").returncode == 0
    token = rxlive_user("token", "ada", "--database", cluster.uri).stdout.strip()
    ws = RawWebSocket(instances[0].port, "/ws/sum", headers=[f"Authorization: Bearer {token}"])
    assert ws.receive_json()["ready"]["user"] == "ada"
    started = time.monotonic()
    other = instances[1].port
    status, _, _ = post(other, "/auth/logout", origin=f"http://127.0.0.1:{other}", headers=[("Authorization", f"Bearer {token}")])
    assert status == 200
    assert ws.receive_json() == {"signedOut": {"reason": "logged out"}}, "told through PostgreSQL's NOTIFY"
    assert ws.receive_close_code() == 4001
    assert time.monotonic() - started < 1.0
    ws.close()
    assert upgrade_status(instances[0].port, "/ws/sum", [f"Authorization: Bearer {token}"])[0] == 401
