// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets over RxLive's parsers: one executable per target, each defining
// `LLVMFuzzerTestOneInput` and a main that runs libFuzzer's driver on it. Build them only
// with the fuzzer sanitizer (scripts/fuzz does):
//   swift build -c debug -Xswiftc -sanitize=fuzzer,address --package-path Fuzz \
//       --scratch-path .build-fuzz
// They reach the parsers through the `RxLive` product, whose targets they are built from,
// and through `@testable import` for the few internal types (debug builds enable testing).
let package = Package(
    name: "RxLiveFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RxLive", path: ".."),
    ],
    targets: [
        // Reading a fuzz input as a stream of choices, and the invariant check that crashes.
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"]),
        // The declaration of libFuzzer's driver, which each target's main runs.
        .target(name: "CFuzzDriver"),
        .executableTarget(name: "fuzz-http", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-websocket", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-deflate-offer", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-inflate", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-client-message", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-tls", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-cookie", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
        .executableTarget(name: "fuzz-tls-records", dependencies: ["FuzzSupport", .product(name: "RxLive", package: "RxLive")]),
    ],
    swiftLanguageModes: [.v6]
)
