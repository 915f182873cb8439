import Foundation
import RxSwift

/// Errors are equal when their `NSError` domain and code match and they print the same (the
/// rule of RxSwift's RxTest on Apple platforms, which tells apart cases of different error
/// types that print alike).
func errorsAreEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    let left = lhs as NSError
    let right = rhs as NSError
    return left.domain == right.domain && left.code == right.code && "\(lhs)" == "\(rhs)"
}

/// Events are equal when they are the same kind with equal elements or equal errors.
extension Event: Equatable where Element: Equatable {
    /// Equal kinds with equal elements, or errors equal by `errorsAreEqual`.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return errorsAreEqual(left, right)
        case (.next(let left), .next(let right)):
            return left == right
        default:
            return false
        }
    }
}

/// Results of a `Maybe` are equal when they are the same kind with equal elements or errors.
extension MaybeEvent: Equatable where Element: Equatable {
    /// Equal kinds with equal elements, or errors equal by `errorsAreEqual`.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return errorsAreEqual(left, right)
        case (.success(let left), .success(let right)):
            return left == right
        default:
            return false
        }
    }
}

/// Results of a `Completable` are equal when both completed or both failed with equal errors.
extension CompletableEvent: Equatable {
    /// Both completed, or errors equal by `errorsAreEqual`.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return errorsAreEqual(left, right)
        default:
            return false
        }
    }
}

/// Results of a `Single` are equal when both succeeded with equal elements or both failed
/// with equal errors. (`SingleEvent` is `Result<Element, Error>`, which cannot conform to
/// `Equatable` for an existential error, so this is a free operator.)
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)):
        return left == right
    case (.failure(let left), .failure(let right)):
        return errorsAreEqual(left, right)
    default:
        return false
    }
}
