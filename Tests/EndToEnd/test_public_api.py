"""The public API of each library product is a decision: every public symbol of the modules an
app imports is listed in Tests/EndToEnd/public-api/<Module>.txt, and a symbol added or removed
without its list fails here with the difference. The symbols come from
swift-symbolgraph-extract over the debug build's modules (`swift build` first).

After a deliberate change, rewrite the lists and review their diff:
    RXLIVE_UPDATE_PUBLIC_API=1 .venv/bin/pytest Tests/EndToEnd/test_public_api.py
"""
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import support

REPO = support.REPO
LISTS = Path(__file__).resolve().parent / "public-api"
# The library products' modules (RxLive re-exports Sessions, RxCocoa re-exports RxRelay).
MODULES = ["RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking", "RxLive", "Sessions"]


def module_maps() -> list:
    """Clang module maps of the package's C targets and of the dependencies' (as SwiftPM made them)."""
    maps = [path for path in (REPO / "Sources").glob("C*/module.modulemap")]
    maps += list((REPO / ".build").glob("*/debug/*.build/module.modulemap"))
    maps += list((REPO / ".build" / "checkouts").glob("*/Sources/*/include/module.modulemap"))
    arguments = [argument for path in maps for argument in ("-Xcc", f"-fmodule-map-file={path}")]
    # The system libraries' headers where they are not on the default path (libpq's), as
    # Package.swift's pkgConfig names find them.
    flags = subprocess.run(["pkg-config", "--cflags-only-I", "libpq", "libuv", "openssl", "sqlite3", "libargon2", "zlib"],
                           capture_output=True, text=True)
    for flag in flags.stdout.split():
        arguments += ["-Xcc", flag]
    return arguments


def public_symbols(module: str) -> list:
    """One line per public symbol of `module`: its kind, its path and its declaration's heading."""
    modules = support.BIN_DIR / "Modules"
    if not (modules / f"{module}.swiftmodule").exists():
        pytest.skip(f"no {module}.swiftmodule in {modules}: swift build first")
    with tempfile.TemporaryDirectory() as output:
        result = subprocess.run(
            ["swift-symbolgraph-extract", "-module-name", module, "-I", str(modules),
             "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public",
             "-skip-synthesized-members", "-output-dir", output, *module_maps()],
            capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-2000:]
        lines = set()
        for graph in Path(output).glob("*.symbols.json"):
            extended = graph.stem.split("@")[1].removesuffix(".symbols") if "@" in graph.stem else None
            for symbol in json.loads(graph.read_text())["symbols"]:
                heading = "".join(fragment["spelling"] for fragment in symbol["names"].get("subHeading", []))
                path = ".".join(symbol["pathComponents"])
                where = f" (extends {extended})" if extended else ""
                lines.add(f'{symbol["kind"]["identifier"].removeprefix("swift.")} {path}: {heading}{where}')
        return sorted(lines)


@pytest.mark.skipif(shutil.which("swift-symbolgraph-extract") is None, reason="no swift-symbolgraph-extract")
@pytest.mark.parametrize("module", MODULES)
def test_the_public_symbols_are_the_listed_ones(module):
    found = public_symbols(module)
    listed_path = LISTS / f"{module}.txt"
    if os.environ.get("RXLIVE_UPDATE_PUBLIC_API") == "1":
        LISTS.mkdir(exist_ok=True)
        listed_path.write_text("\n".join(found) + "\n")
    listed = listed_path.read_text().splitlines() if listed_path.exists() else []
    added = sorted(set(found) - set(listed))
    removed = sorted(set(listed) - set(found))
    assert not added and not removed, (
        f"{module}'s public API differs from {listed_path.relative_to(REPO)} "
        "(RXLIVE_UPDATE_PUBLIC_API=1 rewrites it):\n"
        + "\n".join([f"+ {line}" for line in added] + [f"- {line}" for line in removed])[:6000])
