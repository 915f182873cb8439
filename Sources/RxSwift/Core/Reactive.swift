#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The namespace of a type's reactive extensions: `value.rx.something`.
///
/// Extend `Reactive where Base: YourType` to add them. For a class, each writable property
/// of the base is also reachable as a `Binder`: `object.rx.title` binds to `object.title`.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The value the extensions act on.
    public let base: Base

    /// The extensions of `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A `Binder` that sets the property at `keyPath` of `base` (held weakly) on
    /// `MainScheduler.instance`.
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

/// A type with reactive extensions, reached through `rx`.
public protocol ReactiveCompatible {
    /// The type the extensions act on.
    associatedtype ReactiveBase

    /// The reactive extensions of the type.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The reactive extensions of the value.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The reactive extensions of the type.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // Nothing to store: the setter only lets `rx` be used on mutable references.
        set {}
    }

    /// The reactive extensions of the value.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // Nothing to store: the setter only lets `rx` be used on mutable references.
        set {}
    }
}
