import Glibc

/// Starts a detached POSIX thread with a name, for the servers' long-lived threads (event
/// loops, worker pools, watchers). Foundation's `Thread` would do the same, but linking
/// Foundation costs every process about 8 MB of resident pages before its first session.
public enum NamedThread {
    /// Starts `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            NamedThread.nameCallingThread(body.name)
            body.run()
            return nil
        }, box)
        guard created == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            fatalError("pthread_create: \(String(cString: strerror(created)))")
        }
        pthread_detach(thread)
    }

    /// Sleeps the calling thread for `seconds` (at least), resuming after a signal.
    public static func sleep(seconds: Double) {
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&remaining, &left) == -1 && errno == EINTR { remaining = left }
    }

    /// Glibc's module lacks `pthread_setname_np` (a GNU extension); the kernel's own file
    /// for the calling thread's name does the same.
    private static func nameCallingThread(_ name: String) {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        defer { close(file) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
