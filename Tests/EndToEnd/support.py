"""Shared helpers for the end-to-end tests: find the built binaries, pick free
ports on 127.0.0.1, and run a real server process for the length of a test."""
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BIN_DIR = Path(os.environ.get("RXLIVE_BIN_DIR", REPO / ".build" / "debug"))
VENV_BIN = Path(os.environ.get("RXLIVE_VENV_BIN", REPO / ".venv" / "bin"))
ARTIFACTS = Path(os.environ.get("RXLIVE_ARTIFACTS", REPO / "artifacts"))


def binary(name: str) -> Path:
    path = BIN_DIR / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: build it first (swift build)")
    return path


def tool(name: str) -> Path:
    """A Python-installed tool (websocat, kosoku, ...) from the repo's venv."""
    path = VENV_BIN / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run scripts/setup")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(port: int, path: str, timeout: float = 2.0):
    """(status, body) of a GET on 127.0.0.1:port; status 0 when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except OSError:
        return 0, b""


class ServerProcess:
    """A real server binary on 127.0.0.1, started and stopped by pid."""

    def __init__(self, name: str, args, port: int, env=None, ready_path: str = "/healthz", cwd=None):
        self.port = port
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.log_path = ARTIFACTS / f"{name}-{port}.log"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([str(binary(name)), *args], stdout=self._log,
                                     stderr=subprocess.STDOUT, env=full_env, cwd=cwd or REPO)
        self._wait_ready(ready_path)

    def _wait_ready(self, path: str, timeout: float = 15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early ({self.proc.returncode}); see {self.log_path}")
            if path is None:
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                        return
                except OSError:
                    pass
            elif http_get(self.port, path, timeout=0.5)[0] == 200:
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server on port {self.port} not ready in {timeout}s")

    def stop(self, sig=signal.SIGTERM, timeout: float = 10.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start_rxlive(port=None, extra_args=(), env=None, public=None) -> ServerProcess:
    """rxlive on 127.0.0.1 serving `public` (the repository's Public/ unless given)."""
    port = port or free_port()
    args = ["--host", "127.0.0.1", "--port", str(port), "--public", str(public or REPO / "Public"), *extra_args]
    if "--database" not in extra_args and "RXLIVE_DATABASE" not in (env or {}):
        # Each server its own account store, never the repository's data/.
        args += ["--database", f"sqlite:{tempfile.mkdtemp(prefix='rxlive-db-')}/rxlive.sqlite"]
    return ServerProcess("rxlive", args, port, env=env)


EXAMPLES_BIN_DIR = Path(os.environ.get("RXLIVE_EXAMPLES_BIN_DIR", REPO / ".build-examples" / "debug"))


def start_example(package: str, server: str) -> ServerProcess:
    """`server` of the package Examples/<package> (scripts/test builds it into
    .build-examples) on a free port of 127.0.0.1, serving the package's Public/."""
    global BIN_DIR
    if not (EXAMPLES_BIN_DIR / server).exists():
        raise FileNotFoundError(f"{EXAMPLES_BIN_DIR}/{server} is missing: scripts/test builds it")
    port = free_port()
    old, BIN_DIR = BIN_DIR, EXAMPLES_BIN_DIR
    try:
        public = REPO / "Examples" / package / "Public"
        return ServerProcess(server, ["--host", "127.0.0.1", "--port", str(port), "--public", str(public)], port)
    finally:
        BIN_DIR = old
