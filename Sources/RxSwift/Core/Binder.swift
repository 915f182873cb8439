/// An observer for UI-like bindings: applies each element to a weakly held target on a
/// scheduler (default: `MainScheduler.instance`). Errors are programmer errors (stop in
/// debug builds); completion is ignored.
public struct Binder<Value>: ObserverType {
    /// The element type.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// A binder that calls `binding(target, value)` for each element while `target` lives.
    public init<Target: AnyObject>(_ target: Target, scheduler: ImmediateSchedulerType = MainScheduler.instance, binding: @escaping (Target, Value) -> Void) {
        self.binding = { [weak target] event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { [weak target] element in
                    if let target {
                        binding(target, element)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                rxFatalErrorInDebug("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Applies `event`.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// Erases the binder's type.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
