"""The container test's host build (scripts/base-image, then scripts/stage's static release
build of rxlive), started in the background as soon as pytest knows that test will run.

The build is minutes of compiling; the tests before the container's leave a core idle most
of the time (one Python client, a browser waiting on a server). It runs niced, so the tests
keep the CPU they ask for and the build takes what they leave."""
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from support import ARTIFACTS, REPO

LOG = ARTIFACTS / "container-build.log"

_build = None  # (process, build context folder, log file) once started


def start():
    """Starts the build unless it has been started; returns (process, context, log)."""
    global _build
    if _build is None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        context = Path(tempfile.mkdtemp(prefix="rxlive-container-context-"))
        log = open(LOG, "w")
        script = 'scripts/base-image && scripts/stage "$1"'
        process = subprocess.Popen(["nice", "-n", "10", "bash", "-c", script, "build", str(context / "staging")],
                                   cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        _build = (process, context, log)
    return _build


def wait(timeout=1200) -> Path:
    """The build context (holding `staging/`) once the build has finished; fails with the
    log's tail if it did not."""
    process, context, log = start()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop()
        raise
    log.flush()
    if process.returncode != 0:
        tail = "".join(LOG.read_text(errors="replace").splitlines(keepends=True)[-30:])
        raise AssertionError(f"scripts/base-image or scripts/stage exited {process.returncode} ({LOG}):\n{tail}")
    return context


def stop():
    """Stops a build still running (an interrupted session) and removes its folder."""
    global _build
    if _build is None:
        return
    process, context, log = _build
    if process.poll() is None:
        # Its own process group: swift build and the compilers go with it.
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    log.close()
    shutil.rmtree(context, ignore_errors=True)
    _build = None
