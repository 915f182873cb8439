"""Autobahn TestSuite cases 1-10, 12 and 13 (kosoku runner) against autobahn-echo.

Every case must end OK, NON-STRICT or INFORMATIONAL in both behaviour and close
behaviour; the test prints `N passed, M failed` and fails when M > 0."""
import json
import shutil
import subprocess
from pathlib import Path

from support import ARTIFACTS, ServerProcess, free_port, tool

# The suite has no section 8 (and 11 is unused); 12 and 13 are permessage-deflate.
SECTIONS = ["1", "2", "3", "4", "5", "6", "7", "9", "10", "12", "13"]
ACCEPTED = {"OK", "NON-STRICT", "INFORMATIONAL"}


def summarize(index_path: Path):
    """(passed, failures) from kosoku's index.json; a failure is (case, behaviour, close behaviour)."""
    index = json.loads(index_path.read_text())
    passed, failures = 0, []
    for cases in index.values():
        for case, result in cases.items():
            behaviour, close = result.get("behavior"), result.get("behaviorClose")
            if behaviour in ACCEPTED and close in ACCEPTED:
                passed += 1
            else:
                failures.append((case, behaviour, close))
    return passed, failures


def test_autobahn_cases_1_to_10_12_13(capsys):
    # The reports stay in artifacts/autobahn for CI to keep.
    outdir = ARTIFACTS / "autobahn"
    shutil.rmtree(outdir, ignore_errors=True)
    outdir.mkdir(parents=True)
    port = free_port()
    with ServerProcess("autobahn-echo", ["--port", str(port)], port):
        command = [str(tool("kosoku"))]
        for section in SECTIONS:
            command += ["-i", f"{section}.*"]
        command += ["-o", str(outdir), f"127.0.0.1:{port}"]
        run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    index = outdir / "index.json"
    assert index.exists(), f"kosoku wrote no index.json (exit {run.returncode}):\n{run.stdout}\n{run.stderr}"
    passed, failures = summarize(index)
    with capsys.disabled():
        print(f"\nautobahn: {passed} passed, {len(failures)} failed")
        for case, behaviour, close in failures:
            print(f"  {case}: behaviour {behaviour}, close {close}")
    assert not failures
    assert passed >= 500, f"only {passed} cases ran"
    # Sections 12 and 13 only count when compression was negotiated (UNIMPLEMENTED otherwise).
    index = json.loads(index.read_text())
    compressed = [case for cases in index.values() for case in cases if case.startswith(("12.", "13."))]
    assert len(compressed) == 216, f"{len(compressed)} permessage-deflate cases ran, expected 216"
