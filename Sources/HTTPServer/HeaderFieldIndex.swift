/// Where a head's looked-up fields are: for each of the first `CommonHeaderName.indexedCount`
/// common names, the position of its first field and whether another follows. Made in the
/// parser's one pass over the fields, as it recognises each name, so that a look-up reads
/// a slot instead of comparing every field's name.
struct HeaderFieldIndex: Sendable {
    /// Each name's first position plus one; 0 when no field has the name.
    private var firstPlusOne = SIMD16<UInt16>()
    /// Bit `rawValue` set when the name is on more than one field.
    private var repeated: UInt16 = 0
    /// False once a field sat past what a slot holds: look-ups must then scan.
    private(set) var isComplete = true

    /// The index of no fields.
    init() {}

    /// Notes that the field at `position` (fields noted in order) has the common name `name`,
    /// if any.
    @inline(__always)
    mutating func note(_ name: CommonHeaderName?, at position: Int) {
        guard let name, name.rawValue < CommonHeaderName.indexedCount else { return }
        guard position < Int(UInt16.max) else {
            isComplete = false
            return
        }
        let slot = Int(name.rawValue)
        if firstPlusOne[slot] == 0 {
            firstPlusOne[slot] = UInt16(truncatingIfNeeded: position + 1)
        } else {
            repeated |= 1 << slot
        }
    }

    /// How many fields have `name` (an indexed one): 0, 1, or 2 for two or more; and the
    /// position of the first. Only meaningful while `isComplete`.
    @inline(__always)
    func fields(_ name: CommonHeaderName) -> (count: Int, first: Int) {
        let slot = Int(name.rawValue)
        let first = Int(firstPlusOne[slot])
        if first == 0 { return (0, -1) }
        return (repeated & 1 << slot == 0 ? 1 : 2, first - 1)
    }
}
