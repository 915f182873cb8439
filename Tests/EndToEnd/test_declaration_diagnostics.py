"""What an app is told when it declares an output or input the wire cannot carry.

Each case type-checks a small app file against the modules of the build under test
(`swiftc -typecheck`, a second or so) and reads the compiler's error: it must name the
public protocol (`Encodable`, `Decodable`) and say what to do, never the internal
`JSONValueEncodable`. A file that declares them rightly must type-check cleanly.
"""
import subprocess
from pathlib import Path

import pytest

from support import BIN_DIR, REPO

HEADER = """
import RxSwift
import Sessions

struct Foreign { let text: String }
struct Plain: Encodable { let text: String }
struct Output {
    let foreign: Observable<Foreign>
    let plain: Observable<Plain>
    let flag: Observable<Bool>
}
"""


def typecheck(tmp_path: Path, body: str) -> str:
    """The compiler's errors for HEADER + body, one per line ("" when it type-checks)."""
    modules = BIN_DIR / "Modules"
    if not (modules / "Sessions.swiftmodule").exists():
        pytest.skip(f"no Sessions module in {modules}: build first (swift build)")
    source = tmp_path / "app.swift"
    source.write_text(HEADER + body)
    arguments = ["swiftc", "-swift-version", "6", "-typecheck", "-I", str(modules),
                 "-Xcc", f"-fmodule-map-file={BIN_DIR / 'CRxResources.build' / 'module.modulemap'}",
                 "-Xcc", f"-I{REPO / 'Sources' / 'CRxResources' / 'include'}"]
    for module_map in sorted((REPO / "Sources").glob("C*/module.modulemap")):
        arguments += ["-Xcc", f"-fmodule-map-file={module_map}"]
    result = subprocess.run(arguments + [str(source)], capture_output=True, text=True, timeout=120)
    return "\n".join(line for line in (result.stdout + result.stderr).splitlines() if ": error: " in line)


def test_well_declared_outputs_and_inputs_typecheck(tmp_path):
    errors = typecheck(tmp_path, """
let outputs: [WireOutput<Output>] = [
    WireOutput("foreign", \\.foreign) { $0.text },
    WireOutput("plain", \\.plain),
    WireOutput("flag", \\.flag),
]
func inputs(_ wire: WireInputs) -> Observable<Foreign> {
    wire.value("foreign", as: String.self) { Foreign(text: $0) }
}
""")
    assert errors == ""


def test_an_output_neither_encodable_nor_mapped_is_refused_naming_encodable(tmp_path):
    errors = typecheck(tmp_path, 'let outputs: [WireOutput<Output>] = [WireOutput("foreign", \\.foreign)]\n')
    assert "must be Encodable" in errors and "map:" in errors, errors
    assert "JSONValueEncodable" not in errors, errors


def test_a_mapping_to_a_value_that_is_not_encodable_is_refused_naming_encodable(tmp_path):
    errors = typecheck(tmp_path, 'let outputs: [WireOutput<Output>] = [WireOutput("foreign", \\.foreign) { $0 }]\n')
    assert "conform to 'Encodable'" in errors, errors
    assert "JSONValueEncodable" not in errors, errors


def test_an_input_of_a_type_that_is_not_decodable_is_refused_naming_decodable(tmp_path):
    errors = typecheck(tmp_path, """
func inputs(_ wire: WireInputs) -> Observable<Foreign> { wire.value("foreign") }
""")
    assert "conform to 'Decodable'" in errors, errors
