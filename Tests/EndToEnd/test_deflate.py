"""permessage-deflate (RFC 7692) against the real rxlive binary: negotiation, compressed
messages both ways with Python `websockets`, a raw client that checks RSV1 and inflates
the server's frames itself, a deflate bomb that closes with 1009, and --deflate off."""
import asyncio
import base64
import json
import os
import socket
import struct
import subprocess
import zlib

import pytest
from websockets.asyncio.client import connect

from support import REPO, binary, http_get, start_rxlive

MAX_MESSAGE_SIZE = 65536


@pytest.fixture(scope="module")
def server():
    with start_rxlive(extra_args=["--max-message-size", str(MAX_MESSAGE_SIZE)]) as process:
        yield process


class RawClient:
    """A WebSocket client on a plain socket, to see and craft the frames' bits."""

    def __init__(self, port, path="/ws/login", extensions=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
        if extensions is not None:
            request += f"Sec-WebSocket-Extensions: {extensions}\r\n"
        self.sock.sendall((request + "\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            assert chunk, "server closed during the handshake"
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        self.status = lines[0]
        self.headers = {}
        for line in lines[1:]:
            name, value = line.split(":", 1)
            self.headers[name.strip().lower()] = value.strip()

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def frame(self):
        """(fin, rsv1, opcode, payload) of the next server frame."""
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read(8))[0]
        return bool(first & 0x80), bool(first & 0x40), first & 0x0F, self._read(length)

    def send(self, opcode, payload, rsv1=False, fin=True):
        mask = os.urandom(4)
        header = bytes([(0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) <= 0xFFFF:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def close_code(self):
        """The code of the close frame the server sends next (skipping data frames)."""
        while True:
            _, _, opcode, payload = self.frame()
            if opcode == 0x8:
                return struct.unpack("!H", payload[:2])[0]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.sock.close()


def deflate(data: bytes) -> bytes:
    """A message compressed as RFC 7692 says: raw DEFLATE, sync flush, tail removed."""
    compressor = zlib.compressobj(wbits=-15)
    out = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
    assert out.endswith(b"\x00\x00\xff\xff")
    return out[:-4]


def inflate(payload: bytes) -> bytes:
    return zlib.decompressobj(wbits=-15).decompress(payload + b"\x00\x00\xff\xff")


def test_websockets_client_negotiates_and_talks_compressed(server):
    async def session():
        # websockets offers "permessage-deflate; client_max_window_bits" by default.
        async with connect(f"ws://127.0.0.1:{server.port}/ws/login") as ws:
            assert ws.response.headers["Sec-WebSocket-Extensions"] == "permessage-deflate; client_no_context_takeover"
            assert [type(e).__name__ for e in ws.protocol.extensions] == ["PerMessageDeflate"]
            ready = json.loads(await ws.recv())
            assert ready["ready"]["viewModel"] == "login"
            # Long values make messages websockets compresses; the answers are the view model's.
            await ws.send(json.dumps({"input": "username", "value": "a" * 5000}))
            await ws.send(json.dumps({"input": "password", "value": "b" * 40000}))
            assert json.loads(await ws.recv()) == {"output": "isLoginButtonEnabled", "value": True}
            await ws.send(json.dumps({"input": "password", "value": ""}))
            assert json.loads(await ws.recv()) == {"output": "isLoginButtonEnabled", "value": False}
    asyncio.run(asyncio.wait_for(session(), 20))


def test_server_messages_over_the_threshold_are_compressed_short_ones_not(server):
    with RawClient(server.port, extensions="permessage-deflate; client_max_window_bits") as client:
        assert client.status.startswith("HTTP/1.1 101")
        assert client.headers["sec-websocket-extensions"] == "permessage-deflate; client_no_context_takeover"
        fin, rsv1, opcode, payload = client.frame()
        # The ready message is about 170 bytes: compressed, and it inflates with plain zlib.
        assert (fin, rsv1, opcode) == (True, True, 0x1)
        ready = json.loads(inflate(payload))
        assert ready["ready"]["outputs"] == ["isLoginButtonEnabled", "loginResult"]
        assert len(payload) < len(json.dumps(ready))
        # A compressed message from the client, split over two frames (RSV1 on the first only).
        body = deflate(json.dumps({"input": "username", "value": "ada"}).encode())
        client.send(0x1, body[:3], rsv1=True, fin=False)
        client.send(0x0, body[3:])
        client.send(0x1, json.dumps({"input": "password", "value": "x"}).encode())
        fin, rsv1, opcode, payload = client.frame()
        # A short answer goes out as it is.
        assert (rsv1, opcode) == (False, 0x1)
        assert json.loads(payload) == {"output": "isLoginButtonEnabled", "value": True}


def test_deflate_bomb_closes_with_1009_and_the_server_goes_on(server):
    bomb = deflate(b"\x00" * (50 << 20))   # 50 MiB of zeros in about 50 KiB
    assert len(bomb) < MAX_MESSAGE_SIZE
    with RawClient(server.port, extensions="permessage-deflate") as client:
        assert client.headers.get("sec-websocket-extensions", "").startswith("permessage-deflate")
        client.frame()   # ready
        client.send(0x1, bomb, rsv1=True)
        assert client.close_code() == 1009
    assert http_get(server.port, "/healthz")[0] == 200
    with RawClient(server.port, path="/ws/sum", extensions="permessage-deflate") as other:
        assert other.status.startswith("HTTP/1.1 101")
        assert json.loads(inflate(other.frame()[3]))["ready"]["viewModel"] == "sum"


def test_rsv1_on_a_continuation_frame_closes_with_1002(server):
    with RawClient(server.port, extensions="permessage-deflate") as client:
        client.frame()
        # A plain first fragment, then a continuation wrongly marked compressed.
        client.send(0x1, b'{"in', fin=False)
        client.send(0x0, b'put":"x"}', rsv1=True)
        assert client.close_code() == 1002


def test_offers_window_bits_and_malformed_offers(server):
    with RawClient(server.port, extensions="permessage-deflate; server_max_window_bits=10; server_no_context_takeover") as client:
        assert client.headers["sec-websocket-extensions"] == (
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10")
        assert json.loads(inflate(client.frame()[3]))["ready"]["viewModel"] == "login"
    for offer in ["permessage-deflate; server_max_window_bits=16", "permessage-deflate; client_max_window_bits=7",
                  "permessage-deflate; unknown_parameter", "permessage-deflate; server_no_context_takeover; server_no_context_takeover"]:
        with RawClient(server.port, extensions=offer) as client:
            # Declined: the session opens without compression.
            assert client.status.startswith("HTTP/1.1 101"), offer
            assert "sec-websocket-extensions" not in client.headers, offer
            fin, rsv1, opcode, payload = client.frame()
            assert not rsv1 and json.loads(payload)["ready"]["viewModel"] == "login"


def test_deflate_off_declines_every_offer_and_rejects_rsv1():
    with start_rxlive(extra_args=["--deflate", "off"]) as process:
        with RawClient(process.port, extensions="permessage-deflate; client_max_window_bits") as client:
            assert "sec-websocket-extensions" not in client.headers
            assert not client.frame()[1]
            client.send(0x1, deflate(b'{"input":"username","value":"x"}'), rsv1=True)
            assert client.close_code() == 1002
    with start_rxlive(env={"RXLIVE_DEFLATE": "off"}) as process:
        with RawClient(process.port, extensions="permessage-deflate") as client:
            assert "sec-websocket-extensions" not in client.headers


def run_rxlive(*args, **env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("RXLIVE_")}
    environment.update(env)
    return subprocess.run([str(binary("rxlive")), *args], capture_output=True, text=True, env=environment,
                          cwd=REPO, timeout=20)


def test_deflate_flag_in_help_and_bad_values_exit_2():
    help_text = " ".join(run_rxlive("--help").stdout.split())
    assert "--deflate" in help_text and "RXLIVE_DEFLATE" in help_text.replace(" ", "")
    for args, env, name in [(["--deflate", "maybe"], {}, "--deflate"), ([], {"RXLIVE_DEFLATE": "yes"}, "RXLIVE_DEFLATE")]:
        result = run_rxlive(*args, **env)
        assert result.returncode == 2
        assert len(result.stderr.splitlines()) == 1 and name in result.stderr and "on or off" in result.stderr
