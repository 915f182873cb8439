#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CRxResources
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A misuse of the event grammar's threading rules, found in debug builds.
public enum SynchronizationAnomaly: Sendable, Equatable {
    /// An observer received an event while it was still handling the previous one on the same
    /// thread (reentrancy). Allowed but usually a bug; the event is still delivered.
    case reentrancy
    /// Two threads delivered events to one observer at the same time.
    case concurrentAccess
}

/// Global hooks of the library, as RxSwift's `Hooks`.
///
/// Each hook may be read and replaced from any thread: reads and writes go through one lock.
/// Unlike RxSwift's, the closure types are `@Sendable` (they run on whatever thread the
/// failing sequence runs on); a closure literal assigned to a hook is inferred `@Sendable`,
/// so RxSwift's call sites compile unchanged.
public enum Hooks {
    /// Called with errors that reach `subscribe(onNext:...)` with no `onError` handler, and the
    /// call stack captured when that subscription was made (empty unless
    /// `recordCallStackOnError` was on then).
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void
    /// Captures the call stack of a subscription (used while `recordCallStackOnError` is on).
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]
    /// Called when a debug build finds a synchronization anomaly.
    public typealias SynchronizationAnomalyHandler = @Sendable (_ anomaly: SynchronizationAnomaly) -> Void

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = { subscriptionCallStack, error in
            #if DEBUG
            print("Unhandled error happened: \(error)")
            if !subscriptionCallStack.isEmpty {
                print("subscription called from:\n\(subscriptionCallStack.joined(separator: "\n"))")
            }
            #endif
        }
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = {
            #if DEBUG
            return callStackSymbols()
            #else
            return []
            #endif
        }
        var synchronizationAnomalyHandler: SynchronizationAnomalyHandler = { anomaly in
            switch anomaly {
            case .reentrancy:
                print("⚠️ Reentrancy anomaly was detected: an observer received an event while handling another on the same thread.")
            case .concurrentAccess:
                // A warning, as RxSwift's debug builds give unless built with FATAL_SYNCHRONIZATION:
                // its own suite sends two threads' events to one subject on purpose.
                print("⚠️ Synchronization anomaly was detected: two threads sent events to one observer at the same time.")
            }
        }
    }

    private static let state = Mutex(State())
    /// Read on every `subscribe(onNext:...)`: an atomic, so the common "off" costs one load.
    @usableFromInline
    static let recordsCallStack = Atomic<Bool>(false)

    /// Handler for errors nobody handles. Default: prints the error (and the subscription's
    /// call stack, if recorded) in debug builds, does nothing in release builds.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } }
        set { state.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// Captures a subscription's call stack while `recordCallStackOnError` is on. Default:
    /// `Thread.callStackSymbols` in debug builds, an empty stack in release builds.
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.customCaptureSubscriptionCallstack } }
        set { state.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// When on, `subscribe(onNext:...)` (and the traits' `subscribe`) captures the call stack
    /// with `customCaptureSubscriptionCallstack` and hands it to `defaultErrorHandler` if the
    /// sequence fails unhandled. Default: off (capturing costs time on every subscription).
    public static var recordCallStackOnError: Bool {
        get { recordsCallStack.load(ordering: .relaxed) }
        set { recordsCallStack.store(newValue, ordering: .relaxed) }
    }

    /// Handler for synchronization anomalies found in debug builds.
    /// Default: prints a warning for each (as RxSwift does unless built with FATAL_SYNCHRONIZATION).
    public static var synchronizationAnomalyHandler: SynchronizationAnomalyHandler {
        get { state.withLock { $0.synchronizationAnomalyHandler } }
        set { state.withLock { $0.synchronizationAnomalyHandler = newValue } }
    }

    /// The call stack to keep for a subscription made now: captured only while
    /// `recordCallStackOnError` is on.
    @inlinable
    static func subscriptionCallStack() -> [String] {
        recordsCallStack.load(ordering: .relaxed) ? customCaptureSubscriptionCallstack() : []
    }
}

/// The calling thread's stack, one frame a line, as Foundation's `Thread.callStackSymbols`
/// gives it (from libc, so that Rx links no more of Foundation than FoundationEssentials).
private func callStackSymbols() -> [String] {
    var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 128)
    let count = rx_backtrace(&frames, Int32(frames.count))
    guard let symbols = rx_backtrace_symbols(frames, count) else { return [] }
    defer { free(symbols) }
    return (0..<Int(count)).compactMap { symbols[$0].map { String(cString: $0) } }
}
