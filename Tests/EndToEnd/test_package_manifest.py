"""Package.swift as a dependent package sees it: SwiftPM refuses a versioned dependency
(`.package(url:…, from:)`) whose targets have unsafe flags, so a checkout SwiftPM or Xcode
makes for an app (under a `checkouts` folder) declares none; this repository's own build keeps
them (DWARF 4 C units for valgrind, no Foundation autolink for a lean `rxlive`)."""
import json
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def targets_with_unsafe_flags(package_dir: Path) -> list:
    described = subprocess.run(["swift", "package", "dump-package"], cwd=package_dir, check=True,
                               capture_output=True, text=True, timeout=300).stdout
    return sorted(target["name"] for target in json.loads(described)["targets"]
                  if any("unsafeFlags" in json.dumps(setting) for setting in target.get("settings") or []))


def test_a_checkout_made_for_a_dependent_package_has_no_unsafe_flags(tmp_path):
    checkout = tmp_path / ".build" / "checkouts" / "rxlive"
    checkout.mkdir(parents=True)
    shutil.copy(REPO / "Package.swift", checkout / "Package.swift")
    assert targets_with_unsafe_flags(checkout) == []


def test_this_repository_keeps_its_lean_build_flags():
    flagged = targets_with_unsafe_flags(REPO)
    assert {"CRxResources", "CLibPQ", "RxSwift", "Sessions", "RxLive", "rxlive"} <= set(flagged), flagged
