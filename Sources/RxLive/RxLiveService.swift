import FoundationEssentials
import Glibc
import ProcessSupport
import Logging
import RxSwift
import ServiceLifecycle
import Synchronization

/// An RxLive server as a swift-service-lifecycle `Service`, to run beside an app's other
/// services in one `ServiceGroup`: the group's graceful shutdown (SIGTERM, say) drains it
/// as `rxlive` drains on SIGTERM (the drain grace, then sessions closed with 1001), and
/// `run()` returns when every loop has stopped.
///
///     let server = try RxLiveService(app: app, configuration: Configuration(environment: env), logger: logger)
///     let group = ServiceGroup(configuration: .init(services: [server, other], gracefulShutdownSignals: [.sigterm], logger: logger))
///     try await group.run()
public final class RxLiveService: Service, Sendable {
    private let server: RunningServer

    /// Starts listening for `app` with `configuration` (its public folder already resolved):
    /// a port in use throws here, before any service runs.
    public init(app: RxLiveApp, configuration: Configuration, logger: Logger) throws {
        server = try RunningServer.start(configuration, app: app, logger: logger)
    }

    /// The port the server listens on.
    public var port: Int { server.port }

    /// Serves until the group shuts down gracefully (then drains) or the task is cancelled
    /// (then drains at once, without the grace).
    public func run() async throws {
        let server = self.server
        let stopped = LoopsStopped()
        NamedThread.start(name: "rxlive-loop-0") {
            server.runLoops()
            MainScheduler.resetHost()
            stopped.finish()
        }
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await stopped.wait()
            } onGracefulShutdown: {
                server.beginShutdown()
            }
        } onCancel: {
            server.beginShutdown()
            server.beginShutdown()  // a second request skips the drain grace, as a second SIGTERM does
        }
    }
}

/// Resumes the service's task once the loops' thread is done.
private final class LoopsStopped: Sendable {
    private let state = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.done = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.done { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
