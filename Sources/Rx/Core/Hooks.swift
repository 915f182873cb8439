import Synchronization

/// A misuse of the event grammar's threading rules, found in debug builds.
public enum SynchronizationAnomaly: Sendable, Equatable {
    /// An observer received an event while it was still handling the previous one on the same
    /// thread (reentrancy). Allowed but usually a bug; the event is still delivered.
    case reentrancy
    /// Two threads delivered events to one observer at the same time.
    case concurrentAccess
}

/// Global hooks of the library.
public enum Hooks {
    /// Called with errors that reach `subscribe(onNext:...)` with no `onError` handler.
    public typealias DefaultErrorHandler = @Sendable (_ error: Swift.Error) -> Void
    /// Called when a debug build finds a synchronization anomaly.
    public typealias SynchronizationAnomalyHandler = @Sendable (_ anomaly: SynchronizationAnomaly) -> Void

    private static let state = Mutex<(DefaultErrorHandler, SynchronizationAnomalyHandler)>((
        { error in
            #if DEBUG
            print("Unhandled error happened: \(error)")
            #endif
        },
        { anomaly in
            switch anomaly {
            case .reentrancy:
                print("⚠️ Reentrancy anomaly was detected: an observer received an event while handling another on the same thread.")
            case .concurrentAccess:
                fatalError("Unsynchronized access: two threads sent events to one observer at the same time.")
            }
        }
    ))

    /// Handler for errors nobody handles. Default: prints in debug builds.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.0 } }
        set { state.withLock { $0.0 = newValue } }
    }

    /// Handler for synchronization anomalies found in debug builds.
    /// Default: prints on reentrancy, stops the program on concurrent access.
    public static var synchronizationAnomalyHandler: SynchronizationAnomalyHandler {
        get { state.withLock { $0.1 } }
        set { state.withLock { $0.1 = newValue } }
    }
}
