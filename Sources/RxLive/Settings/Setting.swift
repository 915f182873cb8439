import ArgumentParser
import FoundationEssentials
import Glibc

/// One setting of an RxLive server, declared once in `Settings`: its flag, its `RXLIVE_*`
/// variable, its default, how its text is checked and read, and its help. The command line,
/// the environment reader, `Configuration`'s defaults and the README's table all come from it.
struct Setting<Value: Sendable>: ConfigurationSetting {
    let flag: String
    let variable: String
    let valueName: String
    let help: String
    let accountsOnly: Bool
    /// The value when neither the flag nor the variable is given.
    let defaultValue: Value
    let defaultDescription: String
    private let syntax: SettingSyntax<Value>
    private let property: any WritableKeyPath<Configuration, Value> & Sendable

    /// - Parameters:
    ///   - shown: the default as the help and the README say it, for a default that depends
    ///     on the machine or is no value at all; otherwise the syntax writes `defaultValue`.
    ///   - property: where `Configuration` keeps the value.
    init(_ property: any WritableKeyPath<Configuration, Value> & Sendable,
         flag: String, variable: String, valueName: String, default defaultValue: Value, shown: String? = nil,
         accountsOnly: Bool = false, syntax: SettingSyntax<Value>, help: String) {
        self.property = property
        self.flag = flag
        self.variable = variable
        self.valueName = valueName
        self.help = help
        self.accountsOnly = accountsOnly
        self.defaultValue = defaultValue
        self.defaultDescription = shown ?? "`\(syntax.show(defaultValue))`"
        self.syntax = syntax
    }

    var isList: Bool { syntax.isList }

    func apply(_ given: GivenSetting, to configuration: inout Configuration) throws(ConfigurationError) {
        do {
            configuration[keyPath: property] = try syntax.parse(given.items)
        } catch {
            throw ConfigurationError(description: "\(given.source): \(error.message)")
        }
    }
}

/// A setting whatever the type of its value: what the command line, the environment reader
/// and the README's table need of it.
protocol ConfigurationSetting: Sendable {
    /// The long flag without its dashes (`port` for `--port`).
    var flag: String { get }
    /// The environment variable (`RXLIVE_PORT`).
    var variable: String { get }
    /// The placeholder of the value in the help (`--port <port>`).
    var valueName: String { get }
    /// What the setting does, in one sentence without a final period; `code` in backticks.
    var help: String { get }
    /// The default as the help and the README say it, `code` in backticks.
    var defaultDescription: String { get }
    /// Whether the flag repeats and the variable holds a comma-separated list.
    var isList: Bool { get }
    /// Whether only an app with accounts has it (others hide the flag and refuse it).
    var accountsOnly: Bool { get }
    /// Reads `given` into `configuration`.
    /// - Throws: `ConfigurationError` naming `given.source` when the value cannot be used.
    func apply(_ given: GivenSetting, to configuration: inout Configuration) throws(ConfigurationError)
}

/// A setting's value as given, and where it came from, for the error message.
struct GivenSetting {
    /// The flag's values (one unless the flag repeats), or the variable's text (split at
    /// commas, items trimmed and empty ones dropped, for a list).
    let items: [String]
    /// `--flag` or the variable's name.
    let source: String
}

/// The values given on the command line, by setting.
struct GivenFlags {
    private var values: [String: [String]] = [:]

    /// The flag's values; empty when it was not given.
    subscript(setting: some ConfigurationSetting) -> [String] {
        get { values[setting.flag] ?? [] }
        set { values[setting.flag] = newValue }
    }

    /// Records a single-valued option (`nil`: not given).
    mutating func set(_ setting: some ConfigurationSetting, _ value: String?) {
        self[setting] = value.map { [$0] } ?? []
    }

    /// Records a repeatable option.
    mutating func set(_ setting: some ConfigurationSetting, _ values: [String]) {
        self[setting] = values
    }
}

extension ConfigurationSetting {
    /// The value given for this setting: the flag's, else the variable's, else nil.
    func given(flags: GivenFlags, environment: [String: String]) -> GivenSetting? {
        let values = flags[self]
        if !values.isEmpty { return GivenSetting(items: values, source: "--\(flag)") }
        guard let text = environment[variable] else { return nil }
        guard isList else { return GivenSetting(items: [text], source: variable) }
        let items = text.split(separator: ",").map { String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()) }.filter { !$0.isEmpty }
        return GivenSetting(items: items, source: variable)
    }

    /// The option's help: the sentence, the default and the variable. An app without
    /// accounts does not show the accounts' options.
    var argumentHelp: ArgumentHelp {
        let text = isList
            ? "\(help) (default \(defaultDescription); repeat for more; env \(variable), comma-separated)."
            : "\(help) (default \(defaultDescription); env \(variable))."
        let hidden = accountsOnly && !RxLiveApp.current.accounts
        return ArgumentHelp(text.replacing("`", with: ""), valueName: valueName,
                            visibility: hidden ? .private : .default)
    }

    /// The option's name on the command line.
    var name: NameSpecification { .customLong(flag) }

    /// The setting's row in the README's table.
    var markdownRow: String {
        let repeatable = isList ? " (repeatable)" : ""
        let list = isList ? " (comma-separated)" : ""
        return "| `--\(flag)`\(repeatable) | `\(variable)`\(list) | \(defaultDescription) | \(help) |"
    }
}
