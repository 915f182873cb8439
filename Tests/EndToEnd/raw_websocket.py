"""A WebSocket client on a plain socket: a test decides frame by frame what it sends, so it
can read the server's close frame and never answer it."""
import base64
import json
import os
import socket

CLOSE = 0x8
TEXT = 0x1
PING = 0x9
PONG = 0xA


def upgrade_status(port: int, path: str, headers=()):
    """(status, head as text) of an upgrade request that is not kept (101 or a refusal)."""
    ws = RawWebSocket(port, path, headers=headers, expect_upgrade=False)
    ws.close()
    return int(ws.head.split(b" ", 2)[1]), ws.head.decode("latin-1")


class RawWebSocket:
    def __init__(self, port: int, path: str, timeout: float = 15.0, headers=(), expect_upgrade=True):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{header}\r\n" for header in headers)
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"{extra}\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        self.head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        if expect_upgrade:
            assert self.head.startswith(b"HTTP/1.1 101 "), self.head

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("the server closed the connection")
        self.buffer += data

    def send_frame(self, opcode: int, payload: bytes):
        mask = os.urandom(4)
        length = len(payload)
        header = bytes([0x80 | opcode]) + (bytes([0x80 | length]) if length < 126
                                           else bytes([0x80 | 126]) + length.to_bytes(2, "big"))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send_json(self, message):
        self.send_frame(TEXT, json.dumps(message).encode())

    def receive(self):
        """(opcode, payload) of the next frame (the server's frames are unmasked and whole)."""
        while True:
            if len(self.buffer) >= 2:
                length, offset = self.buffer[1] & 0x7F, 2
                if length == 126:
                    length, offset = int.from_bytes(self.buffer[2:4], "big"), 4
                elif length == 127:
                    length, offset = int.from_bytes(self.buffer[2:10], "big"), 10
                if len(self.buffer) >= offset + length:
                    opcode = self.buffer[0] & 0x0F
                    payload = self.buffer[offset:offset + length]
                    self.buffer = self.buffer[offset + length:]
                    return opcode, payload
            self._fill()

    def receive_message(self):
        """(opcode, payload) of the next frame that is not a ping, answering pings on the way
        as every client must (the server's first ping may come within the first minute)."""
        while True:
            opcode, payload = self.receive()
            if opcode != PING:
                return opcode, payload
            self.send_frame(PONG, payload)

    def receive_json(self):
        opcode, payload = self.receive_message()
        assert opcode == TEXT, (opcode, payload)
        return json.loads(payload)

    def receive_close_code(self) -> int:
        opcode, payload = self.receive_message()
        assert opcode == CLOSE, (opcode, payload)
        return int.from_bytes(payload[:2], "big")

    def close(self):
        self.sock.close()
