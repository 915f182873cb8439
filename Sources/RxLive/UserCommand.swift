import Accounts
import ArgumentParser
import FoundationEssentials
import Glibc
import ProcessSupport

/// `rxlive user add|remove|list`: manages the accounts of `--database`.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Manage the accounts of the login form (in --database) and their signed-in sessions.",
        subcommands: [Add.self, Remove.self, List.self, Passwd.self, Token.self, Sessions.self, Revoke.self])

    /// The migrated store that `--database` (given to `rxlive` before or after `user …`),
    /// its variable or the default names.
    static func store(database: String?) throws -> CredentialStore {
        var flags = GivenFlags()
        flags.set(Settings.database, database)
        let configuration = try Configuration(flags: flags, environment: ProcessInfo.processInfo.environment)
        let store = try LoginBackend.store(configuration.database)
        do {
            try store.migrate()
        } catch {
            throw ConfigurationError(description: "\(configuration.database): \(error)")
        }
        return store
    }

    /// How long sign-ins last, from `RXLIVE_SESSION_IDLE_TIMEOUT` and `RXLIVE_SESSION_LIFETIME`
    /// (the server's variables) or their defaults.
    static func signInPolicy() throws -> SignInPolicy {
        try Configuration(flags: GivenFlags(), environment: ProcessInfo.processInfo.environment).signInPolicy
    }

    struct Passwd: AccountStoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a new password (read as for add); every signed-in session of the account ends, on every instance.")

        @Argument(help: "The username.")
        var name: String

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            let accounts = try openStore()
            guard let line = PasswordInput.read(prompt: "New password for \(name): "), !line.isEmpty else {
                throw ConfigurationError(description: "no password given (one line on standard input)")
            }
            let changed: Bool
            do {
                changed = try accounts.changePassword(of: name, to: try CredentialRules.password(utf8: line))
            } catch let error as CredentialValidationError {
                throw ConfigurationError(description: "\(error)")
            }
            guard changed else {
                printUserError("no user \(name)")
                throw ExitCode(1)
            }
            print("changed the password of \(name); its signed-in sessions ended")
        }
    }

    struct Add: AccountStoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an account; the password is read from standard input (a prompt without echo on a terminal).")

        @Argument(help: ArgumentHelp("The username (1 to \(AccountLimits.maxUsernameScalars) characters; no control, format, "
                  + "default-ignorable or other invisible characters; no white space but single spaces between other "
                  + "characters; compared in Unicode NFC)."))
        var name: String

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            // The same rules as the login form's (CredentialRules), on the bytes as given:
            // invalid UTF-8 is refused, never replaced.
            let name: String
            let password: String
            do {
                name = try CredentialRules.normalizedUsername(utf8: CommandLineBytes.argument(matching: self.name))
            } catch {
                throw ConfigurationError(description: "\(error)")
            }
            let accounts = try openStore()
            guard let line = PasswordInput.read(prompt: "Password for \(name): "), !line.isEmpty else {
                throw ConfigurationError(description: "no password given (one line on standard input)")
            }
            do {
                password = try CredentialRules.password(utf8: line)
            } catch {
                throw ConfigurationError(description: "\(error)")
            }
            guard try accounts.addAccount(name, password: password) else {
                printUserError("user \(name) already exists")
                throw ExitCode(1)
            }
            print("added user \(name)")
        }
    }

    struct Remove: AccountStoreCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account.")

        @Argument(help: "The username, as `user list` shows it.")
        var name: String

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            let accounts = try openStore()
            // A name as `user list` spells one that breaks today's rule, \u{…} and all.
            guard try accounts.removeAccount(name)
                || CredentialRules.storedName(listed: name).map(accounts.removeAccount) == true else {
                printUserError("no user \(name)")
                throw ExitCode(1)
            }
            print("removed user \(name)")
        }
    }

    struct List: AccountStoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the accounts, one name a line; a name stored before today's username rule that breaks "
                + "it shows its invisible and white-space characters as \\u{…}.")

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            for name in try openStore().accountNames() {
                print(CredentialRules.listedName(name))
            }
        }
    }
}

/// `--database` in the help and on the command line of each `user` command.
struct AccountStoreOption: ParsableArguments {
    @Option(name: Settings.database.name, help: Settings.database.argumentHelp)
    var database: String?
}

/// A `user` command: it works on the store `--database` names, given before or after `user …`.
protocol AccountStoreCommand: ParsableCommand {
    var storeOption: AccountStoreOption { get }
    var root: RxLiveCommand { get }
}

extension AccountStoreCommand {
    /// `--database` wherever it was given: the parser hands it to the command that declares
    /// it, and the root declares it too (for serving).
    var databaseFlag: String? { storeOption.database ?? root.database }

    /// The migrated store of `databaseFlag`, its variable or the default.
    func openStore() throws -> CredentialStore { try UserCommand.store(database: databaseFlag) }
}

func printUserError(_ message: String) {
    StandardError.write("\(RxLiveApp.current.name): \(message)\n")
}

/// The bytes of a command-line argument as the process got them: Swift's `String`s of the
/// arguments have invalid UTF-8 already replaced, which would hide it.
enum CommandLineBytes {
    /// The raw bytes of the argument that reads as `text`; its UTF-8 when none does.
    static func argument(matching text: String) -> [UInt8] {
        for index in 0..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            if String(decoding: bytes, as: UTF8.self) == text { return bytes }
        }
        return Array(text.utf8)
    }
}

/// Reads a password: one line of standard input as bytes, with echo off while a terminal types it.
enum PasswordInput {
    static func read(prompt: String) -> [UInt8]? {
        guard isatty(STDIN_FILENO) == 1 else { return readLineBytes() }
        StandardError.write(prompt)
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            StandardError.write("\n")
        }
        return readLineBytes()
    }

    /// One line of standard input without its newline (nil at once at end of input), read
    /// up to a little past the longest password so a huge input is not held.
    private static func readLineBytes() -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == UInt8(ascii: "\n") { return line }
            if line.count <= AccountLimits.maxPasswordBytes { line.append(byte) }
        }
        return line.isEmpty ? nil : line
    }
}
