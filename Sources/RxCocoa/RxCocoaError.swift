/// Errors of RxCocoa's bindings, as RxSwift's RxCocoa declares them. Most cases come from its
/// UIKit/AppKit and KVO parts, which do not exist on Linux; the enum is here so code that
/// matches or throws them compiles unchanged.
/// `@unchecked Sendable`, as `RxError`: the library only reads the payloads for the description.
public enum RxCocoaError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// An unknown error.
    case unknown
    /// An operation that `object` does not allow.
    case invalidOperation(object: Any)
    /// Items were asked for before any were bound.
    case itemsNotYetBound(object: Any)
    /// `object` has no property named `propertyName`.
    case invalidPropertyName(object: Any, propertyName: String)
    /// An object on a key path was not of the expected kind.
    case invalidObjectOnKeyPath(object: Any, sourceObject: AnyObject, propertyName: String)
    /// Method swizzling failed (Objective-C runtime only).
    case errorDuringSwizzling
    /// `object` could not be cast to `targetType`.
    case castingError(object: Any, targetType: Any.Type)

    /// A description of the error for the debugger.
    public var debugDescription: String {
        switch self {
        case .unknown:
            return "Unknown error occurred."
        case let .invalidOperation(object):
            return "Invalid operation was attempted on `\(object)`."
        case let .itemsNotYetBound(object):
            return "Data source is set, but items are not yet bound to user interface for `\(object)`."
        case let .invalidPropertyName(object, propertyName):
            return "Object `\(object)` doesn't have a property named `\(propertyName)`."
        case let .invalidObjectOnKeyPath(object, sourceObject, propertyName):
            return "Unobservable object `\(object)` was observed as `\(propertyName)` of `\(sourceObject)`."
        case .errorDuringSwizzling:
            return "Error during swizzling."
        case let .castingError(object, targetType):
            return "Error casting `\(object)` to `\(targetType)`."
        }
    }
}
