import FoundationEssentials
import Glibc

/// The signals the server handles (SIGTERM and SIGINT drain it; SIGHUP, SIGUSR1, SIGUSR2
/// are logged), held back from the first instruction until their handlers are in place: a
/// signal that arrives while the server starts is delivered then, and drains it, instead of
/// ending the process by the default action with no drain and no word.
enum TerminationSignals {
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2]

    /// Blocks them on the calling thread, and so on every thread it starts from now on.
    static func hold() {
        change(SIG_BLOCK)
    }

    /// Unblocks them on the calling thread: a pending one is delivered now.
    static func release() {
        change(SIG_UNBLOCK)
    }

    private static func change(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        pthread_sigmask(how, &set, nil)
    }
}
