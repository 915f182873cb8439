import Foundation
import Rx

/// Events are equal when their elements are equal, or their errors print the same.
extension Event: Equatable where Element: Equatable {
    /// Equal kinds with equal elements, or errors with the same description.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.error(let left), .error(let right)):
            return String(reflecting: left) == String(reflecting: right)
        case (.next(let left), .next(let right)):
            return left == right
        default:
            return false
        }
    }
}
