// swift-tools-version:6.0
import PackageDescription

// An app on RxLive: a sign-up form whose view model is written as an RxSwift iOS app
// writes one, served on the web by depending on RxLive (here by path; an app elsewhere
// names the repository's URL instead).
let package = Package(
    name: "SignUp",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RxLive", path: "../.."),
    ],
    targets: [
        // The view model and its services: RxSwift only, as in an iOS app.
        .target(name: "SignUp", dependencies: [
            .product(name: "RxSwift", package: "RxLive"),
            .product(name: "RxCocoa", package: "RxLive"),
        ]),
        // The server: the view model declared on the wire, served by RxLive.
        .executableTarget(name: "signup-server", dependencies: [
            "SignUp",
            .product(name: "RxCocoa", package: "RxLive"),
            .product(name: "RxLive", package: "RxLive"),
        ]),
        .testTarget(name: "SignUpTests", dependencies: [
            "SignUp",
            .product(name: "RxSwift", package: "RxLive"),
            .product(name: "RxCocoa", package: "RxLive"),
            .product(name: "RxTest", package: "RxLive"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
