"""The soak run of scripts/soak.sh: one TLS rxlive on two loops under a mixed load, sampled
once a second into soak.csv (RSS, rxlive_rx_resources, open fds, p99, errors), with a
summary (soak.txt) that compares the end of the run with the state after warm-up.

The load, each a bounded loop that ends with the run:
- sum traffic: `ws-bench sum` (32 connections, TLS), reconnecting every 20 s (churn);
- deflate clients: `ws-bench sum --deflate` (8 connections);
- logins: `ws-bench login-churn` (4 connections, a new session per login);
- slow readers: sessions that send inputs and never read, then vanish;
- abrupt disconnects: connections reset mid-handshake, mid-frame and mid-session;
- dashboard viewers: /ws/dashboard sessions with the admin token;
- a probe: one session sending a sum input every 20 ms; its reply times give p99.
"""
import argparse
import base64
import json
import os
import signal
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

TOKEN = "soak-dashboard-token-0123456789"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    """A minimal TLS WebSocket client: whole frames, masked, blocking."""

    def __init__(self, port, path, context, timeout=10.0):
        raw = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock = context.wrap_socket(raw, server_hostname="localhost")
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: localhost:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101 "):
            raise ConnectionError(head[:60])

    def fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise ConnectionError("closed by the server")
        self.buffer += data

    def send(self, message):
        self.send_frame(0x1, json.dumps(message).encode())

    def send_frame(self, opcode, payload):
        mask = os.urandom(4)
        header = bytes([0x80 | opcode]) + (bytes([0x80 | len(payload)]) if len(payload) < 126
                                           else bytes([0x80 | 126]) + struct.pack(">H", len(payload)))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive(self):
        """The next frame other than a ping; pings are answered (the server closes a session
        that leaves its ping unanswered)."""
        while True:
            if len(self.buffer) >= 2:
                length, offset = self.buffer[1] & 0x7F, 2
                if length == 126:
                    length, offset = struct.unpack(">H", self.buffer[2:4])[0], 4
                elif length == 127:
                    length, offset = struct.unpack(">Q", self.buffer[2:10])[0], 10
                if len(self.buffer) >= offset + length:
                    opcode, payload = self.buffer[0] & 0x0F, self.buffer[offset:offset + length]
                    self.buffer = self.buffer[offset + length:]
                    if opcode == 0x9:
                        self.send_frame(0xA, payload)
                        continue
                    return opcode, payload
            self.fill()

    def reset(self):
        """Closes without a close frame, with a TCP reset."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


class Soak:
    def __init__(self, args):
        self.args = args
        self.deadline = time.monotonic() + args.minutes * 60
        self.errors = {}
        self.lock = threading.Lock()
        self.latencies = []

    def error(self, kind, detail):
        with self.lock:
            self.errors.setdefault(kind, [0, str(detail)[:120]])[0] += 1

    def running(self):
        return time.monotonic() < self.deadline

    # The load, one thread each.

    def bench(self, mode, connections, extra=()):
        while self.running():
            seconds = max(1, min(20, int(self.deadline - time.monotonic())))
            result = subprocess.run([f"{self.args.bin}/ws-bench", mode, "--port", str(self.port), "--tls-ca", self.ca,
                                     "--connections", str(connections), "--seconds", str(seconds), "--timeout", "120", *extra],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                self.error(f"ws-bench {mode} {' '.join(extra)}".strip(), result.stderr.strip().splitlines()[-1:] or result.returncode)
                time.sleep(1)

    def slow_readers(self):
        while self.running():
            clients = []
            try:
                for _ in range(10):
                    client = Client(self.port, "/ws/sum", self.context)
                    for i in range(300):   # outputs pile up unread on the server's side
                        client.send({"input": "number1", "value": str(i)})
                    clients.append(client)
                time.sleep(5)
            except (OSError, ConnectionError) as error:
                self.error("slow reader", error)
            for client in clients:
                client.reset()

    def abrupt(self):
        step = 0
        while self.running():
            step += 1
            try:
                if step % 3 == 0:   # mid-handshake: TCP only, then a reset
                    raw = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                    raw.sendall(b"\x16\x03\x01\x00")
                    raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    raw.close()
                else:
                    client = Client(self.port, "/ws/login", self.context)
                    if step % 3 == 1:   # mid-frame
                        client.sock.sendall(b"\x81\xfe\x01\x00abcd")
                    else:               # mid-session, after a message
                        client.send({"input": "username", "value": "someone"})
                    client.reset()
            except (OSError, ConnectionError) as error:
                self.error("abrupt", error)
            time.sleep(0.05)

    def dashboards(self):
        while self.running():
            try:
                client = Client(self.port, f"/ws/dashboard?token={TOKEN}", self.context)
                client.sock.settimeout(1.0)
                until = time.monotonic() + 10
                while time.monotonic() < until and self.running():
                    try:
                        client.receive()
                    except socket.timeout:
                        pass
                client.reset()
            except (OSError, ConnectionError) as error:
                self.error("dashboard", error)
                time.sleep(1)

    def probe(self):
        while self.running():
            try:
                client = Client(self.port, "/ws/sum", self.context)
                client.receive()   # ready
                client.send({"input": "number2", "value": "1"})
                client.send({"input": "number3", "value": "1"})
                i = 0
                while self.running():
                    i += 1
                    started = time.monotonic()
                    client.send({"input": "number1", "value": str(i)})
                    expected = f'{{"output":"sum","value":{i + 2}}}'.encode()
                    while client.receive()[1] != expected:   # earlier sums, while the fields fill
                        pass
                    with self.lock:
                        self.latencies.append(time.monotonic() - started)
                    time.sleep(0.02)
            except (OSError, ConnectionError) as error:
                self.error("probe", error)
                time.sleep(1)

    # The server and the samples.

    def sample(self, started):
        status = Path(f"/proc/{self.server.pid}/status").read_text()
        rss_kb = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
        fds = len(os.listdir(f"/proc/{self.server.pid}/fd"))
        metrics = {}
        try:
            with urllib.request.urlopen(f"https://localhost:{self.port}/metrics", context=self.context, timeout=5) as response:
                for line in response.read().decode().splitlines():
                    if line and not line.startswith("#") and "{" not in line:
                        name, value = line.rsplit(" ", 1)
                        metrics[name] = float(value)
        except OSError as error:
            self.error("metrics", error)
        with self.lock:
            latencies, self.latencies = sorted(self.latencies), []
            errors = sum(count for count, _ in self.errors.values())
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000 if latencies else float("nan")
        return {"t": round(time.monotonic() - started), "rss_mb": round(rss_kb / 1024, 1),
                "rx_resources": int(metrics.get("rxlive_rx_resources", -1)), "fds": fds,
                "sessions_open": int(metrics.get("rxlive_sessions_open", -1)),
                "messages_received": int(metrics.get("rxlive_messages_received_total", -1)),
                "p99_ms": round(p99, 2), "probe_replies": len(latencies), "errors": errors}

    def run(self):
        out = Path(self.args.out)
        out.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="rxlive-soak-"))
        self.ca, key = str(work / "cert.pem"), str(work / "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                        "-keyout", key, "-out", self.ca, "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
        os.chmod(key, 0o600)
        self.context = ssl.create_default_context(cafile=self.ca)
        self.port = free_port()
        log = open(out / "server.log", "w")
        self.server = subprocess.Popen(
            [f"{self.args.bin}/rxlive", "--host", "127.0.0.1", "--port", str(self.port), "--loops", "2",
             "--tls-cert", self.ca, "--tls-key", key, "--public", "Public", "--database", f"sqlite:{work}/rxlive.sqlite",
             "--login-service", "simulated", "--login-delay", "0.01", "--admin-token", TOKEN],
            stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            loads = [lambda: self.bench("sum", 32), lambda: self.bench("sum", 8, ["--deflate"]),
                     lambda: self.bench("login-churn", 4), self.slow_readers, self.abrupt, self.dashboards, self.probe]
            threads = [threading.Thread(target=load, daemon=True) for load in loads]
            for thread in threads:
                thread.start()
            started = time.monotonic()
            rows = []
            with open(out / "soak.csv", "w") as csv:
                while self.running():
                    time.sleep(1)
                    rows.append(self.sample(started))
                    if len(rows) == 1:
                        csv.write(",".join(rows[0]) + "\n")
                    csv.write(",".join(str(value) for value in rows[-1].values()) + "\n")
                    csv.flush()
            for thread in threads:
                thread.join(timeout=150)
            time.sleep(2)
            rows.append(self.sample(started))   # after the load: what idles
        finally:
            self.server.send_signal(signal.SIGTERM)
            try:
                code = self.server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.server.kill()
                code = "killed after 30 s"
        summary = self.summarize(rows, code)
        (out / "soak.txt").write_text(summary)
        print(summary)
        return 0 if "verdict: ok" in summary else 1

    def summarize(self, rows, exit_code):
        loaded = rows[:-1]
        # The first fifth is warm-up; the last seconds wind down as the clients' runs end.
        warm = loaded[len(loaded) // 5:len(loaded) - max(3, len(loaded) // 20)]
        def spread(key):
            values = [row[key] for row in warm]
            base = values[0] or 1
            return max(values), min(values), (max(values) - min(values)) / base * 100
        lines = [f"soak: {self.args.minutes} min, {len(loaded)} samples, server exit {exit_code}",
                 "t(s)   rss_mb  rx_resources  fds  sessions  p99_ms  errors"]
        step = max(1, len(loaded) // 20)
        for row in loaded[::step] + [rows[-1]]:
            lines.append(f"{row['t']:5d} {row['rss_mb']:8.1f} {row['rx_resources']:13d} {row['fds']:4d} "
                         f"{row['sessions_open']:9d} {row['p99_ms']:7.2f} {row['errors']:7d}")
        rss_max, rss_min, rss_pct = spread("rss_mb")
        fds = [row["fds"] for row in warm]
        early_fds = sum(r["fds"] for r in warm[:len(warm) // 3 or 1]) / (len(warm) // 3 or 1)
        late_fds = sum(r["fds"] for r in warm[-(len(warm) // 3 or 1):]) / (len(warm) // 3 or 1)
        thirds = len(warm) // 3 or 1
        early_rx = sum(r["rx_resources"] for r in warm[:thirds]) / thirds
        late_rx = sum(r["rx_resources"] for r in warm[-thirds:]) / thirds
        early_rss = sum(r["rss_mb"] for r in warm[:thirds]) / thirds
        late_rss = sum(r["rss_mb"] for r in warm[-thirds:]) / thirds
        p99s = sorted(r["p99_ms"] for r in loaded if r["p99_ms"] == r["p99_ms"])
        lines += [f"after warm-up: RSS {rss_min}–{rss_max} MB; mean of the first third {early_rss:.1f} MB, "
                  f"of the last {late_rss:.1f} MB ({(late_rss - early_rss) / early_rss * 100:+.1f} %)",
                  f"rx_resources: mean of the first third {early_rx:.0f}, of the last {late_rx:.0f} "
                  f"({(late_rx - early_rx) / max(early_rx, 1) * 100:+.1f} %); after the load {rows[-1]['rx_resources']}",
                  f"fds: {min(fds)}–{max(fds)} under load (mean of the first third {early_fds:.0f}, of the last "
                  f"{late_fds:.0f}), {rows[-1]['fds']} after it",
                  f"p99 per second: median {p99s[len(p99s) // 2] if p99s else float('nan'):.2f} ms, "
                  f"worst {p99s[-1] if p99s else float('nan'):.2f} ms",
                  "client errors: " + (", ".join(f"{kind} ×{count} ({detail})" for kind, (count, detail) in self.errors.items()) or "none")]
        flat = abs(late_rss - early_rss) / early_rss <= 0.05 and abs(late_rx - early_rx) / max(early_rx, 1) <= 0.05
        ok = flat and exit_code == 0 and not self.errors
        lines.append(f"verdict: {'ok' if ok else 'NOT ok'} (flat within 5 %: {flat}; server exit {exit_code}; "
                     f"errors {sum(c for c, _ in self.errors.values())})")
        return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--out", default="artifacts/soak")
    return Soak(parser.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
