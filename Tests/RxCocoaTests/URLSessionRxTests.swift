import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import RxSwift
import RxCocoa
import XCTest

/// `URLSession.rx` against a real HTTP server on 127.0.0.1.
final class URLSessionRxTests: RxCocoaTestCase {
    private var server: OneShotHTTPServer!
    private var session: URLSession!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try OneShotHTTPServer(routes: [
            "/user": .init(status: 200, body: #"{"name":"ada","id":7}"#),
            "/missing": .init(status: 404, body: "nope"),
            "/garbled": .init(status: 200, body: "not json"),
        ])
        session = URLSession(configuration: .ephemeral)
    }

    override func tearDown() {
        session.invalidateAndCancel()
        server.stop()
        super.tearDown()
    }

    func testJSONOfASuccessfulResponse() async throws {
        let values = try await session.rx.json(url: server.url("/user")).toArray().value
        let object = try XCTUnwrap(values.first as? [String: Any])
        XCTAssertEqual(values.count, 1)
        XCTAssertEqual(object["name"] as? String, "ada")
        XCTAssertEqual(object["id"] as? Int, 7)
    }

    func testResponseGivesAnyStatusAndDataFailsOnNon2xx() async throws {
        let request = URLRequest(url: server.url("/missing"))
        let pair = try await session.rx.response(request: request).asSingle().value
        XCTAssertEqual(pair.response.statusCode, 404)
        XCTAssertEqual(String(decoding: pair.data, as: UTF8.self), "nope")
        do {
            _ = try await session.rx.data(request: request).asSingle().value
            XCTFail("a 404 must fail data(request:)")
        } catch RxCocoaURLError.httpRequestFailed(let response, let data) {
            XCTAssertEqual(response.statusCode, 404)
            XCTAssertEqual(data.map { String(decoding: $0, as: UTF8.self) }, "nope")
        }
    }

    func testJSONThatDoesNotParseFailsWithDeserializationError() async {
        do {
            _ = try await session.rx.json(request: URLRequest(url: server.url("/garbled"))).asSingle().value
            XCTFail("must fail")
        } catch RxCocoaURLError.deserializationError {
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testDisposingCancelsTheRequest() throws {
        var events = 0
        let subscription = session.rx.data(request: URLRequest(url: server.url("/never"))).subscribe { _ in events += 1 }
        let deadline = Date().addingTimeInterval(10)
        while !server.pathsRequested.contains("/never") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTAssertEqual(server.pathsRequested, ["/never"])
        subscription.dispose()
        while !server.pathsHungUp.contains("/never") && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        XCTAssertEqual(server.pathsHungUp, ["/never"], "cancelling the task closed the connection")
        XCTAssertEqual(events, 0, "a disposed request sends nothing")
    }

    func testShouldLogRequestIsAskedForEachRequestInDebugBuilds() async throws {
        final class Asked: @unchecked Sendable { // `lock` guards `paths`
            private let lock = NSLock()
            private var stored: [String] = []
            func append(_ path: String) { lock.lock(); stored.append(path); lock.unlock() }
            var paths: [String] { lock.lock(); defer { lock.unlock() }; return stored }
        }
        let asked = Asked()
        URLSession.rx.shouldLogRequest = { request in
            asked.append(request.url?.path ?? "")
            return false
        }
        defer { URLSession.rx.shouldLogRequest = { _ in false } }
        _ = try await session.rx.data(request: URLRequest(url: server.url("/user"))).asSingle().value
        #if DEBUG
        XCTAssertEqual(asked.paths, ["/user"])
        #else
        XCTAssertEqual(asked.paths, [], "release builds never log")
        #endif
    }
}
