import Foundation
import RxSwift

extension Reactive where Base: NotificationCenter {
    /// The notifications named `name` (all with `nil`) posted by `object` (by anyone with
    /// `nil`), from subscription until disposal; each is sent on the thread that posts it,
    /// so posts from several threads at once overlap, as in RxSwift. `object` is held weakly.
    ///
    /// - returns: The sequence of notifications.
    public func notification(_ name: Notification.Name?, object: AnyObject? = nil) -> Observable<Notification> {
        Observable.create { [weak object] observer in
            // The center's block must be Sendable; the observer takes events from any thread.
            let transfer = UncheckedTransfer(observer)
            let token = self.base.addObserver(forName: name, object: object, queue: nil) { notification in
                transfer.value.on(.next(notification))
            }
            return Disposables.create {
                self.base.removeObserver(token)
            }
        }
    }
}

#if !canImport(Darwin)
/// On Apple platforms `NotificationCenter` is an `NSObject`, reactive like every `NSObject`;
/// swift-corelibs-foundation's is not, so it gets `rx` here.
extension NotificationCenter: ReactiveCompatible {}
#endif
