"""The container: the Dockerfile's runtime stage, built and run for real with
podman (no Docker engine or registry here).

The base image debian:bookworm-slim is made locally with debootstrap and
`podman import` (scripts/base-image, cached), and the `build` stage is replaced
by a named build context holding the host's release build (scripts/stage), so
the Swift image is never needed. Skipped, with the reason, where podman or
debootstrap is not installed."""
import json
import os
import shutil
import subprocess
import time

import pytest

import container_build
from support import ARTIFACTS, REPO, free_port, http_get

pytestmark = pytest.mark.slow  # builds and runs a container image

for command in ("podman", "runc", "debootstrap"):
    if shutil.which(command) is None:
        pytest.skip(f"{command} is not installed: container test not run (scripts/setup test installs it)",
                    allow_module_level=True)

# crun fails on this host's cgroups, and the default limits cannot be raised.
RUN_FLAGS = ["--runtime", "runc", "--ulimit", "nofile=20000:20000", "--ulimit", "nproc=32768:32768"]
IMAGE = f"localhost/rxlive-test:{os.getpid()}"
NAME = f"rxlive-test-{os.getpid()}"


def run(*args, timeout=120, check=True):
    result = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    return result


def podman(*args, **kwargs):
    return run("podman", *args, **kwargs)


@pytest.fixture(scope="module")
def image():
    # The host build started with the session (container_build.py); the image is made from it.
    context = container_build.wait()
    with open(container_build.LOG, "a") as out:
        subprocess.run(["podman", "build", "--isolation", "chroot", "--pull=never", "--format", "docker",
                        "--target", "runtime", "--build-context", f"build={context}",
                        "--tag", IMAGE, "--file", "Dockerfile", "."],
                       cwd=REPO, stdout=out, stderr=subprocess.STDOUT, check=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    yield IMAGE
    podman("rmi", "--force", IMAGE, check=False)


@pytest.fixture(scope="module")
def container(image):
    port = free_port()
    # No systemd here to run podman's health timer: the tests run the check by hand.
    podman("run", "--detach", "--name", NAME, *RUN_FLAGS, "--health-interval", "disable",
           "--publish", f"127.0.0.1:{port}:8080", image)
    try:
        deadline = time.monotonic() + 30
        while http_get(port, "/healthz", timeout=1)[0] != 200:
            state = podman("inspect", "--format", "{{.State.Status}}", NAME).stdout.strip()
            if state != "running" or time.monotonic() > deadline:
                logs = podman("logs", NAME, check=False)
                raise AssertionError(f"container {state}, /healthz not answering:\n{logs.stdout}{logs.stderr}")
            time.sleep(0.2)
        yield NAME, port
    finally:
        logs = podman("logs", NAME, check=False)
        (ARTIFACTS / "container-run.log").write_text(logs.stdout + logs.stderr)
        podman("rm", "--force", "--time", "0", NAME, check=False)


def test_image_declares_port_health_check_stop_signal_and_user(image):
    inspected = json.loads(podman("image", "inspect", image).stdout)[0]
    config = inspected["Config"]
    assert "8080/tcp" in config["ExposedPorts"]
    assert config["StopSignal"] == "SIGTERM"
    assert config["User"] not in ("", "0", "root")
    assert "RXLIVE_HOST=0.0.0.0" in config["Env"]
    # Only the docker format keeps HEALTHCHECK; podman reports it beside Config.
    assert inspected["Healthcheck"]["Test"] == ["CMD", "/opt/rxlive/healthcheck"]


def test_healthz_answers_from_the_host(container):
    _, port = container
    status, body = http_get(port, "/healthz")
    assert status == 200
    assert json.loads(body) == {"status": "ok"}


def test_page_is_served_from_the_staged_public_folder(container):
    _, port = container
    status, body = http_get(port, "/")
    assert status == 200
    assert body == (REPO / "Public" / "index.html").read_bytes()


def test_podman_healthcheck_passes(container):
    name, _ = container
    result = podman("healthcheck", "run", name, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert podman("inspect", "--format", "{{.State.Health.Status}}", name).stdout.strip() == "healthy"


def test_server_runs_as_the_non_root_user(container):
    name, _ = container
    # podman reads these from /proc itself (other descriptors need ps in the image).
    rows = [row.split() for row in podman("top", name, "user", "hpid", "comm").stdout.splitlines()[1:]]
    server = [row for row in rows if row[-1:] == ["rxlive"]]
    assert server, f"no rxlive process in {rows}"
    user, host_pid, _ = server[0]
    assert user == "rxlive"
    # Real, effective, saved and file-system uid, as the kernel sees them.
    status = open(f"/proc/{host_pid}/status").read()
    uids = next(line.split()[1:] for line in status.splitlines() if line.startswith("Uid:"))
    assert uids == ["10001"] * 4


def test_podman_stop_ends_it_with_exit_status_0(container):
    name, port = container
    started = time.monotonic()
    # SIGTERM; podman would SIGKILL (exit 137) after 10 s if the server ignored it.
    podman("stop", "--time", "10", name)
    assert time.monotonic() - started < 10
    assert podman("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip() == "0"
    assert http_get(port, "/healthz", timeout=0.5)[0] == 0
