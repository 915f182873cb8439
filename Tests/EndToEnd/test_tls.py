"""HTTPS and WSS served by the real rxlive binary: websocat, Python's ssl, `openssl s_client` and
headless Chromium trusting a CA made for the test; SIGHUP swaps the certificate under a live
session; broken clients on the TLS port leave the others served."""
import json
import os
import select
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

import pytest
import websocket

from support import REPO, ServerProcess, binary, free_port, tool

CHROMIUM = os.environ.get("RXLIVE_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("RXLIVE_CHROMEDRIVER", "/usr/bin/chromedriver")


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


class Certificates:
    """A test CA and server certificates it issues for localhost and 127.0.0.1 (P-256, keys 0600)."""

    def __init__(self, directory: Path):
        self.dir = directory
        self.ca = directory / "ca.pem"
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=RxLive Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
                cwd=directory)
        self.cert = directory / "server.pem"
        self.key = directory / "server.key"

    def issue(self, common_name: str):
        """(Re)writes server.pem and server.key with a new key and certificate named `common_name`."""
        openssl("req", "-x509", "-CA", "ca.pem", "-CAkey", "ca.key", "-newkey", "ec",
                "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "new.key", "-out", "new.pem",
                "-days", "2", "-subj", f"/CN={common_name}",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-addext", "extendedKeyUsage=serverAuth", "-addext", "basicConstraints=critical,CA:FALSE",
                cwd=self.dir)
        os.chmod(self.dir / "new.key", 0o600)
        os.replace(self.dir / "new.key", self.key)
        os.replace(self.dir / "new.pem", self.cert)


@pytest.fixture
def certs(tmp_path):
    certificates = Certificates(tmp_path)
    certificates.issue("first")
    return certificates


def start_tls(certs, extra_args=(), port=None):
    port = port or free_port()
    args = ["--host", "127.0.0.1", "--port", str(port), "--public", str(REPO / "Public"),
            "--tls-cert", str(certs.cert), "--tls-key", str(certs.key), *extra_args]
    server = ServerProcess("rxlive", args, port, ready_path=None)
    return server


@pytest.fixture
def server(certs):
    with start_tls(certs) as process:
        yield process


def tls_context(certs):
    context = ssl.create_default_context(cafile=str(certs.ca))
    context.set_alpn_protocols(["http/1.1"])
    return context


def https_get(certs, port, path, host="localhost"):
    """(status line, TLS version, ALPN, peer CN) of one GET over a verified TLS connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with tls_context(certs).wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := tls.recv(65536):
                data += chunk
            subject = dict(field[0] for field in tls.getpeercert()["subject"])
            return data.split(b"\r\n", 1)[0].decode(), tls.version(), tls.selected_alpn_protocol(), subject["commonName"]


def sum_session(certs, port):
    """A wss:// sum session past its ready message, with websocket-client."""
    ws = websocket.create_connection(f"wss://localhost:{port}/ws/sum", timeout=5,
                                     sslopt={"ca_certs": str(certs.ca)})
    assert "ready" in json.loads(ws.recv())
    return ws


def send_sum(ws, values):
    for name, value in values:
        ws.send(json.dumps({"input": name, "value": value}))
    return json.loads(ws.recv())


def test_https_page_and_health_over_tls13_with_alpn(certs, server):
    status, version, alpn, common_name = https_get(certs, server.port, "/healthz")
    assert status == "HTTP/1.1 200 OK"
    assert (version, alpn, common_name) == ("TLSv1.3", "http/1.1", "first")
    assert https_get(certs, server.port, "/")[0] == "HTTP/1.1 200 OK"


def test_websocat_sums_over_wss(certs, server):
    client = subprocess.Popen([str(tool("websocat")), "-t", f"wss://localhost:{server.port}/ws/sum"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "SSL_CERT_FILE": str(certs.ca)})
    try:
        for i in (1, 2, 3):
            client.stdin.write((json.dumps({"input": f"number{i}", "value": str(i)}) + "\n").encode())
        client.stdin.flush()
        replies = []
        deadline = time.monotonic() + 20
        while {"output": "sum", "value": 6} not in replies:
            assert time.monotonic() < deadline, f"no sum over wss: {replies}"
            ready, _, _ = select.select([client.stdout], [], [], 0.5)
            if ready:
                line = client.stdout.readline()
                assert line, f"websocat ended: {client.stderr.read().decode()}"
                replies.append(json.loads(line))
        assert replies[0]["ready"]["viewModel"] == "sum"
    finally:
        client.kill()
        client.wait()


def test_openssl_s_client_negotiates_tls13_and_is_refused_tls11(certs, server):
    address = f"127.0.0.1:{server.port}"
    modern = subprocess.run(["openssl", "s_client", "-connect", address, "-servername", "localhost",
                             "-CAfile", str(certs.ca), "-verify_return_error", "-alpn", "http/1.1"],
                            input="", capture_output=True, text=True, timeout=20)
    assert modern.returncode == 0, modern.stderr
    assert "New, TLSv1.3, Cipher is TLS_" in modern.stdout
    assert "ALPN protocol: http/1.1" in modern.stdout
    assert "Verify return code: 0 (ok)" in modern.stdout
    old = subprocess.run(["openssl", "s_client", "-connect", address, "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"],
                         input="", capture_output=True, text=True, timeout=20)
    assert old.returncode != 0
    assert "alert protocol version" in old.stderr
    assert https_get(certs, server.port, "/healthz")[0] == "HTTP/1.1 200 OK"


