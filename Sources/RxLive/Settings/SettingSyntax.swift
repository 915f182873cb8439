/// Why a setting's text cannot be used, without the flag or variable it came from (the
/// reader puts that in front).
struct SettingProblem: Error {
    let message: String
}

/// How a setting's text becomes its value, and how a value reads back as text.
struct SettingSyntax<Value: Sendable>: Sendable {
    /// Whether the flag repeats and the variable holds a comma-separated list.
    let isList: Bool
    /// The value of the given items (exactly one unless `isList`).
    let parse: @Sendable (_ items: [String]) throws(SettingProblem) -> Value
    /// The value as text, for the default column of the help and the README.
    let show: @Sendable (Value) -> String

    /// A setting with one value, read from one text.
    static func single(show: @escaping @Sendable (Value) -> String,
                       parse: @escaping @Sendable (String) throws(SettingProblem) -> Value) -> Self {
        Self(isList: false, parse: { items throws(SettingProblem) in try parse(items[items.count - 1]) }, show: show)
    }
}

extension SettingSyntax where Value == String {
    /// Any text but the empty one, refused with `empty` as the message.
    static func nonEmpty(_ empty: String) -> Self {
        .single(show: { $0 }) { text throws(SettingProblem) in
            guard !text.isEmpty else { throw SettingProblem(message: empty) }
            return text
        }
    }
}

extension SettingSyntax where Value == String? {
    /// Any text; the setting is unset by default.
    static var anyText: Self { .single(show: { $0 ?? "" }) { $0 } }

    /// Any text but the empty one, refused with `empty` as the message.
    static func nonEmpty(_ empty: String) -> Self {
        .single(show: { $0 ?? "" }) { text throws(SettingProblem) in
            guard !text.isEmpty else { throw SettingProblem(message: empty) }
            return text
        }
    }
}

extension SettingSyntax where Value == Int {
    /// A whole number in `range`.
    static func integer(in range: ClosedRange<Int>) -> Self {
        .single(show: { "\($0)" }) { text throws(SettingProblem) in
            guard let number = Int(text), range.contains(number) else {
                throw SettingProblem(message: "'\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }
}

extension SettingSyntax where Value == Bool {
    /// `on` or `off`, in any case.
    static var onOff: Self {
        .single(show: { $0 ? "on" : "off" }) { text throws(SettingProblem) in
            switch text.lowercased() {
            case "on": return true
            case "off": return false
            default: throw SettingProblem(message: "'\(text)' is not on or off")
            }
        }
    }
}

extension SettingSyntax where Value == Duration {
    /// A number of seconds, fractions allowed, at most a day: enough for any delay or
    /// timeout, and far from overflow. Zero only when `allowZero`.
    static func seconds(allowZero: Bool) -> Self {
        .single(show: secondsText) { text throws(SettingProblem) in
            guard let seconds = Double(text), seconds.isFinite, seconds <= 86_400,
                  allowZero ? seconds >= 0 : seconds > 0
            else {
                let bound = allowZero ? "0" : "above 0"
                throw SettingProblem(message: "'\(text)' is not a number of seconds (\(bound), at most 86400)")
            }
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
    }

    /// `2` for two seconds, `0.5` for half a second.
    private static func secondsText(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds)" : "\(Double(seconds) + Double(attoseconds) / 1e18)"
    }
}

extension SettingSyntax where Value: RawRepresentable<String> & CaseIterable {
    /// One of the cases' raw values (in any letter case when `ignoringCase`), refused with
    /// `refusal` made from the text.
    static func choice(ignoringCase: Bool, refusal: @escaping @Sendable (String) -> String) -> Self {
        .single(show: \.rawValue) { text throws(SettingProblem) in
            guard let value = Value(rawValue: ignoringCase ? text.lowercased() : text) else {
                throw SettingProblem(message: refusal(text))
            }
            return value
        }
    }
}

extension SettingSyntax where Value == [String] {
    /// A list (a repeated flag, or a comma-separated variable), refused with what `problem`
    /// says of the first item it finds fault with.
    static func list(checking problem: @escaping @Sendable (String) -> String? = { _ in nil }) -> Self {
        Self(isList: true, parse: { items throws(SettingProblem) in
            if let message = items.lazy.compactMap(problem).first { throw SettingProblem(message: message) }
            return items
        }, show: { $0.joined(separator: ",") })
    }
}
