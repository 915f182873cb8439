import Rx

// The results of the traits compare like `Event`s: equal elements, or errors that print the
// same. `SingleEvent` is Swift's `Result<Element, Error>`, which cannot conform to `Equatable`
// (its conformance needs an `Equatable` failure), so it gets an `==` of its own.

extension MaybeEvent: Equatable where Element: Equatable {
    /// Equal kinds with equal elements, or errors with the same description.
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)):
            return left == right
        case (.error(let left), .error(let right)):
            return sameError(left, right)
        case (.completed, .completed):
            return true
        default:
            return false
        }
    }
}

extension CompletableEvent: Equatable {
    /// Both completed, or errors with the same description.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.error(let left), .error(let right)):
            return sameError(left, right)
        case (.completed, .completed):
            return true
        default:
            return false
        }
    }
}

/// Equal successes, or failures with the same description.
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)):
        return left == right
    case (.failure(let left), .failure(let right)):
        return sameError(left, right)
    default:
        return false
    }
}

/// Errors are compared by their full description, as `Event`'s `==` does.
private func sameError(_ left: Swift.Error, _ right: Swift.Error) -> Bool {
    String(reflecting: left) == String(reflecting: right)
}
