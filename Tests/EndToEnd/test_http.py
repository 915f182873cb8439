"""HTTP/1.1 end to end against the real rxlive binary on 127.0.0.1: static files from a
temporary public folder, validators and 304, HEAD, 405, path traversal refused, limits,
/healthz, /ws/<other>, the Host check (DNS rebinding gets 421) and a clean exit on SIGTERM."""
import base64
import os
import signal
import socket
import tempfile
from pathlib import Path

import pytest

from support import ServerProcess, free_port

INDEX = b"<!doctype html><title>t</title>\n"
SECRET = b"top secret outside the public folder\n"


@pytest.fixture
def server():
    with tempfile.TemporaryDirectory() as base:
        public = Path(base) / "public"
        (public / "css").mkdir(parents=True)
        (public / "index.html").write_bytes(INDEX)
        (public / "css" / "app.css").write_bytes(b"body{}\n")
        (public / "app.js").write_bytes(b"console.log(1)\n")
        (Path(base) / "secret.txt").write_bytes(SECRET)
        os.symlink(Path(base) / "secret.txt", public / "leak.txt")
        port = free_port()
        proc = ServerProcess("rxlive", ["--host", "127.0.0.1", "--port", str(port), "--public", str(public)], port)
        try:
            yield proc
        finally:
            proc.stop()


def exchange(port, raw: bytes, timeout=3.0):
    """Sends raw bytes, reads until the server closes or goes quiet; returns all bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(raw)
        chunks = []
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    break
                chunks.append(data)
        except socket.timeout:
            pass
        return b"".join(chunks)


def parse(raw: bytes):
    """(status, headers lower-cased, body) of the first response in raw."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body[: int(headers.get("content-length", "0"))]


