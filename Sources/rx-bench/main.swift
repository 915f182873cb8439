import Foundation
import RxSwift

// rx-bench: RxSwift's benchmark workloads on this library beside plain Swift closures doing
// the same work, in the same run. Usage:
//   Each row: best of N interleaved runs of each side (default 5), in milliseconds, then the
//   allocations (malloc calls, counted by CMallocCounter) per subscription on "creating" rows
//   and per element on "pumping" rows.
//   swift run -c release rx-bench [--runs N] [--scale F] [--only SUBSTRING] [--rx-only|--plain-only] [--list]

struct Options: Sendable {
    var runs = 5
    var scale = 1.0
    var only: String?
    var rxOnly = false
    var plainOnly = false
    var list = false

    static func parse() -> Options {
        var options = Options()
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--runs": options.runs = Int(arguments.next() ?? "") ?? options.runs
            case "--scale": options.scale = Double(arguments.next() ?? "") ?? options.scale
            case "--only": options.only = arguments.next()
            case "--rx-only": options.rxOnly = true
            case "--plain-only": options.plainOnly = true
            case "--list": options.list = true
            default:
                print("usage: rx-bench [--runs N] [--scale F] [--only SUBSTRING] [--rx-only|--plain-only] [--list]")
                exit(2)
            }
        }
        return options
    }
}

let options = Options.parse()
let runs = options.runs, only = options.only, rxOnly = options.rxOnly, plainOnly = options.plainOnly

func scaled(_ count: Int) -> Int { max(1, Int(Double(count) * options.scale)) }

let subjectPumpCount = scaled(1_000_000)
let subjectCreateCount = scaled(100_000)
let pumpCount = scaled(100_000)
let createCount = scaled(10_000)

let workloads: [Workload] = [
    Workload(name: "PublishSubject pumping", target: 8, iterations: subjectPumpCount,
             rx: { RxWorkloads.subjectPumping(subjectPumpCount) },
             plain: { PlainWorkloads.subjectPumping(subjectPumpCount) }),
    Workload(name: "PublishSubject pumping, two subscriptions", target: 3.6, iterations: subjectPumpCount,
             rx: { RxWorkloads.subjectPumpingTwoSubscriptions(subjectPumpCount) },
             plain: { PlainWorkloads.subjectPumpingTwoSubscriptions(subjectPumpCount) }),
    Workload(name: "PublishSubject creating", target: 6.9, iterations: subjectCreateCount,
             rx: { RxWorkloads.subjectCreating(subjectCreateCount) },
             plain: { PlainWorkloads.subjectCreating(subjectCreateCount) }),
    Workload(name: "map/filter x6 pumping", target: 8, iterations: pumpCount,
             rx: { RxWorkloads.mapFilterPumping(pumpCount) },
             plain: { PlainWorkloads.mapFilterPumping(pumpCount) }),
    Workload(name: "map/filter x6 creating", target: 6.5, iterations: createCount,
             rx: { RxWorkloads.mapFilterCreating(createCount) },
             plain: { PlainWorkloads.mapFilterCreating(createCount) }),
    Workload(name: "flatMap x5 pumping", target: 8, iterations: pumpCount,
             rx: { RxWorkloads.flatMapPumping(pumpCount) },
             plain: { PlainWorkloads.flatMapPumping(pumpCount) }),
    Workload(name: "flatMap x5 creating", target: 14, iterations: createCount,
             rx: { RxWorkloads.flatMapCreating(createCount) },
             plain: { PlainWorkloads.flatMapCreating(createCount) }),
    Workload(name: "flatMapLatest x5 pumping", target: 4.1, iterations: pumpCount,
             rx: { RxWorkloads.flatMapLatestPumping(pumpCount) },
             plain: { PlainWorkloads.flatMapLatestPumping(pumpCount) }),
    Workload(name: "flatMapLatest x5 creating", target: 6.7, iterations: createCount,
             rx: { RxWorkloads.flatMapLatestCreating(createCount) },
             plain: { PlainWorkloads.flatMapLatestCreating(createCount) }),
    Workload(name: "combineLatest x7 pumping", target: 3.2, iterations: pumpCount,
             rx: { RxWorkloads.combineLatestPumping(pumpCount) },
             plain: { PlainWorkloads.combineLatestPumping(pumpCount) }),
    Workload(name: "combineLatest x7 creating", target: 5.7, iterations: createCount,
             rx: { RxWorkloads.combineLatestCreating(createCount) },
             plain: { PlainWorkloads.combineLatestCreating(createCount) }),
    // Not in RxSwift's set: flatMap's general path (inner sequences that are not `just`,
    // which flatMap and flatMapLatest forward directly). No target.
    Workload(name: "flatMap x5 pumping, inner create", target: .nan, iterations: pumpCount,
             rx: { RxWorkloads.flatMapGeneralPumping(pumpCount) },
             plain: { PlainWorkloads.flatMapPumping(pumpCount) }),
    Workload(name: "flatMapLatest x5 pumping, inner create", target: .nan, iterations: pumpCount,
             rx: { RxWorkloads.flatMapLatestGeneralPumping(pumpCount) },
             plain: { PlainWorkloads.flatMapLatestPumping(pumpCount) }),
]

if options.list {
    workloads.forEach { print($0.name) }
    exit(0)
}

// scripts/rx/bench-rxswift.sh builds these same files against RxSwift itself, which counts
// resources only when built with TRACE_RESOURCES (left off there, as in its own release builds).
#if UPSTREAM_RXSWIFT
let resourcesAtStart = 0, resourcesAtEnd = 0
#else
let resourcesAtStart = Resources.total
#endif
print(padRight("workload", 42) + pad("plain ms", 10) + pad("rx ms", 10) + pad("rx/plain", 10) + pad("target", 8) + "    "
      + pad("plain allocs", 13) + pad("rx allocs", 10))
print(String(repeating: "-", count: 109))
var failures = 0
for workload in workloads {
    if let only, workload.name != only, !workloads.contains(where: { $0.name == only }) ? !workload.name.contains(only) : true { continue }
    let result = measurePair(runs: runs, plain: rxOnly ? nil : workload.plain, rx: plainOnly ? nil : workload.rx)
    if !rxOnly && !plainOnly && result.plain.checksum != result.rx.checksum {
        print("checksum mismatch in \(workload.name): plain \(result.plain.checksum), rx \(result.rx.checksum)")
        failures += 1
    }
    let plainSeconds = rxOnly ? Double.nan : result.plain.seconds, rxSeconds = plainOnly ? Double.nan : result.rx.seconds
    let ratio = rxSeconds / plainSeconds
    let verdict = ratio.isNaN || workload.target.isNaN ? "" : (ratio <= workload.target ? "ok" : "MISS")
    print(padRight(workload.name, 42) + formatMilliseconds(plainSeconds) + formatMilliseconds(rxSeconds)
          + pad(ratio.isNaN ? "-" : String(format: "%.2fx", ratio), 10) + pad(workload.target.isNaN ? "-" : String(format: "%.1fx", workload.target), 8)
          + "  " + padRight(verdict, 4)
          + pad(formatAllocations(result.plain, iterations: workload.iterations), 13) + pad(formatAllocations(result.rx, iterations: workload.iterations), 10))
}
#if !UPSTREAM_RXSWIFT
let resourcesAtEnd = Resources.total - resourcesAtStart
print("Resources.total: \(Resources.total) (at start \(resourcesAtStart)); counting is always on")
#endif
exit(failures == 0 && resourcesAtEnd == 0 ? 0 : 1)
