/// Another name of `Observable`, for code that also sees a type of that name from another
/// module (Combine's `Observable` protocol, for one).
public typealias RxObservable<Element> = RxSwift.Observable<Element>

/// A sequence of events over time: the base class of every observable of the library.
///
/// Abstract: operators subclass `Producer`; subjects subclass `Observable` directly.
public class Observable<Element>: ObservableType {
    @inlinable
    init() {
        Resources.add(1)
    }

    /// Subscribes `observer` to the events of this sequence. Abstract.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        rxAbstractMethod()
    }

    /// Subscribes an observer already erased to a closure. Operators subscribe to their
    /// sources through this entry point so that, in optimised client code, the closure they
    /// pass was created where every type is concrete (see `Producer.ErasedRun`).
    /// Default: `subscribe(observer)`.
    @usableFromInline
    func subscribeErased(_ observer: AnyObserver<Element>) -> Disposable {
        subscribe(observer)
    }

    /// `subscribeErased`, with the subscription as a class reference (`nil` when there is
    /// nothing to dispose), for sinks that keep one per source in 16 bytes (`RxLayoutTests`).
    /// Default: the subscription converted; producers and `PublishSubject` answer without a cast.
    @usableFromInline
    func subscribeErasedObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        disposableObject(subscribeErased(observer))
    }

    /// `subscribeErasedObject`, with a `PublishSubject` subscribed here, in the caller's
    /// code: called from a specialised sink, that makes the subject's subscription with its
    /// element type known. The subject's own override, reached through the class's table,
    /// runs unspecialised and looks up its subscription class's metadata (about 400
    /// instructions) each time. A session's text and tap inputs are `InlinePublishSubject`s.
    @inlinable @inline(__always)
    final func subscribeObject(_ observer: AnyObserver<Element>) -> (AnyObject & Disposable)? {
        if type(of: self) == PublishSubject<Element>.self {
            return unsafeDowncast(self, to: PublishSubject<Element>.self).subscribeHandler(observer.observer)
        }
        if type(of: self) == InlinePublishSubject<Element>.self {
            return unsafeDowncast(self, to: InlinePublishSubject<Element>.self).subscribeHandler(observer.observer)
        }
        return subscribeErasedObject(observer)
    }

    /// Returns `self` (final, so a call on a concrete observable inlines to nothing).
    @inlinable
    public final func asObservable() -> Observable<Element> { self }

    deinit {
        Resources.add(-1)
    }
}
