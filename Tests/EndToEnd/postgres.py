"""A throwaway PostgreSQL server for tests: Debian's postgresql 15 binaries, a cluster
in a temporary folder, listening on 127.0.0.1 at a free port and on a unix socket in
that folder, stopped by its pid at the end. Nothing is installed here: scripts/setup
installs the package."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from support import ARTIFACTS, free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def available():
    return (PG_BIN / "initdb").exists() and (PG_BIN / "pg_ctl").exists()


class PostgresCluster:
    def __init__(self):
        # initdb refuses to run as root: as root, the cluster belongs to Debian's `postgres` user.
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.folder = Path(tempfile.mkdtemp(prefix="rxlive-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.log = ARTIFACTS / f"postgres-{self.port}.log"
        if self.as_user:
            shutil.chown(self.folder, "postgres", "postgres")
            self.log.touch()
            shutil.chown(self.log, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "rxlive", "-A", "trust", "--no-sync", "-E", "UTF8")
        self.pid = None
        self.start()

    @property
    def uri(self):
        return f"postgres://rxlive@127.0.0.1:{self.port}/postgres"

    def _run(self, tool, *args):
        subprocess.run([*self.as_user, str(PG_BIN / tool), *args], check=True, capture_output=True, timeout=120)

    def start(self):
        options = (f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.folder} "
                   "-c fsync=off -c max_connections=40")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "-t", "60", "start")
        self.pid = int((self.data / "postmaster.pid").read_text().split("\n", 1)[0])

    def stop(self):
        """Stops the server by its pid (a fast shutdown), waiting until it is gone."""
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGINT)
        except ProcessLookupError:
            self.pid = None
            return
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.kill(self.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            os.kill(self.pid, signal.SIGKILL)
        self.pid = None

    def remove(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
