import Foundation
import XCTest
@testable import RxLive

/// The settings catalog is the one declaration: every option of the command is in it, and the
/// README's configuration table is the one it generates.
final class SettingsTableTests: RunningAppTestCase {
    override func setUp() {
        super.setUp()
        runAs(accounts: true)
    }

    func testTheREADMEsTableIsTheGeneratedOne() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        let begin = try XCTUnwrap(lines.firstIndex(of: "<!-- settings-table:begin -->"), "README.md has no table markers")
        let end = try XCTUnwrap(lines.firstIndex(of: "<!-- settings-table:end -->"), "README.md has no end marker")
        XCTAssertLessThan(begin, end)
        let table = lines[(begin + 1)..<end].joined(separator: "\n") + "\n"
        XCTAssertEqual(table, Settings.markdownTable(accounts: true),
                       "README.md's settings table differs from Settings: run scripts/settings-table")
    }

    func testEveryOptionOfTheCommandIsASettingAndEverySettingAnOption() throws {
        let options = Mirror(reflecting: try RxLiveCommand.parse([])).children.count
        XCTAssertEqual(options, Settings.all.count, "an option of RxLiveCommand is not in Settings.all, or the reverse")
        for setting in Settings.all {
            let command = try RxLiveCommand.parse(["--\(setting.flag)", "given"])
            XCTAssertEqual(command.givenFlags[setting], ["given"], "--\(setting.flag) is not recorded by givenFlags")
        }
    }

    func testFlagsAndVariablesAreEachUsedOnce() {
        XCTAssertEqual(Set(Settings.all.map(\.flag)).count, Settings.all.count)
        XCTAssertEqual(Set(Settings.all.map(\.variable)).count, Settings.all.count)
        XCTAssertTrue(Settings.all.allSatisfy { $0.variable.hasPrefix("RXLIVE_") })
    }

    func testEachRowSaysTheFlagTheVariableTheDefaultAndTheMeaning() {
        XCTAssertEqual(Settings.port.markdownRow, "| `--port` | `RXLIVE_PORT` | `8080` | TCP port to listen on |")
        XCTAssertEqual(Settings.loginDelay.markdownRow,
                       "| `--login-delay` | `RXLIVE_LOGIN_DELAY` | `2` | Seconds the simulated login request takes |")
        XCTAssertTrue(Settings.trustedProxies.markdownRow.hasPrefix(
            "| `--trusted-proxy` (repeatable) | `RXLIVE_TRUSTED_PROXIES` (comma-separated) | none | "))
    }

    func testAnAppWithoutAccountsListsNoAccountsSetting() {
        let table = Settings.markdownTable(accounts: false)
        for flag in ["--login-delay", "--login-service", "--database", "--login-workers"] {
            XCTAssertFalse(table.contains("`\(flag)`"), flag)
            XCTAssertTrue(Settings.markdownTable(accounts: true).contains("`\(flag)`"), flag)
        }
    }
}