def get(port, target, method="GET", extra=""):
    return parse(exchange(port, f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{extra}\r\n".encode()))


def test_static_files_with_types_and_validators(server):
    status, headers, body = get(server.port, "/")
    assert status == 200 and body == INDEX
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["content-length"] == str(len(INDEX))
    assert get(server.port, "/css/app.css")[1]["content-type"] == "text/css; charset=utf-8"
    assert get(server.port, "/app.js")[1]["content-type"] == "text/javascript; charset=utf-8"
    etag, modified = headers["etag"], headers["last-modified"]
    assert get(server.port, "/", extra=f"If-None-Match: {etag}\r\n")[0] == 304
    assert get(server.port, "/", extra=f"If-Modified-Since: {modified}\r\n")[0] == 304
    assert get(server.port, "/", extra='If-None-Match: "nope"\r\n')[0] == 200


def test_head_has_headers_and_no_body(server):
    raw = exchange(server.port, b"HEAD /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    status, headers, _ = parse(raw)
    assert status == 200 and headers["content-length"] == str(len(INDEX))
    assert raw.endswith(b"\r\n\r\n"), "no body after a HEAD response"


def test_other_methods_get_405_with_allow(server):
    status, headers, _ = get(server.port, "/index.html", method="POST")
    assert status == 405 and "GET" in headers["allow"] and "HEAD" in headers["allow"]
    assert get(server.port, "/index.html", method="DELETE")[0] == 405


@pytest.mark.parametrize("target", [
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/css/..%2f..%2fsecret.txt",
    "/..%5csecret.txt", "/css\\..\\..\\secret.txt", "/leak.txt", "/secret.txt%00.html", "/nothing-here",
])
def test_nothing_outside_public_is_served(server, target):
    raw = exchange(server.port, f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    status, _, body = parse(raw)
    assert status in (400, 404)
    assert SECRET not in raw


def test_limits_and_bad_requests(server):
    big = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (17 * 1024) + b"\r\n\r\n"
    assert parse(exchange(server.port, big))[0] == 431
    assert parse(exchange(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999\r\n\r\n"))[0] == 413
    assert parse(exchange(server.port, b"GET / HTTP/3.0\r\nHost: 127.0.0.1\r\n\r\n"))[0] == 505
    assert parse(exchange(server.port, b"GET / HTTP/1.1\r\nHost x\r\n\r\n"))[0] == 400
    assert parse(exchange(server.port, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"))[0] == 400


def test_pipelined_keep_alive(server):
    raw = exchange(server.port, b"GET /app.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                                b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert raw.count(b"HTTP/1.1 200 OK") == 2
    assert raw.index(b"console.log") < raw.index(b'{"status":"ok"}')


def test_healthz_and_unknown_websocket_path(server):
    status, headers, body = get(server.port, "/healthz")
    assert status == 200 and body == b'{"status":"ok"}'
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = (f"GET /ws/other HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert parse(exchange(server.port, upgrade.encode()))[0] == 404


def test_sigterm_exits_cleanly(server):
    # An idle keep-alive connection must not hold the shutdown up.
    with socket.create_connection(("127.0.0.1", server.port)) as idle:
        idle.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        idle.recv(4096)
        assert server.stop(signal.SIGTERM, timeout=10) == 0


def upgrade_request(port_host: str, origin: str, path="/ws/sum"):
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: {port_host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode()


def first_status(port, raw: bytes):
    """The status of the first response to raw, read without waiting for the connection's end."""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
        s.sendall(raw)
        head = b""
        while b"\r\n" not in head:
            data = s.recv(4096)
            if not data:
                break
            head += data
        return int(head.split(b" ")[1])


def test_dns_rebinding_gets_421_and_the_pages_own_origin_opens_sessions(server):
    # A page on the attacker's name, which the attacker's DNS has pointed at 127.0.0.1.
    rebinding = upgrade_request("rebind.attacker.example:8081", "http://rebind.attacker.example:8081")
    assert first_status(server.port, rebinding) == 421
    assert get(server.port, "/", extra="")[0] == 200
    assert parse(exchange(server.port, b"GET / HTTP/1.1\r\nHost: rebind.attacker.example\r\nConnection: close\r\n\r\n"))[0] == 421
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
        assert first_status(server.port, upgrade_request(host, f"http://{host}")) == 101
    assert first_status(server.port, upgrade_request(f"localhost:{server.port}", "http://evil.example")) == 403


def test_server_names_and_allowed_origins_add_to_the_pages_own_origin():
    port = free_port()
    args = ["--host", "127.0.0.1", "--port", str(port), "--server-name", "rxlive.test", "--server-name", "127.0.0.1",
            "--allowed-origin", "https://app.example"]
    with ServerProcess("rxlive", args, port):
        assert first_status(port, upgrade_request(f"rxlive.test:{port}", f"http://rxlive.test:{port}")) == 101
        assert first_status(port, upgrade_request(f"rxlive.test:{port}", "https://app.example")) == 101
        assert first_status(port, upgrade_request(f"localhost:{port}", f"http://localhost:{port}")) == 421
    port = free_port()
    with ServerProcess("rxlive", ["--host", "127.0.0.1", "--port", str(port)], port,
                       env={"RXLIVE_SERVER_NAMES": "rxlive.test, 127.0.0.1"}):
        assert first_status(port, upgrade_request(f"rxlive.test:{port}", f"http://rxlive.test:{port}")) == 101
        assert first_status(port, upgrade_request(f"localhost:{port}", f"http://localhost:{port}")) == 421


def test_host_lines_absolute_form_and_ports_follow_rfc_9112(server):
    """RFC 9112 §3.2: two Host lines are 400 in HTTP/1.0 too; an absolute-form target's
    authority is the host checked (421 for a stranger); a port outside 1-65535 is 400."""
    two_hosts = b"GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"
    assert parse(exchange(server.port, two_hosts))[0] == 400
    absolute = f"GET http://evil.example/healthz HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n"
    assert parse(exchange(server.port, absolute.encode()))[0] == 421
    for port in ("65536", "0", "http"):
        bad_port = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        assert parse(exchange(server.port, bad_port.encode()))[0] == 400, port
