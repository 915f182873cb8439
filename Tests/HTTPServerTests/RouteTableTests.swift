@testable import HTTPServer
import XCTest

/// The route table finds a path by comparing while it has few paths and by hashing past
/// that: both answer every path alike, and a path's routes of each kind are all kept.
final class RouteTableTests: XCTestCase {
    /// The path a found entry was registered for, read from its response route.
    private func registeredPath(_ routes: HTTPServer.PathRoutes?) -> String? {
        guard let response = routes?.response else { return nil }
        return String(decoding: response(HTTPRequestHead(method: "GET", target: "/")).body, as: UTF8.self)
    }

    private func table(of paths: [String]) -> RouteTable {
        var table = RouteTable()
        for path in paths {
            table.update(path) { $0.response = { _ in HTTPResponse(status: 200, contentType: "text/plain", body: path) } }
        }
        return table
    }

    func testTheScanAndTheDictionaryFindTheSamePaths() {
        let registered = ["/", "/ws/sum", "/ws/login", "/healthz", "/sign-in/redeem", "/dashboard/a-rather-long-path-name",
                          "/caf\u{E9}"]
        let asked = registered + ["", "/ws", "/ws/sum/", "/WS/SUM", "/ws/su", "/ws/summ", "/dashboard/a-rather-long-path-nam",
                                  "/cafe\u{301}", "/other"]
        // Below the scan's limit, at it and past it (where the dictionary answers alone).
        for count in [0, 1, RouteTable.scanLimit - registered.count, RouteTable.scanLimit + 1 - registered.count, 40] {
            let paths = registered + (0..<count).map { "/extra/\($0)" }
            let routes = table(of: paths)
            for path in asked + paths {
                XCTAssertEqual(registeredPath(routes[path]), registeredPath(routes.hashedLookUp(path)), "\(path) of \(paths.count)")
            }
            for path in paths {
                XCTAssertEqual(registeredPath(routes[path]), path, "\(path) of \(paths.count)")
            }
            XCTAssertNil(routes["/ws"], "\(paths.count)")
        }
    }

    /// A canonically equivalent spelling is the same `String`, so the same route, both ways.
    func testEquivalentSpellingsFindTheSameRoute() {
        let routes = table(of: ["/caf\u{E9}"])
        XCTAssertEqual(registeredPath(routes["/cafe\u{301}"]), "/caf\u{E9}")
        XCTAssertEqual(registeredPath(routes.hashedLookUp("/cafe\u{301}")), "/caf\u{E9}")
    }

    func testEveryKindOfRouteOfAPathIsKept() {
        var routes = table(of: ["/ws/sum"])
        routes.update("/ws/sum") { $0.webSocket = { fatalError("not called") } }
        routes.update("/other") { $0.deferred = DeferredRoute(methods: ["POST"], handler: { _, _ in }) }
        XCTAssertEqual(registeredPath(routes["/ws/sum"]), "/ws/sum")
        XCTAssertNotNil(routes["/ws/sum"]?.webSocket)
        XCTAssertNil(routes["/ws/sum"]?.deferred)
        XCTAssertEqual(routes["/other"]?.deferred?.methods, ["POST"])
        XCTAssertNil(routes["/other"]?.response)
    }
}
