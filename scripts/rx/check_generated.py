#!/usr/bin/env python3
"""Checks that every generated `+arity` file holds what its generator writes, without
writing anything: a file edited by hand, or a generator changed and not run, fails here
with the file's name. Exit status 1 then, 0 when every file matches.

Run from anywhere: python3 scripts/rx/check_generated.py (scripts/test runs it).
"""
import pathlib
import sys

import arity
import generate_combine_latest
import generate_primitive_sequence_zip
import generate_trait_arity
import generate_zip

GENERATORS = (generate_combine_latest, generate_zip, generate_primitive_sequence_zip, generate_trait_arity)
ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> int:
    arity.checked = {}
    writer = {}
    for generator in GENERATORS:
        before = set(arity.checked)
        generator.main()
        for path in arity.checked.keys() - before:
            writer[path] = f"scripts/rx/{generator.__name__}.py"
    failures = [
        f"{path.relative_to(ROOT)} differs from what {writer[path]} writes: edit the generator and run it, not the file"
        for path, matches in sorted(arity.checked.items()) if not matches
    ]
    # A +arity file that no generator writes would never be checked.
    for path in sorted((ROOT / "Sources").rglob("*+arity.swift")):
        if path.resolve() not in arity.checked:
            failures.append(f"{path.relative_to(ROOT)} is written by none of the generators in scripts/rx/")
    for failure in failures:
        print(f"generated file out of date: {failure}", file=sys.stderr)
    if not failures:
        print(f"{len(arity.checked)} generated +arity files match their generators")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
