#!/usr/bin/env python3
"""Checks that Package.swift declares exactly the modules each target's sources import.

For every target, the modules its Swift sources import (`import X`, `@testable import X`,
`@_exported import X`, `import struct X.Y`, imports inside `#if` blocks) are compared with
the dependencies the manifest declares (targets, and products mapped to the modules they
provide). Two kinds of problem, one line each:
  - a module imported but not declared: it builds only because another dependency happens
    to pull it in first;
  - a dependency declared but never imported: drift.
And one layering rule: the transport (EventLoop, TLS, WebSocket, HTTPServer) knows nothing of
Rx, so none of those targets may depend on RxSwift, directly or through another target (the
loop scheduler lives in RxEventLoop, which the Rx-facing modules use). And one linking rule:
no target the `rxlive` server links imports Foundation itself (FoundationEssentials is
fine, and so is Foundation as the fallback of `#if canImport(FoundationEssentials)` or
imported `@_weakLinked`, as RxSwift does for the two public types of its API that are
Foundation's): Foundation's libraries cost every server process about 7 MB resident before
its first session (docs/BENCHMARKS.md).
A module that is neither a target of the package nor provided by a dependency's product
(Foundation, Glibc, XCTest, Synchronization, ...) is the toolchain's and not checked.

The manifest is read through `swift package dump-package`, which needs no build. A
product maps to the targets it lists and the targets those depend on inside its package,
since the product links them all; a dependency's manifest is read from its checkout under
the scratch path when there is one, otherwise the product is taken to provide the module
of its own name.

Usage: python3 scripts/check-package-imports.py [--package-path DIR] [--scratch-path DIR]
Exit status 1 when a problem is found, 0 otherwise. scripts/test runs it on the root
package, Fuzz/, Examples/SignUp/ and Examples/Calculator/.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

# One import declaration: attributes (`@testable`, `@_exported`, `@preconcurrency`,
# `@_spi(X)`), an access level, an optional kind (`import struct X.Y`), then the module.
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)"
)
# Target -> modules it must not reach through the package's own targets.
KNOWS_NOTHING_OF = {name: {"RxSwift"} for name in ("EventLoop", "TLS", "WebSocket", "HTTPServer")}
# Executables whose targets must not link full Foundation.
FOUNDATION_FREE = ("rxlive",)
FOUNDATION_FALLBACK = re.compile(
    r"#if canImport\(FoundationEssentials\)\s*\n\s*import FoundationEssentials\s*\n#else\s*\n\s*import Foundation\s*\n#endif")
BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
WEAK_LINKED = re.compile(r"^\s*@_weakLinked\s+import\s+Foundation\b", re.M)
MULTILINE_STRING = re.compile(r'(#*)""".*?"""\1', re.S)


def dump_package(path: pathlib.Path) -> dict:
    result = subprocess.run(
        ["swift", "package", "dump-package", "--package-path", str(path)],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        sys.exit(f"swift package dump-package --package-path {path} failed:\n{result.stderr}")
    return json.loads(result.stdout)


def target_directory(package_path: pathlib.Path, target: dict) -> pathlib.Path:
    if target.get("path"):
        return package_path / target["path"]
    folder = "Tests" if target["type"] == "test" else "Sources"
    return package_path / folder / target["name"]


def imports_of(directory: pathlib.Path, excluded: list) -> set:
    """The modules the Swift files under `directory` import, comments and string literals aside."""
    skipped = [directory / path for path in excluded]
    modules = set()
    for source in sorted(directory.rglob("*.swift")):
        if any(source == path or path in source.parents for path in skipped):
            continue
        text = MULTILINE_STRING.sub("", BLOCK_COMMENT.sub("", source.read_text(encoding="utf-8")))
        for line in text.splitlines():
            match = IMPORT.match(line.split("//", 1)[0])
            if match:
                modules.add(match.group(1))
    return modules


def named_dependency(entry: dict):
    """(kind, name, package) of one dependency entry of a target in dump-package's JSON."""
    for kind in ("byName", "target", "product"):
        if kind in entry:
            values = entry[kind]
            return kind, values[0], values[1] if kind == "product" else None
    raise ValueError(f"unknown dependency form: {entry}")


