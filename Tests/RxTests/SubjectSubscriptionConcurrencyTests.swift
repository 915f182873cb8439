import Foundation
import RxSwift
import XCTest

/// A subject's subscriptions hold it without a weak reference, through a handshake between a
/// subscription's dispose and the subject letting it go. A dispose on one thread racing the
/// subject's release, termination or dispose on another must complete, deliver nothing
/// twice, and uncount every observer exactly once (`RxTestCase` checks the count returns to
/// its start). A released subject touched by a late dispose is a much narrower window: run
/// under `--sanitize=address` they may catch it, but cannot be relied on to.
final class SubjectSubscriptionConcurrencyTests: RxTestCase {
    private static let rounds = 500
    private static let observersPerSubject = 8

    func testDisposesRacingTheSubjectsReleaseLeaveNothing() {
        raceDisposes(against: { $0.releaseSubject() })
    }

    func testDisposesRacingTheTerminalEventLeaveNothing() {
        raceDisposes(against: { $0.complete() })
    }

    func testDisposesRacingTheSubjectsDisposeLeaveNothing() {
        raceDisposes(of: SubjectKind.allCases.filter { $0 != .async }, against: { $0.disposeSubject() })
    }

    /// Per round: a subject of each kind with its observers; one thread disposes every
    /// subscription while another runs `other`; then the subject is released.
    private func raceDisposes(of kinds: [SubjectKind] = SubjectKind.allCases, against other: @escaping @Sendable (Race) -> Void) {
        for kind in kinds {
            for _ in 0..<Self.rounds {
                let race = Race(kind.make(), observers: Self.observersPerSubject)
                DispatchQueue.concurrentPerform(iterations: 2) { side in
                    if side == 0 { other(race) } else { race.disposeAll() }
                }
                race.releaseSubject()
            }
        }
    }

    func testObserverDisposingItselfOnCompletionIsUncountedOnce() {
        let subject = PublishSubject<Int>()
        var subscription: Disposable?
        var events = 0
        subscription = subject.subscribe(onNext: { _ in events += 1 }, onCompleted: {
            events += 1
            subscription?.dispose()
        })
        let other = subject.subscribe(onNext: { _ in events += 1 })
        subject.onNext(1)
        subject.onCompleted()
        other.dispose()
        subscription?.dispose()
        subscription = nil  // the closure holds it: break that cycle
        XCTAssertEqual(events, 3)
        XCTAssertFalse(subject.hasObservers)
    }
}

private enum SubjectKind: CaseIterable {
    case publish, behavior, replay, async

    func make() -> SubjectUnderRace {
        switch self {
        case .publish:
            let subject = PublishSubject<Int>()
            return SubjectUnderRace(subject: subject, observable: subject.asObservable(), complete: subject.onCompleted, dispose: subject.dispose)
        case .behavior:
            let subject = BehaviorSubject(value: 0)
            return SubjectUnderRace(subject: subject, observable: subject.asObservable(), complete: subject.onCompleted, dispose: subject.dispose)
        case .replay:
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            return SubjectUnderRace(subject: subject, observable: subject.asObservable(), complete: subject.onCompleted, dispose: subject.dispose)
        case .async:
            let subject = AsyncSubject<Int>()
            return SubjectUnderRace(subject: subject, observable: subject.asObservable(), complete: subject.onCompleted, dispose: {})
        }
    }
}

/// A subject seen through closures that hold it weakly, so that dropping `subject` releases it.
private struct SubjectUnderRace {
    var subject: AnyObject?
    let observable: Observable<Int>
    let complete: () -> Void
    let dispose: () -> Void

    init(subject: AnyObject, observable: Observable<Int>, complete: @escaping () -> Void, dispose: @escaping () -> Void) {
        self.subject = subject
        self.observable = observable
        self.complete = complete
        self.dispose = dispose
    }
}

/// One subject and its subscriptions, raced from two threads. `@unchecked Sendable`: `lock`
/// guards `subject` and the closures' references; each side runs on one thread.
private final class Race: @unchecked Sendable {
    private let lock = NSLock()
    private var subject: AnyObject?
    private var sendCompleted: (() -> Void)?
    private var disposeIt: (() -> Void)?
    private let subscriptions: [Disposable]

    init(_ under: SubjectUnderRace, observers: Int) {
        subscriptions = (0..<observers).map { _ in under.observable.subscribe(onNext: { _ in }) }
        subject = under.subject
        sendCompleted = under.complete
        disposeIt = under.dispose
        // `under` (with its observable and closures) goes away here; the closures stored
        // above are the only other references.
    }

    func releaseSubject() {
        lock.lock()
        let released = (subject, sendCompleted, disposeIt)
        subject = nil
        sendCompleted = nil
        disposeIt = nil
        lock.unlock()
        withExtendedLifetime(released) {}
    }

    func complete() {
        lock.lock()
        let sendCompleted = self.sendCompleted
        lock.unlock()
        sendCompleted?()
    }

    func disposeSubject() {
        lock.lock()
        let disposeIt = self.disposeIt
        lock.unlock()
        disposeIt?()
    }

    func disposeAll() {
        for subscription in subscriptions {
            subscription.dispose()
        }
    }
}
