// swift-tools-version:6.0
import PackageDescription

// Every target builds in the Swift 6 language mode (complete strict concurrency).
let package = Package(
    name: "RxLive",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Rx", targets: ["Rx"]),
        .library(name: "RxRelay", targets: ["RxRelay"]),
        .library(name: "RxTest", targets: ["RxTest"]),
        .library(name: "RxBlocking", targets: ["RxBlocking"]),
        .executable(name: "rxlive", targets: ["rxlive"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // Part 1: the Rx library, its relays, test kit and blocking helpers.
        .target(name: "Rx"),
        .target(name: "RxRelay", dependencies: ["Rx"]),
        .target(name: "RxTest", dependencies: ["Rx"]),
        .target(name: "RxBlocking", dependencies: ["Rx"]),

        // Part 2: C shims, the libuv event loop, the WebSocket codec, the HTTP server.
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "EventLoop", dependencies: ["CLibUV", "Rx"]),
        .target(name: "WebSocket", dependencies: ["COpenSSL", "CZlib"]),
        .target(name: "HTTPServer", dependencies: [
            "EventLoop", "WebSocket", .product(name: "Logging", package: "swift-log"),
        ]),

        // Part 3: view models and the session bridge.
        .target(name: "ViewModels", dependencies: ["Rx"]),
        .target(name: "Sessions", dependencies: [
            "Rx", "RxRelay", "ViewModels", "HTTPServer", "EventLoop",
            .product(name: "Logging", package: "swift-log"),
        ]),

        // Executables.
        .executableTarget(name: "rxlive", dependencies: [
            "Sessions", "HTTPServer", "EventLoop", "Rx",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "autobahn-echo", dependencies: ["HTTPServer", "EventLoop"]),
        .executableTarget(name: "rx-bench", dependencies: ["Rx", "RxRelay"]),
        .executableTarget(name: "ws-bench", dependencies: ["CLibUV", "WebSocket"]),

        // Tests mirror the sources; NetworkTestSupport holds the socket and loop-thread helpers two of them share.
        .target(name: "NetworkTestSupport", dependencies: ["EventLoop"], path: "Tests/NetworkTestSupport"),
        .testTarget(name: "RxTests", dependencies: ["Rx", "RxRelay", "RxTest", "RxBlocking"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop", "Rx", "NetworkTestSupport"]),
        .testTarget(name: "WebSocketTests", dependencies: ["WebSocket"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "EventLoop", "WebSocket", "NetworkTestSupport"]),
        .testTarget(name: "ViewModelsTests", dependencies: ["ViewModels", "Rx", "RxTest"]),
        .testTarget(name: "SessionsTests", dependencies: ["Sessions", "ViewModels", "Rx", "RxTest", "HTTPServer", "EventLoop"]),
    ],
    swiftLanguageModes: [.v6]
)
