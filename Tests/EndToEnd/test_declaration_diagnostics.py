"""What an app is told when it declares an output or input the wire cannot carry, and the
Swift 6 idiom of docs/GUIDE.md for services.

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


def typecheck(tmp_path: Path, body: str, header: str = HEADER, file_name: str = "app.swift") -> str:
    """The compiler's errors for header + body, one per line ("" when it type-checks)."""
    modules = BIN_DIR / "Modules"
    if not (modules / "RxLive.swiftmodule").exists():
        pytest.skip(f"no RxLive module in {modules}: build first (swift build)")
    source = tmp_path / file_name
    source.write_text(header + body)
    arguments = ["swiftc", "-swift-version", "6", "-typecheck", "-I", str(modules)]
    # Our C targets (CRxResources, CLibPQ's loader): the module maps SwiftPM made for them.
    for include in sorted((REPO / "Sources").glob("C*/include")):
        module_map = BIN_DIR / f"{include.parent.name}.build" / "module.modulemap"
        if module_map.exists():
            arguments += ["-Xcc", f"-fmodule-map-file={module_map}", "-Xcc", f"-I{include}"]
    # C modules RxLive's interface reaches: ours, swift-atomics' shims, libpq's headers.
    module_maps = [*(REPO / "Sources").glob("C*/module.modulemap"),
                   *(REPO / ".build" / "checkouts").glob("swift-atomics/Sources/_AtomicsShims/include/module.modulemap")]
    for module_map in sorted(module_maps):
        arguments += ["-Xcc", f"-fmodule-map-file={module_map}"]
    libpq = subprocess.run(["pkg-config", "--cflags-only-I", "libpq"], capture_output=True, text=True)
    for flag in libpq.stdout.split():
        arguments += ["-Xcc", flag]
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


SERVICE_APP = """
import RxLive
import RxSwift

final class Directory {  // not Sendable: mutable state without a lock
    var names: Set<String> = []
    func taken(_ name: String) -> Bool { names.contains(name) }
}
"""


def serving(made: str) -> str:
    """main.swift serving a view model that uses `directory`, made where `made` says."""
    top, inside = (made, "") if made.startswith("let") else ("", "    let directory = Directory()\n")
    return f"""{top}
RxLiveApp(name: "check", abstract: "check") {{ _ in
{inside}    return [
        WireViewModel(
            name: "check",
            transform: {{ (name: Observable<String>) in name.map {{ directory.taken($0) }} }},
            input: {{ wire in wire.text("name") }},
            outputs: [WireOutput("taken", \\.self)]),
    ]
}}.main()
"""


def test_swift_6_a_service_that_is_not_sendable_cannot_be_made_at_top_level(tmp_path):
    """The error docs/GUIDE.md ("Swift 6") quotes, for a service made in top-level code."""
    errors = typecheck(tmp_path, serving("let directory = Directory()"), header=SERVICE_APP, file_name="main.swift")
    assert "main actor-isolated let 'directory' can not be referenced from a nonisolated context" in errors, errors


def test_swift_6_a_service_that_is_not_sendable_can_be_made_in_the_apps_closure(tmp_path):
    assert typecheck(tmp_path, serving("inside"), header=SERVICE_APP, file_name="main.swift") == ""
