#!/usr/bin/env python3
"""Lists the public declarations RxSwift has that our Rx modules lack.

Reads RxSwift's sources from a git repository (by default the bare mirror of RxSwift main,
at HEAD) and ours from the working tree, extracts every public declaration of each module
(RxSwift, RxRelay, RxCocoa, RxTest, RxBlocking) roughly -- kind, name, argument labels, the
type it extends -- and prints those of RxSwift that have no match in the same module of ours.
RxCocoa's UIKit/AppKit, KVO, delegate-proxy and Objective-C runtime files are skipped: they
cannot exist on Linux.

A match is on (extended type, kind, name, argument labels); with --loose, on (kind, name,
labels) anywhere in the module, which hides declarations we put on another protocol of the
same family (`ObservableConvertibleType` against `ObservableType`). A declaration in
another of our modules than RxSwift's is reported with where it is.

The parsing is line based and rough: good enough to find gaps, not a compiler.

Usage: scripts/rx/api_diff.py [--rxswift-git DIR] [--rev REV] [--loose] [--module NAME]
"""

import argparse
import os
import re
import subprocess
import sys

MODULES = ["RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking"]

# RxCocoa paths that only exist on Apple platforms (UIKit, AppKit, KVO, Objective-C runtime).
APPLE_ONLY = re.compile(
    r"^RxCocoa/(iOS|macOS|Runtime)/"
    r"|/(DelegateProxy|DelegateProxyType|ControlTarget|RxTarget|TextInput|SectionedViewDataSourceType)\.swift$"
    r"|/KVORepresentable|/NSObject\+Rx|RxCocoaObjCRuntimeError"
    r"|/ControlEvent\+(Driver|Signal)\.swift$|/ControlProperty\+Driver\.swift$"
    r"|/Platform/"
)

DECL = re.compile(
    r"^(?P<attrs>(?:@[\w().:, *\"=]+\s+)*)"
    r"(?P<mods>(?:(?:public|open|internal|private|fileprivate|package|static|class|final|override|"
    r"mutating|nonmutating|convenience|required|dynamic|nonisolated|indirect|lazy|weak|unowned)"
    r"(?:\((?:set|safe|unsafe)\))?\s+)*)"
    r"(?P<kind>func|var|let|init|subscript|typealias|associatedtype|class|struct|enum|protocol|extension|case)\b"
    r"\s*(?P<rest>.*)$"
)

ACCESS = {"public", "open", "internal", "private", "fileprivate", "package"}


