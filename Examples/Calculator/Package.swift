// swift-tools-version:6.0
import PackageDescription

// An app on RxLive: a calculator whose state is one `scan` over the keys pressed, written as
// RxSwift's example apps write theirs, served on the web by depending on RxLive by path.
let package = Package(
    name: "Calculator",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RxLive", path: "../.."),
    ],
    targets: [
        // The reducer and the view model: RxSwift and RxCocoa only, as in an iOS app.
        .target(name: "Calculator", dependencies: [
            .product(name: "RxSwift", package: "RxLive"),
            .product(name: "RxCocoa", package: "RxLive"),
        ]),
        // The server: the view model declared on the wire, served by RxLive.
        .executableTarget(name: "calculator-server", dependencies: [
            "Calculator",
            .product(name: "RxSwift", package: "RxLive"),
            .product(name: "RxLive", package: "RxLive"),
        ]),
        .testTarget(name: "CalculatorTests", dependencies: [
            "Calculator",
            .product(name: "RxSwift", package: "RxLive"),
            .product(name: "RxCocoa", package: "RxLive"),
            .product(name: "RxTest", package: "RxLive"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
