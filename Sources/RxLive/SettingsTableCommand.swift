import ArgumentParser

/// `rxlive settings-table` (hidden): prints the app's settings as the README's Markdown
/// table, which `scripts/settings-table` puts between the README's markers.
struct SettingsTableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings-table",
        abstract: "Print the settings as a Markdown table (flag, variable, default, meaning).",
        shouldDisplay: false)

    func run() {
        print(Settings.markdownTable(accounts: RxLiveApp.current.accounts), terminator: "")
    }
}