def strip_comments(text):
    """Source text without comments and string contents (lengths kept roughly)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', '""', text, flags=re.S)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def argument_labels(params):
    """The argument labels of a parameter list such as `(_ a: Int, to b: B)`: `_:to:`."""
    depth, current, parts = 0, "", []
    params = params.replace("->", "  ")  # an arrow's `>` closes nothing
    for ch in params:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    labels = []
    for part in parts:
        head = part.split(":")[0].strip()
        head = re.sub(r"^@\w+\s+", "", head)
        words = head.split()
        if not words:
            continue
        labels.append(words[0])
    return "".join(label + ":" for label in labels)


def balanced_params(rest):
    """The text between the first `(` of `rest` and its matching `)`, or None."""
    start = rest.find("(")
    if start < 0:
        return None
    depth = 0
    for index in range(start, len(rest)):
        if rest[index] == "(":
            depth += 1
        elif rest[index] == ")":
            depth -= 1
            if depth == 0:
                return rest[start + 1:index]
    return None


class Declaration:
    def __init__(self, module, path, container, kind, name, labels, signature):
        self.module, self.path, self.container = module, path, container
        self.kind, self.name, self.labels, self.signature = kind, name, labels, signature

    def key(self, loose):
        kind = "type" if self.kind in ("class", "struct", "enum", "protocol", "typealias") else self.kind
        base = (kind, self.name, self.labels)
        return base if loose else (self.container,) + base


def declarations(module, path, text):
    """The public declarations of one Swift file."""
    lines = strip_comments(text).split("\n")
    found = []
    # Stack of (depth at which the scope opened, container name, members public by default).
    scopes = []
    depth = 0
    pending = ""
    for raw in lines:
        line = raw.strip()
        if pending:
            line = pending + " " + line
            pending = ""
        match = DECL.match(line)
        if match:
            rest = match.group("rest")
            kind = match.group("kind")
            # A signature that goes on over several lines: read on until the parentheses close.
            if kind in ("func", "init", "subscript") and ("(" not in rest or rest.count("(") > rest.count(")")) and "{" not in rest:
                pending = line
                continue
            mods = set(match.group("mods").split())
            access = mods & ACCESS
            inherited = scopes[-1][2] if scopes else False
            container = scopes[-1][1] if scopes else ""
            # Only declarations directly in a type or extension (or at file level), not the
            # locals of a function body.
            direct = depth == (scopes[-1][0] + 1 if scopes else 0)
            is_public = direct and (bool(access & {"public", "open"}) or (not access and inherited))
            if kind == "extension" or kind in ("class", "struct", "enum", "protocol"):
                name = re.match(r"([\w.]+)", rest)
                name = name.group(1) if name else "?"
                opens_public = ("public" in access or "open" in access) if kind == "extension" else False
                if kind == "protocol" and is_public:
                    opens_public = True  # a public protocol's requirements are public
                if kind != "extension" and is_public:
                    found.append(Declaration(module, path, container, kind, name, "", line))
                if "{" in line:
                    scopes.append((depth, name, opens_public))
            elif is_public and kind != "case":
                if kind in ("func", "init", "subscript"):
                    name = "init" if kind == "init" else ("subscript" if kind == "subscript" else re.match(r"([^\s(<]+)", rest).group(1))
                    params = balanced_params(rest if kind != "func" else rest[len(name):])
                    labels = argument_labels(params or "")
                else:
                    name_match = re.match(r"([\w]+)", rest)
                    name = name_match.group(1) if name_match else "?"
                    labels = ""
                if not name.startswith("_"):
                    found.append(Declaration(module, path, container, kind, name, labels, line))
        # Track braces (after the match, so a scope opened on this line is already pushed).
        for ch in line:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                while scopes and scopes[-1][0] >= depth:
                    scopes.pop()
    return found


def theirs(git_dir, rev, module):
    listing = subprocess.run(["git", "-C", git_dir, "ls-tree", "-r", "--name-only", rev, module + "/"],
                             capture_output=True, text=True, check=True).stdout.split()
    result = []
    for path in listing:
        if not path.endswith(".swift") or APPLE_ONLY.search(path):
            continue
        text = subprocess.run(["git", "-C", git_dir, "show", f"{rev}:{path}"],
                              capture_output=True, text=True, check=True).stdout
        result.extend(declarations(module, path, text))
    return result


def ours(root, module):
    result = []
    for directory, _, files in os.walk(os.path.join(root, "Sources", module)):
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as handle:
                    result.extend(declarations(module, os.path.relpath(path, root), handle.read()))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rxswift-git", default="/work/.mirror/ReactiveX+RxSwift/repo")
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--loose", action="store_true", help="match on kind, name and labels only")
    parser.add_argument("--module", action="append", choices=MODULES)
    args = parser.parse_args()
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
    modules = args.module or MODULES

    ours_by_module = {module: ours(root, module) for module in MODULES}
    all_ours = {}
    for module, decls in ours_by_module.items():
        for decl in decls:
            all_ours.setdefault(decl.key(args.loose), []).append(decl)
    missing_total = 0
    for module in modules:
        keys = {decl.key(args.loose) for decl in ours_by_module[module]}
        missing = []
        seen = set()
        for decl in theirs(args.rxswift_git, args.rev, module):
            key = decl.key(args.loose)
            if key in keys or key in seen:
                continue
            seen.add(key)
            elsewhere = all_ours.get(key)
            missing.append((decl, elsewhere))
        print(f"== {module}: {len(missing)} of RxSwift's public declarations not matched")
        for decl, elsewhere in missing:
            where = f"  [ours in {elsewhere[0].module}]" if elsewhere else ""
            signature = re.sub(r"\s+", " ", decl.signature)[:150]
            print(f"  {decl.path}: {decl.container + '.' if decl.container else ''}{decl.name}({decl.labels}) -- {signature}{where}")
        missing_total += sum(1 for _, elsewhere in missing if not elsewhere)
    print(f"missing in every module: {missing_total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
