extension CredentialRules {
    /// How `rxlive user list` shows a stored name: as it is when today's rule accepts it;
    /// otherwise (a name stored before the rule) with every invisible or white-space scalar
    /// and every backslash written `\u{XXXX}`, so that no two listed names look alike and
    /// `user remove` given that spelling finds the account (`storedName(listed:)`).
    public static func listedName(_ stored: String) -> String {
        if (try? normalizedUsername(stored)) == stored { return stored }
        var listed = ""
        for scalar in stored.unicodeScalars {
            if isInvisible(scalar) || scalar.properties.isWhitespace || scalar == "\\" {
                listed += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                listed.unicodeScalars.append(scalar)
            }
        }
        return listed
    }

    /// The stored name that `listedName` spelled as `listed`: each `\u{XXXX}` read back;
    /// nil when `listed` holds none.
    public static func storedName(listed: String) -> String? {
        var stored = String.UnicodeScalarView()
        var rest = listed[...]
        var found = false
        while let start = rest.firstRange(of: "\\u{") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}"),
                  let value = UInt32(rest[start.upperBound..<end], radix: 16), let scalar = Unicode.Scalar(value) else { break }
            stored.append(contentsOf: rest[..<start.lowerBound].unicodeScalars)
            stored.append(scalar)
            rest = rest[rest.index(after: end)...]
            found = true
        }
        guard found else { return nil }
        stored.append(contentsOf: rest.unicodeScalars)
        return String(stored)
    }
}
