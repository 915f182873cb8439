#!/usr/bin/env python3
"""Where the instructions of one unit (a session, a message) go, by layer, from two callgrind
outputs of the same server: FEW and MANY units. Each function's self cost is classed by its
Swift module (from its mangled name) or as malloc/free; the cost of everything else (the Swift
runtime's retains and releases, libc, libuv's and OpenSSL's internals) is charged to its
callers in proportion to the growth of each call's inclusive cost, up the call graph until a
classed function is reached. malloc and free keep their own row, then are charged the same way
in the third column.

Usage: scripts/callgrind-layers.py FEW.out MANY.out FEW MANY   (scripts/callgrind-sessions.sh
with LAYERS=1 runs it)"""
import collections
import re
import subprocess
import sys

MALLOC = re.compile(r"^(malloc|free|_int_free|_int_malloc|calloc|realloc|posix_memalign|_mid_memalign.*|"
                    r"malloc_consolidate|unlink_chunk.*|tcache_.*|swift_slowAlloc|swift_slowDealloc|"
                    r"swift_allocObject|swift_deallocObject|swift_deallocClassInstance|_swift_release_dealloc)$")
LAYERS = [  # (row, Swift module of the mangled name, what its demangled text holds), first match wins
    ("HTTP parse, routing, upgrade handshake", r"9WebSocket", r"Handshake|ASCIITokenList|ExtensionHeader|DeflateOffer"),
    ("WebSocket frames", r"9WebSocket", r""),
    ("WebSocket frames", r"10HTTPServer", r"WebSocketConnection"),
    ("HTTP parse, routing, upgrade handshake", r"10HTTPServer", r""),
    ("TCP accept and close, libuv, timers", r"9EventLoop|11RxEventLoop", r""),
    ("Rx graph (Sources/RxSwift)", r"7RxSwift", r""),
    ("Sessions binding", r"8Sessions|10ViewModels|11RxLiveForms|6RxLive", r"Wire|SessionFeeds|OutputSink|FormsCatalog|transform|Binding|Feed"),
    ("session objects and protocol messages", r"8Sessions|10ViewModels|11RxLiveForms|6RxLive", r""),
]


def read(path):
    """Self cost per function and inclusive cost per call edge (caller, callee)."""
    names, own, calls = {}, collections.Counter(), collections.Counter()
    function = callee = None
    pending = False

    def name(field):
        match = re.match(r"\((\d+)\)(?: (.*))?", field)
        if not match:
            return field
        if match.group(2):
            names[match.group(1)] = match.group(2)
        return names[match.group(1)]

    with open(path) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                function = name(line[3:])
            elif line.startswith("cfn="):
                callee = name(line[4:])
            elif line.startswith("calls="):
                pending = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                fields = line.split()
                if len(fields) >= 2:
                    if pending:
                        calls[(function, callee)] += int(fields[1])
                        pending = False
                    else:
                        own[function] += int(fields[1])
    return own, calls


def layer_of(function, text):
    if MALLOC.match(function):
        return "malloc and free"
    for row, module, holds in LAYERS:
        if re.match(rf"\$s({module})", function) and re.search(holds, text):
            return row
    return None


def demangled(functions):
    """The functions' names as `swift demangle --simplified` writes them, in order."""
    output = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(functions),
                            capture_output=True, text=True, check=True).stdout
    return output.split("\n")


def main():
    few_path, many_path, few, many = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    (own_few, calls_few), (own_many, calls_many) = read(few_path), read(many_path)
    units = many - few
    own = {f: (own_many[f] - own_few[f]) / units for f in set(own_few) | set(own_many)}
    callers = collections.defaultdict(list)
    for edge in set(calls_few) | set(calls_many):
        growth = (calls_many[edge] - calls_few[edge]) / units
        if growth > 0 and edge[0] != edge[1]:
            callers[edge[1]].append((edge[0], growth))
    functions = sorted(own)
    classes = {f: layer_of(f, text) for f, text in zip(functions, demangled(functions))}

    def shares(function, passing, memo, path=()):
        """The fractions of `function`'s cost that each layer is charged."""
        if function in memo:
            return memo[function]
        row = classes.get(function)
        if (row is not None and row not in passing) or not callers[function] or function in path or len(path) > 30:
            result = {row or "not traced to a layer": 1.0}
        else:
            result = collections.Counter()
            total = sum(growth for _, growth in callers[function])
            for caller, growth in callers[function]:
                for name, part in shares(caller, passing, memo, path + (function,)).items():
                    result[name] += part * growth / total
        memo[function] = result
        return result

    def charge(passing):
        rows, memo = collections.Counter(), {}
        for function, cost in own.items():
            for row, part in shares(function, passing, memo).items():
                rows[row] += cost * part
        return rows

    apart, charged = charge(()), charge(("malloc and free",))
    print(f"{sum(own.values()):,.0f} instructions per unit ({few} vs {many})")
    print("| layer | own | with its malloc/free |")
    print("| --- | ---: | ---: |")
    order = list(dict.fromkeys(row for row, _, _ in LAYERS)) + ["malloc and free", "not traced to a layer"]
    for row in order:
        print(f"| {row} | {apart[row]:,.0f} | {charged[row]:,.0f} |")


if __name__ == "__main__":
    main()