def product_modules(manifest: dict) -> dict:
    """Each library product of a package -> (the targets it names, the modules it provides: those
    and, inside the package, every target they depend on, since the product links them all)."""
    targets = {target["name"]: target for target in manifest["targets"]}

    def closure(name: str, seen: set) -> set:
        if name in seen or name not in targets:
            return seen
        seen.add(name)
        for entry in targets[name]["dependencies"]:
            kind, dependency, _ = named_dependency(entry)
            if kind != "product":
                closure(dependency, seen)
        return seen

    provided = {}
    for product in manifest["products"]:
        if "library" in product["type"]:
            modules = set()
            for name in product["targets"]:
                closure(name, modules)
            modules = {m for m in modules if targets[m]["type"] in ("regular", "system")}
            provided[product["name"]] = (set(product["targets"]), modules)
    return provided


def dependency_identity(dependency: dict) -> tuple:
    """(identity, the name targets call it by, local path or None) of one package dependency:
    `.package(name: "RxLive", path: "..")` has the folder's name as identity."""
    for kind, values in dependency.items():
        value = values[0]
        name = value.get("nameForTargetDependencyResolutionOnly") or value["identity"]
        path = pathlib.Path(value["path"]) if kind == "fileSystem" else None
        return value["identity"], name.lower(), path
    raise ValueError(f"unknown package dependency form: {dependency}")


def dependency_products(manifest: dict, scratch: pathlib.Path) -> dict:
    """Package name -> {product -> modules}, for every package a target takes a product of
    (a package only for its plugin, such as swift-docc-plugin, provides no module)."""
    used = {named_dependency(entry)[2].lower() for target in manifest["targets"]
            for entry in target["dependencies"] if "product" in entry}
    products = {}
    for dependency in manifest["dependencies"]:
        identity, name, local_path = dependency_identity(dependency)
        if name not in used:
            continue
        checkout = local_path or scratch / "checkouts" / identity
        if (checkout / "Package.swift").exists():
            products[name] = product_modules(dump_package(checkout))
        else:
            products[name] = None  # not checked out: each product provides its own name
    return products


def check(package_path: pathlib.Path, scratch: pathlib.Path, manifest_name: str) -> list:
    manifest = dump_package(package_path)
    local_targets = {target["name"]: target for target in manifest["targets"]}
    products = dependency_products(manifest, scratch)

    def modules_of_product(name: str, package: str) -> set:
        provided = products.get(package.lower())
        if provided is None:
            return {name}
        return provided.get(name, (set(), {name}))[1]

    def product_targets(name: str, package: str) -> set:
        provided = products.get(package.lower())
        if provided is None:
            return {name}
        return provided.get(name, ({name}, set()))[0]

    # Every module a target could import from this package or its dependencies; the rest is
    # the toolchain's.
    known = {name for name, target in local_targets.items() if target["type"] in ("regular", "system", "test")}
    for identity, provided in products.items():
        if provided is not None:
            for _, modules in provided.values():
                known |= modules
    for target in manifest["targets"]:
        for entry in target["dependencies"]:
            kind, name, package = named_dependency(entry)
            if kind == "product":
                known |= modules_of_product(name, package)

    problems = []
    for target in manifest["targets"]:
        if target["type"] in ("system", "binary", "plugin", "macro"):
            continue
        name = target["name"]
        directory = target_directory(package_path, target)
        relative = directory.relative_to(package_path) if directory.is_relative_to(package_path) else directory
        imported = imports_of(directory, target.get("exclude", [])) & known
        imported.discard(name)

        # The text naming each dependency -> (the modules it names, the modules it provides).
        declared = {}
        for entry in target["dependencies"]:
            kind, dependency, package = named_dependency(entry)
            if kind != "product" and dependency in local_targets:
                declared[f'"{dependency}"'] = ({dependency}, {dependency})
                continue
            if kind != "product":  # a byName naming a dependency's product
                owners = [owner for owner, provided in products.items() if provided and dependency in provided]
                package = owners[0] if owners else ""
            label = f'product "{dependency}" of {package}' if kind == "product" else f'"{dependency}"'
            declared[label] = (product_targets(dependency, package), modules_of_product(dependency, package))

        provided = set().union(*(modules for _, modules in declared.values()))
        for module in sorted(imported - provided):
            problems.append(f"{manifest_name}: target {name} imports {module} "
                            f"({relative}) but does not declare it")
        for label, (named, modules) in declared.items():
            # A product is used when a module it names is imported, or one it links that no
            # other dependency names (Fuzz reaches HTTPServer through the RxLive product).
            named_elsewhere = set().union(*(other for key, (other, _) in declared.items() if key != label))
            if not (named & imported or (modules - named_elsewhere) & imported):
                problems.append(f"{manifest_name}: target {name} declares {label} "
                                f"but no file in {relative} imports it")
    return problems + layering_problems(local_targets, manifest_name) + \
        foundation_problems(package_path, local_targets, manifest_name)


