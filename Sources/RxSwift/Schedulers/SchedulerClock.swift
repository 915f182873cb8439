/// Which clock a scheduler keeps, for an operator that may take a shortcut on the real one.
///
/// On virtual time (a `VirtualTimeScheduler`, or the main schedulers with one as their host)
/// work scheduled at no delay runs a tick later, and marble tests see that tick. On the real
/// clock it takes its turn among other due work in an order no code can rely on (RxSwift's
/// dispatch queues give none), so an operator may do at once what it would have scheduled at
/// no delay.
@usableFromInline
enum SchedulerClock {
    /// `true` for the schedulers known to keep the real clock: the dispatch queue schedulers,
    /// a `MainSchedulerHost` (it has a thread), and the main schedulers while their host is
    /// one of these or none. Any other (virtual time, a scheduler of the application's own)
    /// counts as not.
    @usableFromInline
    static func isReal(_ scheduler: SchedulerType) -> Bool {
        // `MainScheduler.instance`, the usual, by its type's identity: a cast costs about 300.
        if ObjectIdentifier(type(of: scheduler)) == ObjectIdentifier(MainScheduler.self) {
            return MainThreadHost.currentRunsOnRealClock
        }
        if let serial = scheduler as? SerialDispatchQueueScheduler { return serial.runsOnRealClock }
        if scheduler is ConcurrentMainScheduler { return MainThreadHost.currentRunsOnRealClock }
        return scheduler is ConcurrentDispatchQueueScheduler || scheduler is any MainSchedulerHost
    }
}
