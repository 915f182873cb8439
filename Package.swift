// swift-tools-version:6.0
import PackageDescription

// SwiftPM refuses a versioned dependency whose targets have unsafe flags. The flags below
// (DWARF 4 C units for valgrind, no Foundation autolink for a lean `rxlive`) serve this
// repository's own builds, so a checkout that SwiftPM or Xcode made for a package depending on
// RxLive (under a `checkouts` folder) goes without them: its app links Foundation as usual.
let isCheckedOutAsDependency = Context.packageDirectory.split(separator: "/").contains("checkouts")
// DWARF 4: valgrind (callgrind in scripts/) cannot read a second DWARF 5 C unit.
let dwarf4: [CSetting] = isCheckedOutAsDependency ? [] : [.unsafeFlags(["-gdwarf-4"])]

// Every target builds in the Swift 6 language mode (complete strict concurrency).
let package = Package(
    name: "RxLive",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RxSwift", targets: ["RxSwift"]),
        .library(name: "RxRelay", targets: ["RxRelay"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
        .library(name: "RxCocoa", targets: ["RxCocoa"]),
        // The framework an app depends on to serve its own view models and page.
        .library(name: "RxLive", targets: ["RxLive"]),
        .executable(name: "rxlive", targets: ["rxlive"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.11.0"),  // 1.11: `LogEvent`
        .package(url: "https://github.com/apple/swift-metrics", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // `make docs`: the DocC catalogs of RxLive and Sessions.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Part 1: the Rx library, its relays, test kit and blocking helpers.
        .target(name: "RxSwift", dependencies: ["CRxResources"]),
        // Rx's per-thread state: the live-resource count and the trampoline's flag (C: Swift has no thread-local storage).
        .target(name: "CRxResources", cSettings: dwarf4),
        .target(name: "RxRelay", dependencies: ["RxSwift"]),
        .target(name: "RxTest", dependencies: ["RxSwift"]),
        .target(name: "RxBlocking", dependencies: ["RxSwift"]),
        .target(name: "RxCocoa", dependencies: ["RxSwift", "RxRelay"]),

        // Part 2: C shims, the libuv event loop, the WebSocket codec, the HTTP server.
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Named threads and standard error without Foundation (its libraries cost every process 8 MB resident).
        .target(name: "ProcessSupport"),
        .target(name: "EventLoop", dependencies: ["CLibUV", "ProcessSupport"]),
        // Rx on the loops: the loop scheduler, so the transport itself knows nothing of Rx.
        .target(name: "RxEventLoop", dependencies: ["EventLoop", "RxSwift"]),
        .target(name: "WebSocket", dependencies: ["COpenSSL", "CZlib"]),
        .target(name: "HTTPServer", dependencies: [
            "EventLoop", "WebSocket", "TLS", .product(name: "Logging", package: "swift-log"),
        ]),
        // TLS on a TCPConnection through OpenSSL with a BIO of our own (in memory), and the reloadable server context.
        .target(name: "TLS", dependencies: ["COpenSSL", "EventLoop"]),

        // Part 3: view models and the session bridge.
        .target(name: "ViewModels", dependencies: ["RxSwift"]),
        .target(name: "Sessions", dependencies: [
            "RxSwift", "HTTPServer", "EventLoop",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Part 4: accounts — password hashing, credential stores (SQLite, PostgreSQL), login throttling.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        // libpq's header, and libpq opened on first use (libpq-dev).
        .target(name: "CLibPQ", cSettings: dwarf4),
        .target(name: "Accounts", dependencies: ["CSQLite", "CArgon2", "CLibPQ", "COpenSSL", "RxSwift", "ProcessSupport"]),

        // The library an app serves itself with: its command line, configuration and serving.
        .target(name: "RxLive", dependencies: [
            "Sessions", "HTTPServer", "EventLoop", "RxEventLoop", "RxSwift", "TLS", "Accounts", "ProcessSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], exclude: ["ClientScript/rxlive.js"]),  // embedded as ClientScript.swift (scripts/embed-client-script.py)

        // Part 5: the app. The two forms' declarations, and `rxlive`, which serves them.
        .target(name: "RxLiveForms", dependencies: ["Sessions", "ViewModels", "Accounts", "RxSwift"]),
        .executableTarget(name: "rxlive", dependencies: ["RxLive", "RxLiveForms"]),
        .executableTarget(name: "autobahn-echo", dependencies: ["HTTPServer", "EventLoop", "TLS"]),
        .executableTarget(name: "rx-bench", dependencies: ["RxSwift", "CMallocCounter"]),
        .executableTarget(name: "ws-bench", dependencies: ["EventLoop", "WebSocket", "TLS"]),
        // Counting malloc for the benchmarks: linked into an executable, it counts every allocation.
        .target(name: "CMallocCounter"),

        // Tests mirror the sources; NetworkTestSupport holds the socket and loop-thread helpers two of them share.
        .target(name: "NetworkTestSupport", dependencies: ["EventLoop"], path: "Tests/NetworkTestSupport"),
        // Instance and malloc block sizes, for the tests that pin the sizes comments claim.
        .target(name: "ObjectSizeTestSupport", path: "Tests/ObjectSizeTestSupport"),
        // `rxlive` with a changed sum view model: what a replay against a later build must tell apart.
        .executableTarget(name: "replay-fixture", dependencies: ["RxLive", "RxLiveForms", "RxSwift", "ViewModels"],
                          path: "Tests/ReplayFixture"),
        .testTarget(name: "RxTests", dependencies: ["RxSwift", "RxRelay", "RxTest", "RxBlocking", "ObjectSizeTestSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "CLibUV", "NetworkTestSupport", "ObjectSizeTestSupport"]),
        .testTarget(name: "RxEventLoopTests", dependencies: ["RxEventLoop", "EventLoop", "RxSwift", "NetworkTestSupport"]),
        .testTarget(name: "WebSocketTests", dependencies: ["WebSocket"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "EventLoop", "NetworkTestSupport", "TLS", "COpenSSL", "ObjectSizeTestSupport"]),
        .testTarget(name: "ViewModelsTests", dependencies: ["ViewModels", "RxSwift", "RxTest"]),
        .testTarget(name: "RxCocoaTests", dependencies: ["RxSwift", "RxRelay", "RxCocoa", "RxTest"]),
        // RxExample-style files importing only RxSwift and RxCocoa, which must bring Foundation.
        .testTarget(name: "RxExampleStyleTests", dependencies: ["RxSwift", "RxCocoa", "RxTest"]),
        .testTarget(name: "RxCompatibilityTests", dependencies: ["RxSwift", "RxRelay", "RxCocoa", "RxTest", "RxBlocking"]),
        .testTarget(name: "SessionsTests", dependencies: [
            "Sessions", "HTTPServer", "RxLiveForms", "ViewModels", "RxSwift", "RxCocoa", "RxTest", "ObjectSizeTestSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "RxLiveTests", dependencies: [
            "RxLive", "Sessions", "RxSwift", "NetworkTestSupport", "COpenSSL",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "RxSwift", "RxBlocking"]),
    ],
    swiftLanguageModes: [.v6]
)

// RxSwift imports Foundation weakly, for OperationQueueScheduler and NSObject's rx alone. The
// server's modules, which use neither, ask the linker for no Foundation (each module importing
// RxSwift would otherwise name it), so `rxlive` does not load it: about 7 MB of RSS per process.
// They also see only the members of the modules they import themselves, so that none of
// Foundation's String methods is picked up through RxSwift. An app's own modules import
// Foundation when they use it, and link it as usual.
let foundationFreeModules: Set<String> = [
    "RxSwift", "RxEventLoop", "Sessions", "Accounts", "ViewModels", "RxLiveForms", "RxLive", "rxlive",
]
let noFoundationAutolink: [SwiftSetting] = isCheckedOutAsDependency ? [] : [.unsafeFlags([
    "-Xfrontend", "-disable-autolink-library", "-Xfrontend", "Foundation",
    "-Xfrontend", "-disable-autolink-library", "-Xfrontend", "FoundationInternationalization",
    "-Xfrontend", "-disable-autolink-library", "-Xfrontend", "_FoundationICU",
])]
for target in package.targets where foundationFreeModules.contains(target.name) {
    let visibility: [SwiftSetting] = target.name == "RxSwift" ? [] : [.enableUpcomingFeature("MemberImportVisibility")]
    target.swiftSettings = (target.swiftSettings ?? []) + noFoundationAutolink + visibility
}
