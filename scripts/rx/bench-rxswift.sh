#!/bin/bash
# rx-bench's workloads on this library and on RxSwift itself, side by side in one run.
# rx-bench's own files are built a second time, in a package outside this repository, against
# RxSwift checked out from RXSWIFT_GIT (a clone or mirror of github.com/ReactiveX/RxSwift) at
# RXSWIFT_REF; the two binaries then take turns, row by row, so load on the machine lands on both.
# Usage (from the repository's root):
#   RXSWIFT_GIT=/path/to/RxSwift.git scripts/rx/bench-rxswift.sh [--runs N] [--processes K] [--only SUBSTRING]
# Each row takes the best of K processes of each binary (default 3), each the best of N runs:
# on this machine a process's times move by a fifth with its memory layout, not only with load.
set -euo pipefail
repo=$(pwd)
work=${RXSWIFT_BENCH_DIR:-/tmp/rxswift-bench}
source_git=${RXSWIFT_GIT:-https://github.com/ReactiveX/RxSwift.git}
ref=${RXSWIFT_REF:-HEAD}
runs=3
processes=3
only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --processes) processes="$2"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        *) echo "usage: scripts/rx/bench-rxswift.sh [--runs N] [--processes K] [--only SUBSTRING]" >&2; exit 2 ;;
    esac
done
[ -f Sources/rx-bench/main.swift ] || { echo "run from the repository's root" >&2; exit 2; }

# RxSwift's sources, at the commit asked for.
if [ ! -d "$work/RxSwift/.git" ]; then
    mkdir -p "$work"
    git clone --quiet "$source_git" "$work/RxSwift"
fi
git -C "$work/RxSwift" checkout --quiet --detach "$ref"

# The bench package: rx-bench's files (symlinked, so it always measures today's workloads)
# with UPSTREAM_RXSWIFT set, which leaves out our Resources counter.
mkdir -p "$work/bench/Sources"
ln -sfn "$repo/Sources/rx-bench" "$work/bench/Sources/rx-bench"
ln -sfn "$repo/Sources/CMallocCounter" "$work/bench/Sources/CMallocCounter"
cat > "$work/bench/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RxSwiftBench",
    dependencies: [.package(path: "../RxSwift")],
    targets: [
        .executableTarget(name: "rx-bench", dependencies: [.product(name: "RxSwift", package: "RxSwift"), "CMallocCounter"],
                          swiftSettings: [.define("UPSTREAM_RXSWIFT")]),
        .target(name: "CMallocCounter"),
    ],
    swiftLanguageModes: [.v6]
)
EOF

swift build -c release --product rx-bench >/dev/null
(cd "$work/bench" && swift build -c release --product rx-bench >/dev/null)
ours=$repo/.build/release/rx-bench
theirs=$work/bench/.build/release/rx-bench

# Prints "plain-ms rx-ms" of one row of an rx-bench run.
figures() {
    local name="$1"; shift
    "$@" --runs "$runs" --only "$name" | awk -v name="$name" 'index($0, name) == 1 { split(substr($0, 43), f, " "); print f[1], f[2] }'
}

# The smaller of two figures ("nan" or empty counts as none).
least() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || a == "nan" || (b != "" && b + 0 < a + 0)) print b; else print a }'; }

echo "RxSwift $(git -C "$work/RxSwift" rev-parse --short HEAD), best of $processes processes x $runs runs each; plain closures from our runs"
printf '%-42s %10s %10s %9s %10s %9s\n' workload "ours ms" "RxSwift ms" "RxSwift÷" "plain ms" "÷plain"
"$ours" --list | while IFS= read -r name; do
    if [ -n "$only" ] && [[ "$name" != *"$only"* ]]; then continue; fi
    plain=""; rx=""; upstream=""
    for _ in $(seq "$processes"); do
        read -r p r < <(figures "$name" "$ours")
        read -r _ u < <(figures "$name" "$theirs" --rx-only)
        plain=$(least "$plain" "$p"); rx=$(least "$rx" "$r"); upstream=$(least "$upstream" "$u")
    done
    awk -v n="$name" -v p="$plain" -v r="$rx" -v u="$upstream" \
        'BEGIN { printf "%-42s %10.2f %10.2f %8.1fx %10.2f %8.2fx\n", n, r, u, u / r, p, r / p }'
done
