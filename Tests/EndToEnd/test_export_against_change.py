"""End-to-end: a recorded sum session exported with `replay --rxtest` is a test that passes
against the view model it was recorded from and fails against the changed one (the
replay-fixture's `ChangedForms`: a sum that adds one), naming the differing output.

Both cases are compiled, with a small XCTMain runner and the fixture's declarations, against
the modules and objects `swift build --build-tests` already made: the flags are those SwiftPM
used for Tests/SessionsTests and for linking the package's tests (.build/debug.yaml), so no
package is resolved or built here: a few seconds."""
import json
import re
import subprocess
from pathlib import Path

import pytest

import support
from test_record_replay import header, record, recorded, replay, sum_session  # noqa: F401 (recorded: a fixture)

BUILD = support.BIN_DIR
FIXTURE_DECLARATIONS = support.REPO / "Tests" / "ReplayFixture" / "ChangedForms.swift"
# Flags of a compile that writes a module and objects for SwiftPM; the runner is one executable.
DROPPED_WITH_VALUE = {"-module-name", "-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-j2"}
DROPPED = {"-emit-dependencies", "-emit-module", "-parse-as-library", "-incremental", "-c", "-enable-batch-mode",
           "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-j2"}


def swiftpm_command(key):
    """The args of the first command in .build/debug.yaml whose key matches the pattern `key`."""
    manifest = next((path for path in (BUILD.parent / f"{BUILD.name}.yaml", support.REPO / ".build" / f"{BUILD.name}.yaml")
                     if path.exists()), None)
    if manifest is None:
        pytest.fail(f"no {BUILD.name}.yaml beside {BUILD}: build with `swift build --build-tests` first")
    lines = manifest.read_text().splitlines()
    for index, line in enumerate(lines):
        if re.fullmatch(rf'\s*"{key}":', line):
            for following in lines[index + 1:index + 8]:
                if following.strip().startswith("args:"):
                    return json.loads(following.strip()[len("args:"):])
    pytest.fail(f"no {key} command in {manifest}: build with `swift build --build-tests` first")


def compile_flags():
    args, flags, skip = swiftpm_command(r"C\.RxLivePackageTests-[\w-]+\.module")[1:], [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in DROPPED_WITH_VALUE:
            skip = arg != "-j2"
        elif arg not in DROPPED and not arg.startswith("@"):
            flags.append(arg)
    return flags


def link_flags(folder):
    """The package tests' link, with the objects of its libraries only (no test target, no main)."""
    objects, flags, skip = [], [], False
    for arg in swiftpm_command(r"C\.RxLivePackageTests-[\w-]+\.test")[1:]:
        if skip:
            skip = False
        elif arg in ("-o", "-module-name"):
            skip = True
        elif arg.startswith("@"):
            for path in open(arg[1:]).read().splitlines():  # one path a line, quoted when it has a space
                if "Tests.build/" not in path and "RxLivePackage" not in path and "TestSupport.build/" not in path:
                    objects.append(path)
        elif arg != "-emit-executable":
            flags.append(arg)
    (folder / "objects").write_text("\n".join(objects))
    return flags + [f"@{folder / 'objects'}"]


def exported(recording, declarations, folder):
    """The case `replay --rxtest` writes for `recording` with `declarations`, in `folder`."""
    folder.mkdir()
    result = replay(support.BIN_DIR, "rxlive", "--rxtest", "--declarations", declarations, "--output", str(folder), str(recording))
    assert result.returncode == 0, result.stdout + result.stderr
    return Path(result.stdout.strip())


def test_an_exported_sum_test_passes_against_its_view_model_and_fails_against_the_changed_one(recorded, tmp_path):
    files = record(recorded, sum_session)
    assert [header(path)["viewModel"] for path in files] == ["sum"]
    same = exported(files[0], "FormsCatalog.viewModels()", tmp_path / "same")
    changed = exported(files[0], "ChangedForms.viewModels()", tmp_path / "changed")
    case = re.search(r"final class (\w+): XCTestCase", same.read_text()).group(1)
    # Two copies of one case, told apart by name: the one against the changed sum is renamed.
    changed_source = changed.read_text().replace(case, "Changed" + case)
    assert changed_source.count("ChangedForms.viewModels()") == 1
    (tmp_path / "changed.swift").write_text(changed_source)
    (tmp_path / "main.swift").write_text(
        "import XCTest\n"
        f"XCTMain([testCase([(\"testRecordedSession\", {{ (t: {case}) in {{ try t.testRecordedSession() }} }})]),\n"
        f"         testCase([(\"testRecordedSession\", {{ (t: Changed{case}) in {{ try t.testRecordedSession() }} }})])])\n")
    runner = tmp_path / "runner"
    build = subprocess.run(
        ["swiftc", "-emit-executable", *compile_flags(), "-module-name", "ExportCheck", "-swift-version", "6",
         str(tmp_path / "main.swift"), str(same), str(tmp_path / "changed.swift"), str(FIXTURE_DECLARATIONS),
         *link_flags(tmp_path), "-o", str(runner)],
        capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]

    passing = subprocess.run([str(runner), f"ExportCheck.{case}"], capture_output=True, text=True, timeout=60)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Executed 1 test, with 0 failures" in passing.stdout + passing.stderr

    failing = subprocess.run([str(runner), f"ExportCheck.Changed{case}"], capture_output=True, text=True, timeout=60)
    said = failing.stdout + failing.stderr
    assert failing.returncode != 0, said
    assert "Executed 1 test, with 1 failure" in said, said
    # The failure is the sum's assertion, at its first element: recorded 6 then 15, now 7 then 16.
    where = re.search(r"changed\.swift:(\d+): error: \S+ : failed - (.*)", said)
    assert where, said
    failed_line = changed_source.splitlines()[int(where.group(1)) - 1]
    assert "XCTAssertEqual(outputSum.events" in failed_line, failed_line
    assert re.match(r"Recorded events differ at index 0: actual next\(7\) @ \d+, expected next\(6\) @ \d+$", where.group(2)), said
