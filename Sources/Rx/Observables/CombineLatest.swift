/// The parts of `combineLatest` shared by every arity (the arities themselves are generated
/// into `CombineLatest+arity.swift` by `Scripts/rx/generate_combine_latest.py`).
///
/// Every source's events are handled under the sink's recursive lock, so the downstream
/// observer never sees two events at once; the lock is recursive because a downstream
/// observer may feed a source again.

/// What a source observer reports to the combining sink.
protocol CombineLatestProtocol: AnyObject {
    /// Source `index` sent an element (already stored by its observer).
    func next(_ index: Int)
    /// A source failed.
    func fail(_ error: Swift.Error)
    /// Source `index` completed. (As in RxSwift, a source completing with no element ends
    /// the sequence only at the next element of another source, in `next`.)
    func done(_ index: Int)
}

/// Counts which sources have a value and which are done; emits once all have a value.
class CombineLatestSink<Observer: ObserverType>: Sink<Observer>, CombineLatestProtocol {
    typealias Element = Observer.Element

    let lock = RecursiveLock()

    private let arity: Int
    /// Guarded by `lock`, as is everything below.
    private var numberOfValues = 0
    private var numberOfDone = 0
    private var hasValue: [Bool]
    private var isDone: [Bool]

    init(arity: Int, observer: Observer, cancel: Cancelable) {
        self.arity = arity
        self.hasValue = [Bool](repeating: false, count: arity)
        self.isDone = [Bool](repeating: false, count: arity)
        super.init(observer: observer, cancel: cancel)
    }

    /// The result of the latest values. Abstract.
    func getResult() throws -> Element {
        rxAbstractMethod()
    }

    func next(_ index: Int) {
        if !hasValue[index] {
            hasValue[index] = true
            numberOfValues += 1
        }
        if numberOfValues == arity {
            do {
                let result = try getResult()
                forwardOn(.next(result))
            } catch {
                forwardOn(.error(error))
                dispose()
            }
        } else {
            // Some source has no value yet; if every other source is done, none ever will.
            var allOthersDone = true
            for other in 0..<arity where other != index && !isDone[other] {
                allOthersDone = false
                break
            }
            if allOthersDone {
                forwardOn(.completed)
                dispose()
            }
        }
    }

    func fail(_ error: Swift.Error) {
        forwardOn(.error(error))
        dispose()
    }

    func done(_ index: Int) {
        if isDone[index] {
            return
        }
        isDone[index] = true
        numberOfDone += 1
        if numberOfDone == arity {
            forwardOn(.completed)
            dispose()
        }
    }
}

/// Observes one source of a `combineLatest`: stores its element and tells the sink, under
/// the sink's lock.
final class CombineLatestObserver<Element>: ObserverType {
    typealias ValueSetter = (Element) -> Void

    private let parent: CombineLatestProtocol
    private let lock: RecursiveLock
    private let index: Int
    private let this: Disposable
    private let setLatestValue: ValueSetter

    init(lock: RecursiveLock, parent: CombineLatestProtocol, index: Int, setLatestValue: @escaping ValueSetter, this: Disposable) {
        self.lock = lock
        self.parent = parent
        self.index = index
        self.this = this
        self.setLatestValue = setLatestValue
    }

    func on(_ event: Event<Element>) {
        lock.performLocked {
            switch event {
            case .next(let value):
                setLatestValue(value)
                parent.next(index)
            case .error(let error):
                this.dispose()
                parent.fail(error)
            case .completed:
                this.dispose()
                parent.done(index)
            }
        }
    }
}
