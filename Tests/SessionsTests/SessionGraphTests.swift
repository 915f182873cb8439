import RxSwift
import XCTest
@testable import Sessions

/// A session's outputs: subscribed in the order they are declared when the session opens, and
/// every one disposed when it closes, whether the view model has one output or several.
final class SessionGraphTests: XCTestCase {
    final class Log: @unchecked Sendable {  // used from the test's thread only
        var entries: [String] = []
    }

    /// `count` outputs, each `Observable<Int>` noting its subscription and its disposal.
    struct Outputs {
        let streams: [Observable<Int>]
        init(count: Int, log: Log, input: Observable<String>) {
            streams = (0..<count).map { index in
                input.map { _ in index }.do(onSubscribe: { log.entries.append("subscribed \(index)") },
                                            onDispose: { log.entries.append("disposed \(index)") })
            }
        }
    }

    private func openAndClose(outputCount: Int) -> (log: [String], sent: [String]) {
        let start = Resources.total
        let log = Log()
        let outputs = (0..<outputCount).map { index in WireOutput<Outputs>("out\(index)", \.streams[index]) }
        let wire = WireViewModel(name: "many", transform: { Outputs(count: outputCount, log: log, input: $0) },
                                 input: { wire in wire.text("text") }, outputs: outputs)
        let transport = FakeTransport()
        let endpoint = SessionEndpoint(wire: wire, configuration: SessionConfiguration(),
                                       metrics: SessionMetrics(viewModels: ["many"]), logger: .quiet)
        let session = Session(endpoint: endpoint, transport: transport)
        session.open()
        _ = transport.takeSent()
        session.receive(textMessage("text", "x"))
        let sent = transport.takeSent()
        session.close()
        XCTAssertEqual(Resources.total, start, "\(outputCount) outputs: nothing left once closed")
        return (log.entries, sent)
    }

    func testOneOutputIsSubscribedAndDisposed() {
        let (log, sent) = openAndClose(outputCount: 1)
        XCTAssertEqual(log, ["subscribed 0", "disposed 0"])
        XCTAssertEqual(sent, [output("out0", "0")])
    }

    func testEveryOutputOfSeveralIsSubscribedInOrderAndDisposed() {
        let (log, sent) = openAndClose(outputCount: 3)
        XCTAssertEqual(Array(log.prefix(3)), ["subscribed 0", "subscribed 1", "subscribed 2"])
        XCTAssertEqual(Set(log.dropFirst(3)), ["disposed 0", "disposed 1", "disposed 2"])
        XCTAssertEqual(log.count, 6)
        XCTAssertEqual(sent, [output("out0", "0"), output("out1", "1"), output("out2", "2")])
    }
}

/// The subscriptions a session's build collects: one operator's disposer is the disposal
/// itself, any other number disposed together in the order they were made.
final class CollectedSubscriptionsTests: XCTestCase {
    final class Noting: Disposable, @unchecked Sendable {  // used from the test's thread only
        let name: String
        let log: SessionGraphTests.Log
        init(_ name: String, _ log: SessionGraphTests.Log) { self.name = name; self.log = log }
        func dispose() { log.entries.append(name) }
    }

    func testNoneOneAndSeveralAreDisposedInTheOrderCollected() {
        XCTAssertNil(SessionGraph(feeds: CollectedFeeds(), subscriptions: CollectedSubscriptions()).disposal)
        let log = SessionGraphTests.Log()
        var several = CollectedSubscriptions()
        for name in ["a", "b", "c", "d"] { several.append(Noting(name, log)) }
        XCTAssertEqual(several.rest.count, 2)
        SessionGraph(feeds: CollectedFeeds(), subscriptions: several).disposal?.dispose()
        XCTAssertEqual(log.entries, ["a", "b", "c", "d"])
        var two = CollectedSubscriptions()
        for name in ["e", "f"] { two.append(Noting(name, log)) }
        XCTAssertTrue(two.rest.isEmpty)
        SessionGraph(feeds: CollectedFeeds(), subscriptions: two).disposal?.dispose()
        XCTAssertEqual(log.entries.suffix(2), ["e", "f"])
        var lone = CollectedSubscriptions()
        lone.append(Noting("g", log))
        guard case .many = SessionGraph(feeds: CollectedFeeds(), subscriptions: lone).disposal else {
            return XCTFail("a subscription that is not an operator's disposer is disposed through the list")
        }
        SessionGraph(feeds: CollectedFeeds(), subscriptions: lone).disposal?.dispose()
        XCTAssertEqual(log.entries.last, "g")
    }

    func testAnOperatorsDisposerAloneIsTheDisposal() {
        let start = Resources.total
        var received: [Int] = []
        do {
            let subject = PublishSubject<Int>()
            guard let disposer = subject.map({ $0 * 2 }).subscribe(AnyObserver { event in
                if case .next(let value) = event { received.append(value) }
            }) as? AnyObject & Disposable else {
                return XCTFail("an operator's subscription is an object")
            }
            var one = CollectedSubscriptions()
            one.append(disposer)
            guard case .one(let kept)? = SessionGraph(feeds: CollectedFeeds(), subscriptions: one).disposal else {
                return XCTFail("one operator's disposer is kept as itself")
            }
            XCTAssertTrue(kept === disposer)
            subject.onNext(1)
            SessionGraph(feeds: CollectedFeeds(), subscriptions: one).disposal?.dispose()
            subject.onNext(2)
        }
        XCTAssertEqual(received, [2])
        XCTAssertEqual(Resources.total, start)
    }
}

/// `WireOutput.reader`: a stored property of a struct is read at its offset, anything else
/// through the key path, and both give the value the key path gives.
final class WireOutputReaderTests: XCTestCase {
    struct Outputs {
        let first: Observable<Int>
        let second: Observable<String>
        var computed: Observable<String> { second }
    }

    final class ClassOutputs {
        let stream = Observable.just(3)
    }

    func testStoredComputedClassAndIdentityPathsReadTheSameStreamAsTheKeyPath() {
        let outputs = Outputs(first: .just(1), second: .just("two"))
        XCTAssertNotNil(MemoryLayout<Outputs>.offset(of: \Outputs.second), "read at its offset")
        XCTAssertTrue(WireOutput<Outputs>.reader(\.first)(outputs) === outputs.first)
        XCTAssertTrue(WireOutput<Outputs>.reader(\.second)(outputs) === outputs.second)
        XCTAssertNil(MemoryLayout<Outputs>.offset(of: \Outputs.computed), "read through the key path")
        XCTAssertTrue(WireOutput<Outputs>.reader(\.computed)(outputs) === outputs.second)
        let object = ClassOutputs()
        XCTAssertTrue(WireOutput<ClassOutputs>.reader(\.stream)(object) === object.stream)
        let alone = Observable.just(4)
        XCTAssertTrue(WireOutput<Observable<Int>>.reader(\.self)(alone) === alone)
    }
}
