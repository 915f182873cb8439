extension String {
    /// Appends `text` as a JSON string literal: quoted, with `"`, `\` and every control
    /// character below U+0020 escaped (short forms where JSON has them, `\u00XX`
    /// otherwise). Everything else, non-ASCII included, is copied as UTF-8.
    mutating func appendJSONString(_ text: String) {
        append("\"")
        if !text.utf8.contains(where: needsEscape) {
            append(text)
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": append("\\\"")
                case "\\": append("\\\\")
                case "\n": append("\\n")
                case "\r": append("\\r")
                case "\t": append("\\t")
                case "\u{08}": append("\\b")
                case "\u{0C}": append("\\f")
                case "\u{00}"..."\u{1F}":
                    let hex: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
                    append("\\u00")
                    append(hex[Int(scalar.value >> 4)])
                    append(hex[Int(scalar.value & 0xF)])
                default:
                    unicodeScalars.append(scalar)
                }
            }
        }
        append("\"")
    }
}

/// Whether a UTF-8 byte must be escaped inside a JSON string.
private func needsEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C
}