def test_sighup_swaps_the_certificate_while_a_session_keeps_working(certs, server):
    ws = sum_session(certs, server.port)
    assert send_sum(ws, [("number1", "1"), ("number2", "2"), ("number3", "3")]) == {"output": "sum", "value": 6}

    certs.issue("second")
    server.proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 15
    while https_get(certs, server.port, "/healthz")[3] != "second":
        assert time.monotonic() < deadline, "the new certificate was not served after SIGHUP"
        time.sleep(0.1)

    assert send_sum(ws, [("number1", "10")]) == {"output": "sum", "value": 15}, "the old session lives on"
    ws.close()
    assert "reloaded the TLS certificate" in server.log_path.read_text()


def test_broken_clients_on_the_tls_port_leave_others_served(certs, server):
    ws = sum_session(certs, server.port)
    # Plain HTTP on the TLS port: the connection is closed without an answer.
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as plain:
        plain.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert plain.recv(65536) == b""
    # A client that does not trust the certificate aborts the handshake itself.
    with pytest.raises(ssl.SSLCertVerificationError):
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            ssl.create_default_context().wrap_socket(raw, server_hostname="localhost")
    # Clients that vanish mid-handshake, some with a reset.
    hello = tls_client_hello_prefix(certs, server.port)
    for index in range(20):
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as vanishing:
            vanishing.sendall(hello[: len(hello) // 2])
            if index % 2:
                vanishing.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    assert send_sum(ws, [("number1", "1"), ("number2", "2"), ("number3", "4")]) == {"output": "sum", "value": 7}
    assert https_get(certs, server.port, "/healthz")[0] == "HTTP/1.1 200 OK"
    assert server.proc.poll() is None


def tls_client_hello_prefix(certs, port):
    """The bytes of a real ClientHello, captured from Python's ssl through memory BIOs."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    session = tls_context(certs).wrap_bio(incoming, outgoing, server_hostname="localhost")
    with pytest.raises(ssl.SSLWantReadError):
        session.do_handshake()
    return outgoing.read()


def test_a_group_readable_key_is_refused_with_one_line(certs):
    os.chmod(certs.key, 0o640)
    result = subprocess.run([str(binary("rxlive")), "--port", str(free_port()),
                             "--tls-cert", str(certs.cert), "--tls-key", str(certs.key)],
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 2
    assert result.stderr == f"rxlive: error: the TLS key {certs.key} is accessible to group or others (mode 640): run chmod 600 on it\n"


def test_headless_chromium_uses_the_page_over_https_trusting_the_test_ca(certs, server, tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # Chromium on Linux trusts the CAs in $HOME/.pki/nssdb: a fresh HOME with only ours.
    home = tmp_path / "home"
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"], check=True)
    subprocess.run(["certutil", "-A", "-d", f"sql:{nssdb}", "-t", "C,,", "-n", "rxlive-test-ca",
                    "-i", str(certs.ca)], check=True)

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER, env={**os.environ, "HOME": str(home)}), options=options)
    try:
        driver.get(f"https://localhost:{server.port}/")
        wait = WebDriverWait(driver, 20, poll_frequency=0.05)
        for form in ("login", "sum"):
            wait.until(lambda d: d.find_element(By.ID, f"{form}-status").get_attribute("data-state") == "live")
        for field, value in (("number1", "2"), ("number2", "3"), ("number3", "4")):
            driver.find_element(By.ID, field).send_keys(value)
        wait.until(lambda d: d.find_element(By.ID, "sum").text == "9")
        assert driver.execute_script("return location.protocol") == "https:"
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()


def test_environment_turns_tls_on_and_a_certificate_needs_its_key(certs):
    port = free_port()
    env = {"RXLIVE_TLS_CERT": str(certs.cert), "RXLIVE_TLS_KEY": str(certs.key)}
    with ServerProcess("rxlive", ["--host", "127.0.0.1", "--port", str(port), "--public", str(REPO / "Public")],
                       port, env=env, ready_path=None):
        assert https_get(certs, port, "/healthz")[:2] == ("HTTP/1.1 200 OK", "TLSv1.3")
    alone = subprocess.run([str(binary("rxlive")), "--port", str(free_port()), "--tls-cert", str(certs.cert)],
                           capture_output=True, text=True, timeout=20,
                           env={k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")})
    assert alone.returncode == 2
    assert alone.stderr.startswith("rxlive: error: --tls-cert and --tls-key") and alone.stderr.count("\n") == 1


def test_sigterm_closes_wss_sessions_with_1001_and_exits_0(certs):
    server = start_tls(certs)
    try:
        ws = sum_session(certs, server.port)
        server.proc.send_signal(signal.SIGTERM)
        opcode, payload = ws.recv_data(control_frame=True)
        assert opcode == websocket.ABNF.OPCODE_CLOSE
        assert payload[:2] == (1001).to_bytes(2, "big")
        ws.send_close(1001)  # our half of the close handshake; the server then ends TCP
        ws.shutdown()
        assert server.proc.wait(timeout=15) == 0
    finally:
        server.stop()
