/// What a field's validation says: shown under the field, and the button follows it.
public enum ValidationResult: Equatable, Encodable, Sendable {
    case ok(message: String)
    case empty
    case validating
    case failed(message: String)

    /// Whether the field may be submitted.
    public var isValid: Bool {
        if case .ok = self { return true }
        return false
    }
}