def reached(local_targets: dict, name: str, seen: set) -> set:
    """The package's own targets `name` depends on, directly or through one another."""
    for entry in local_targets[name]["dependencies"]:
        kind, dependency, _ = named_dependency(entry)
        if kind != "product" and dependency in local_targets and dependency not in seen:
            seen.add(dependency)
            reached(local_targets, dependency, seen)
    return seen


def foundation_problems(package_path: pathlib.Path, local_targets: dict, manifest_name: str) -> list:
    """The FOUNDATION_FREE rule: each file of those executables' targets that imports Foundation."""
    problems = []
    for executable in FOUNDATION_FREE:
        if executable not in local_targets:
            continue
        for name in sorted(reached(local_targets, executable, {executable})):
            target = local_targets[name]
            if target["type"] == "system":
                continue
            for source in sorted(target_directory(package_path, target).rglob("*.swift")):
                text = WEAK_LINKED.sub("", FOUNDATION_FALLBACK.sub("", BLOCK_COMMENT.sub("", source.read_text(encoding="utf-8"))))
                if any((match := IMPORT.match(line.split("//", 1)[0])) and match.group(1) == "Foundation"
                       for line in text.splitlines()):
                    problems.append(f"{manifest_name}: {source.relative_to(package_path)} imports Foundation, "
                                    f"which {executable} links; import FoundationEssentials")
    return problems


def layering_problems(local_targets: dict, manifest_name: str) -> list:
    """The KNOWS_NOTHING_OF rule over the closure of each target's local dependencies."""
    problems = []
    for name, forbidden in KNOWS_NOTHING_OF.items():
        if name in local_targets:
            for module in sorted(reached(local_targets, name, set()) & forbidden):
                problems.append(f"{manifest_name}: target {name} depends on {module}: the transport knows nothing of Rx")
    return problems


def main() -> int:
    root = pathlib.Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package-path", type=pathlib.Path, default=root)
    parser.add_argument("--scratch-path", type=pathlib.Path,
                        help="where dependencies are checked out (default: PACKAGE/.build)")
    arguments = parser.parse_args()
    package_path = arguments.package_path.resolve()
    scratch = (arguments.scratch_path or package_path / ".build").resolve()

    manifest = package_path / "Package.swift"
    manifest_name = str(manifest.relative_to(root)) if manifest.is_relative_to(root) else str(manifest)
    problems = check(package_path, scratch, manifest_name)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"{manifest_name} declares what its targets import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
