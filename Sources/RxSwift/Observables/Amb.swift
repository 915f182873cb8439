extension ObservableType {
    /// Mirrors whichever sequence of `sequence` sends an event first and disposes the others.
    ///
    /// - parameter sequence: The competing sequences.
    /// - returns: The sequence that reacted first.
    public static func amb<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        sequence.reduce(Observable<Element>.never()) { winner, next in
            winner.amb(next)
        }
    }

    /// Mirrors whichever of `self` and `right` sends an event first and disposes the other.
    ///
    /// - parameter right: The competing sequence.
    /// - returns: The sequence that reacted first.
    public func amb<Source: ObservableType>(_ right: Source) -> Observable<Element> where Source.Element == Element {
        Amb(left: asObservable(), right: right.asObservable())
    }
}

/// Which source won.
private enum AmbChoice {
    case neither
    case left
    case right
}

private final class AmbSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    private let parent: Amb<Element>
    /// Held while handling either source's events (recursive: the observer may feed a source
    /// again).
    let lock = RecursiveLock()
    /// Guarded by `lock`.
    private var choice = AmbChoice.neither
    private let leftSubscription = SingleAssignmentDisposable()
    private let rightSubscription = SingleAssignmentDisposable()

    init(parent: Amb<Element>, observer: Observer, cancel: SinkDisposer) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        leftSubscription.setDisposable(parent.left.subscribe(AmbObserver(parent: self, side: .left)))
        rightSubscription.setDisposable(parent.right.subscribe(AmbObserver(parent: self, side: .right)))
        return Disposables.create(leftSubscription, rightSubscription)
    }

    /// Handles an event of `side` (called holding `lock`).
    func on(_ event: Event<Element>, from side: AmbChoice) {
        if choice == .neither {
            choice = side
            if side == .left {
                rightSubscription.dispose()
            } else {
                leftSubscription.dispose()
            }
        }
        guard choice == side else { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        }
    }
}

private final class AmbObserver<Observer: ObserverType>: ObserverType {
    private let parent: AmbSink<Observer>
    private let side: AmbChoice

    init(parent: AmbSink<Observer>, side: AmbChoice) {
        self.parent = parent
        self.side = side
    }

    func on(_ event: Event<Observer.Element>) {
        parent.lock.performLocked {
            parent.on(event, from: side)
        }
    }
}

private final class Amb<Element>: Producer<Element> {
    let left: Observable<Element>
    let right: Observable<Element>

    init(left: Observable<Element>, right: Observable<Element>) {
        self.left = left
        self.right = right
        super.init()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: SinkDisposer) -> (sink: AnyObject & Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = AmbSink(parent: self, observer: observer, cancel: cancel)
        let subscription = sink.run()
        return (sink: sink, subscription: subscription)
    }
}
