import XCTest
@testable import RxLive

/// What `--help` tells a first-time user: serving needs no subcommand, and the `user`
/// commands list the options they take.
final class CommandHelpTests: RunningAppTestCase {
    /// The lines of the help's USAGE, without the label and the indentation.
    private func usage(_ help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let first = lines.firstIndex(where: { $0.hasPrefix("USAGE: ") }) else { return [] }
        let rest = lines[first...].prefix { !$0.isEmpty }
        return rest.map { $0.hasPrefix("USAGE: ") ? String($0.dropFirst(7)) : $0.trimmingCharacters(in: .whitespaces) }
    }

    func testUsageSaysServingNeedsNoSubcommand() {
        runAs(accounts: true)
        XCTAssertEqual(usage(RxLiveCommand.helpMessage()),
                       ["rxlive [<options>]", "rxlive replay [--rxtest] <file> ...", "rxlive user <subcommand>"])
    }

    func testUsageOfAnAppWithoutAccountsHasNoUserSubcommand() {
        runAs(accounts: false)
        XCTAssertEqual(usage(RxLiveCommand.helpMessage()), ["rxlive [<options>]", "rxlive replay [--rxtest] <file> ..."])
    }

    func testTheSettingsTableCommandIsNotShown() {
        runAs(accounts: true)
        XCTAssertFalse(RxLiveCommand.helpMessage().contains("settings-table"))
    }

    func testEachUserCommandListsTheDatabaseOption() {
        runAs(accounts: true)
        let helps = [RxLiveCommand.helpMessage(for: UserCommand.Add.self), RxLiveCommand.helpMessage(for: UserCommand.Remove.self),
                     RxLiveCommand.helpMessage(for: UserCommand.List.self)]
        for help in helps {
            XCTAssertTrue(help.contains("--database <database>"), help)
            XCTAssertTrue(help.contains("RXLIVE_DATABASE"), help)
        }
    }

    func testUserAddTakesTheDatabaseBeforeOrAfterItsName() throws {
        runAs(accounts: true)
        for arguments in [["user", "add", "--database", "sqlite:x.sqlite", "ada"],
                          ["user", "add", "ada", "--database", "sqlite:x.sqlite"],
                          ["--database", "sqlite:x.sqlite", "user", "add", "ada"]] {
            let add = try XCTUnwrap(try RxLiveCommand.parseAsRoot(arguments) as? UserCommand.Add, "\(arguments)")
            XCTAssertEqual(add.databaseFlag, "sqlite:x.sqlite", "\(arguments)")
        }
    }
}
