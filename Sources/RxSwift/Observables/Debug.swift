#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

extension ObservableType {
    /// Prints every event, the subscription and the disposal of each subscription, each line
    /// as `<time>: <identifier> -> <what>` (as RxSwift's `debug`).
    ///
    /// - parameter identifier: Names the sequence in the output (default: file, line and function).
    /// - parameter trimOutput: Shortens long event descriptions to 40 characters.
    /// - returns: The source sequence, unchanged.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> Observable<Element> {
        let name = identifier ?? "\(file.split(separator: "/").last.map(String.init) ?? file):\(line) (\(function))"
        return Debug(source: asObservable(), identifier: name, trimOutput: trimOutput)
    }
}

/// Formats the lines `debug` prints.
private struct DebugLogger {
    private static let maxEventTextLength = 40

    let identifier: String
    let trimOutput: Bool

    init(identifier: String, trimOutput: Bool) {
        self.identifier = identifier
        self.trimOutput = trimOutput
    }

    func log(_ content: String) {
        print("\(Self.localTimestamp()): \(identifier) -> \(content)")
    }

    /// Now in local time as `yyyy-MM-dd HH:mm:ss.SSS`, from libc rather than a
    /// `DateFormatter` (which would link Foundation's ICU into every server).
    private static func localTimestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var local = tm()
        localtime_r(&seconds, &local)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(padded(Int(local.tm_year) + 1900, 4))-\(padded(Int(local.tm_mon) + 1, 2))-\(padded(Int(local.tm_mday), 2))"
        let time = "\(padded(Int(local.tm_hour), 2)):\(padded(Int(local.tm_min), 2)):\(padded(Int(local.tm_sec), 2))"
        return "\(date) \(time).\(padded(now.tv_nsec / 1_000_000, 3))"
    }

    func log<Element>(_ event: Event<Element>) {
        let text = "\(event)"
        if trimOutput && text.count > Self.maxEventTextLength {
            let half = Self.maxEventTextLength / 2
            log("Event \(text.prefix(half))...\(text.suffix(half))")
        } else {
            log("Event \(text)")
        }
    }
}

private final class DebugSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let logger: DebugLogger
    /// Set by the first `dispose()`, so "isDisposed" is printed once.
    private let disposeLogged = Atomic<Bool>(false)

    init(logger: DebugLogger, observer: Observer, cancel: SinkDisposer) {
        self.logger = logger
        super.init(observer: observer, cancel: cancel)
        logger.log("subscribed")
    }

    func on(_ event: Event<Element>) {
        logger.log(event)
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }

    override func dispose() {
        if !disposeLogged.exchange(true, ordering: .acquiringAndReleasing) {
            logger.log("isDisposed")
        }
        super.dispose()
    }
}

private final class Debug<Element>: Producer<Element> {
    private let source: Observable<Element>
    private let identifier: String
    private let trimOutput: Bool

    init(source: Observable<Element>, identifier: String, trimOutput: Bool) {
        self.source = source
        self.identifier = identifier
        self.trimOutput = trimOutput
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let logger = DebugLogger(identifier: identifier, trimOutput: trimOutput)
        let sink = DebugSink(logger: logger, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        return (sink: sink, subscription: subscription)
    }
}
