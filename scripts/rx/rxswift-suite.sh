#!/bin/bash
# RxSwift's own Linux test suite, unchanged, run against this repository's Rx library.
# RxSwift's Linux build is its `AllTestz` executable: the test files its Sources/AllTestz links
# (Tests/RxSwiftTests, the RxCocoa, RxRelay and RxBlocking tests that build on Linux, the shared
# Tests/*.swift helpers, and the Platform/ data structures the tests use directly) with the
# generated LinuxMain (main.swift), built in debug with no -D flags in the Swift 5 language mode.
# This script copies those files, byte for byte, into a package outside this repository whose
# AllTestz target depends on this repository's RxSwift, RxCocoa, RxRelay, RxBlocking and RxTest
# (a path dependency), builds it, runs it, and counts the results.
# Usage (from the repository's root):
#   [RXSWIFT_GIT=/path/to/RxSwift(.git)|URL] [RXSWIFT_REF=HEAD] scripts/rx/rxswift-suite.sh [--min N] [--against-rxswift]
# RXSWIFT_SUITE_TIMEOUT (seconds, default 900) bounds each AllTestz process; RXSWIFT_SUITE_DIR is
# the work folder (default /tmp/rxswift-suite-<checkout's folder name>).
# Prints `rxswift-suite: passed=P failed=F total=T` and the failing tests; exits 0 only when P >= N
# (default 1095), 2 when RxSwift's repository or this package cannot be found.
# --against-rxswift runs the same suite against RxSwift's own modules instead, for comparison on
# this machine (see the comment there for the one test file it leaves out).
set -euo pipefail
repo=$(pwd)
work=${RXSWIFT_SUITE_DIR:-/tmp/rxswift-suite-$(basename "$repo")}
source_git=${RXSWIFT_GIT:-/work/.mirror/ReactiveX+RxSwift/repo}
ref=${RXSWIFT_REF:-HEAD}
minimum=1095
against=ours
while [ $# -gt 0 ]; do
    case "$1" in
        --min) minimum="$2"; shift 2 ;;
        --against-rxswift) against=rxswift; shift ;;
        *) echo "usage: scripts/rx/rxswift-suite.sh [--min N] [--against-rxswift]" >&2; exit 2 ;;
    esac
done
[ -f Sources/RxSwift/Core/Resources.swift ] || { echo "run from the repository's root" >&2; exit 2; }

# RxSwift's tree at the commit asked for: a local repository (bare or not) is read in place,
# anything else is cloned once into the work folder.
if git -C "$source_git" rev-parse --git-dir >/dev/null 2>&1; then
    rxswift_git=$source_git
else
    rxswift_git=$work/RxSwift.git
    [ -d "$rxswift_git" ] || git clone --quiet --bare "$source_git" "$rxswift_git" \
        || { echo "rxswift-suite: cannot read RxSwift's repository at $source_git" >&2; exit 2; }
fi
commit=$(git -C "$rxswift_git" rev-parse --short "$ref^{commit}")
rm -rf "$work/RxSwift"
mkdir -p "$work/RxSwift"
git -C "$rxswift_git" archive "$commit" Sources/AllTestz Tests Platform RxSwift | tar x -C "$work/RxSwift"

# The suite package. Sources/AllTestz in RxSwift is a folder of symbolic links; cp -L copies
# the files they name, unchanged.
package=$work/suite-$against
rm -rf "$package/Sources"
mkdir -p "$package/Sources/AllTestz"
cp -L --preserve=timestamps "$work/RxSwift/Sources/AllTestz/"*.swift "$package/Sources/AllTestz/"
# The one addition: Apple's XCTest gives `wait(for:)` a default timeout and swift-corelibs-xctest
# does not, so two tests in Observable+Tests.swift would not build on Linux at all. This overload
# supplies it (bounded, so a lost expectation fails instead of hanging the run).
cat > "$package/Sources/AllTestz/LinuxXCTestWaitDefault.swift" <<'SHIM'
import XCTest

extension XCTestCase {
    func wait(for expectations: [XCTestExpectation]) {
        wait(for: expectations, timeout: 10)
    }
}
SHIM
dependency=$repo
if [ "$against" = rxswift ]; then
    # RxSwift's modules as a package of their own: its Package.swift builds RxCocoa on Apple
    # platforms only, but RxCocoa builds on Linux without its Objective-C runtime folder.
    dependency=$work/rxswift-linux
    rm -rf "$dependency"/Rx* "$dependency/Platform"
    mkdir -p "$dependency"
    git -C "$rxswift_git" archive "$commit" RxSwift RxRelay RxBlocking RxTest RxCocoa Platform | tar x -C "$dependency"
    cat > "$dependency/Package.swift" <<'MANIFEST'
// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "RxSwift",
    products: ["RxSwift", "RxRelay", "RxBlocking", "RxTest", "RxCocoa"].map { .library(name: $0, targets: [$0]) },
    targets: [
        .target(name: "RxSwift", path: "RxSwift", exclude: ["PrivacyInfo.xcprivacy", "Info.plist"]),
        .target(name: "RxRelay", dependencies: ["RxSwift"], path: "RxRelay", exclude: ["PrivacyInfo.xcprivacy", "Info.plist"]),
        .target(name: "RxBlocking", dependencies: ["RxSwift"], path: "RxBlocking", exclude: ["Info.plist"]),
        .target(name: "RxTest", dependencies: ["RxSwift"], path: "RxTest", exclude: ["Info.plist"]),
        .target(name: "RxCocoa", dependencies: ["RxSwift", "RxRelay"], path: "RxCocoa",
                exclude: ["Runtime", "PrivacyInfo.xcprivacy", "Info.plist"]),
    ],
    swiftLanguageVersions: [.v5]
)
MANIFEST
    # RxSwift's RxCocoa has no NotificationCenter.rx on Linux, so its NotificationCenterTests
    # (2 tests) cannot build against it: that file and its class in the LinuxMain are left out.
    rm "$package/Sources/AllTestz/NotificationCenterTests.swift"
    awk '/^final class NSNotificationCenterTests_ / { skip = 1 } !skip && !/testCase\(NSNotificationCenterTests_/ { print } skip && /^}$/ { skip = 0 }' \
        "$work/RxSwift/Sources/AllTestz/main.swift" >"$package/Sources/AllTestz/main.swift"
fi
identity=$(basename "$dependency" | tr '[:upper:]' '[:lower:]')
cat > "$package/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

// RxSwift's AllTestz, as RxSwift's own Linux build makes it, against the Rx modules of $dependency.
let package = Package(
    name: "RxSwiftSuite",
    dependencies: [.package(path: "$dependency")],
    targets: [
        .executableTarget(name: "AllTestz", dependencies: [
            .product(name: "RxSwift", package: "$identity"),
            .product(name: "RxCocoa", package: "$identity"),
            .product(name: "RxRelay", package: "$identity"),
            .product(name: "RxBlocking", package: "$identity"),
            .product(name: "RxTest", package: "$identity"),
        ]),
    ],
    swiftLanguageModes: [.v5]
)
MANIFEST
echo "rxswift-suite: RxSwift $commit, building AllTestz against $dependency" >&2
if ! (cd "$package" && swift build --product AllTestz) >"$work/build.log" 2>&1; then
    grep -E "error:" "$work/build.log" | sort -u | awk 'NR <= 40' >&2
    echo "rxswift-suite: the build failed (all of it in $work/build.log)" >&2
    exit 1
fi
binary=$package/.build/debug/AllTestz

# The run. The whole suite runs in one process, in RxSwift's order, as RxSwift's Linux build
# runs it. A test that crashes the process or hangs past the time limit counts as failed, and
# a new process runs the tests after it, so one crash cannot hide the rest.
"$binary" --list-tests | grep '^AllTestz\.' >"$work/tests.txt"
total=$(wc -l <"$work/tests.txt")
: >"$work/run.log"
: >"$work/lost.txt"
remaining=$work/tests.txt
while [ -s "$remaining" ]; do
    selection=()
    [ "$remaining" = "$work/tests.txt" ] || selection=("$(paste -sd, "$remaining")")
    status=0
    timeout --kill-after=10 "${RXSWIFT_SUITE_TIMEOUT:-900}" "$binary" "${selection[@]}" >"$work/part.log" 2>&1 || status=$?
    cat "$work/part.log" >>"$work/run.log"
    # Ended by itself, with XCTest's last summary line: every test ran.
    if grep -q "^Test Suite '\(All\|Selected\) tests' \(passed\|failed\)" "$work/part.log"; then break; fi
    # The test that was running when the process ended, as AllTestz.Class/test.
    lost=$(awk -F"'" '/^Test Case .* started/ { last = $2 } /^Test Case .* (passed|failed)/ { last = "" } END { print last }' "$work/part.log" | sed 's/^/AllTestz./; s/\./\//2')
    if [ -z "$lost" ]; then echo "rxswift-suite: AllTestz ended (status $status) before a test started" >&2; break; fi
    echo "$lost exit=$status" >>"$work/lost.txt"
    grep -A "$total" -x -F "$lost" "$remaining" | tail -n +2 >"$work/rest.txt" || true
    cp "$work/rest.txt" "$work/remaining.txt"
    remaining=$work/remaining.txt
done

# Counting: each listed test passed, failed, or was lost (crashed or hung).
failed_names=$( { awk -F"'" '/^Test Case .* failed \(/ { print $2 }' "$work/run.log"
                  sed 's/^AllTestz\.//; s/\//./; s/ exit=.*//' "$work/lost.txt"; } | sort -u)
passed=$(awk -F"'" '/^Test Case .* passed \(/ { print $2 }' "$work/run.log" | sort -u | wc -l)
failed=$(printf '%s' "$failed_names" | grep -c . || true)
echo "rxswift-suite: passed=$passed failed=$failed total=$total"
if [ -n "$failed_names" ]; then
    while read -r name; do
        how=$( { grep -m1 -F "$name :" "$work/run.log" || true; } | sed 's/.*error: [^:]* : //' | cut -c1-160)
        grep -q -F "AllTestz.${name/./\/} " "$work/lost.txt" && how="the process ended in this test (crash or time limit)"
        echo "  failed: ${name/_./.}: $how"
    done <<<"$failed_names"
fi
[ "$passed" -ge "$minimum" ]
