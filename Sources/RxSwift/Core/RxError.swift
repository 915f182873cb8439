/// Errors produced by the library itself.
/// `@unchecked Sendable`: the object of `disposed` is only read for its description.
public enum RxError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
    /// Unknown error.
    case unknown
    /// Operation on an object that was already disposed.
    case disposed(object: AnyObject)
    /// Arithmetic overflow.
    case overflow
    /// Argument out of range.
    case argumentOutOfRange
    /// The sequence has no elements.
    case noElements
    /// The sequence has more than one element.
    case moreThanOneElement
    /// A timeout elapsed.
    case timeout

    /// Description of the error.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}

/// Stops the program: a method that subclasses must override was called.
@usableFromInline
func rxAbstractMethod(file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Abstract method", file: file, line: line)
}

/// Stops the program with a message: the library's invariants were broken.
@usableFromInline
func rxFatalError(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError(message(), file: file, line: line)
}

/// Stops in debug builds, prints in release builds (used for programmer errors such as
/// binding an error to a relay; a server must not crash on them).
@usableFromInline
func rxFatalErrorInDebug(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    #if DEBUG
    fatalError(message(), file: file, line: line)
    #else
    print("Rx fatal error: \(message())")
    #endif
}
