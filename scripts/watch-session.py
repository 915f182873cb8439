#!/usr/bin/env python3
"""A dashboard viewer for benchmarks: opens /ws/dashboard on 127.0.0.1, waits for a snapshot
listing a live session of VIEW_MODEL, watches the newest one, and counts its marbles.

Usage: scripts/watch-session.py PORT TOKEN VIEW_MODEL SECONDS
Prints one line: the session watched and the marbles received in SECONDS (bounded)."""
import base64
import json
import os
import socket
import struct
import sys
import time


def connect(port, path, headers=()):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    extra = "".join(f"{header}\r\n" for header in headers)
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        if not chunk:
            raise SystemExit("watch-session: the server closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"watch-session: upgrade refused: {head.splitlines()[0].decode()}")
    return sock


def send_text(sock, text):
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    header += bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def messages(sock):
    """Text messages from the server (unmasked, unfragmented, as rxlive sends them)."""
    while True:
        first, second = read_exactly(sock, 2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", read_exactly(sock, 2))[0]
        elif length == 127:
            length = struct.unpack("!Q", read_exactly(sock, 8))[0]
        payload = read_exactly(sock, length)
        if first & 0x0F == 0x8:
            return
        if first & 0x0F == 0x1:
            yield json.loads(payload)


def main():
    port, token, view_model, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
    sock = connect(port, f"/ws/dashboard?token={token}")
    send_text(sock, json.dumps({"input": "watchSession", "value": ""}))
    deadline = time.monotonic() + seconds
    watched, marbles = None, 0
    try:
        for message in messages(sock):
            if time.monotonic() > deadline:
                break
            value = message.get("value")
            if watched is None and message.get("output") == "stats":
                sessions = [s["id"] for s in value["recent"] if s["viewModel"] == view_model]
                if sessions:
                    watched = sessions[0]
                    send_text(sock, json.dumps({"input": "watchSession", "value": watched}))
            elif message.get("output") == "watch" and "marble" in value:
                marbles += 1
            sock.settimeout(max(0.1, deadline - time.monotonic()))
    except (socket.timeout, EOFError):
        pass
    sock.close()
    print(f"viewer: watched {view_model} session {watched}: {marbles} marbles in {seconds:g} s")


if __name__ == "__main__":
    main()
