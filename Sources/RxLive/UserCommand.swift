import Accounts
import ArgumentParser
import Foundation

/// `rxlive user add|remove|list`: manages the accounts of `--database`.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add, remove or list the accounts of the login form (in --database).",
        subcommands: [Add.self, Remove.self, List.self])

    /// The migrated store that `--database` (given to `rxlive` before or after `user …`),
    /// its variable or the default names.
    static func store(database: String?) throws -> CredentialStore {
        let flags = Configuration.Overrides(database: database)
        let configuration = try Configuration(flags: flags, environment: ProcessInfo.processInfo.environment)
        let store = try LoginBackend.store(configuration.database)
        do {
            try store.migrate()
        } catch {
            throw ConfigurationError(description: "\(configuration.database): \(error)")
        }
        return store
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an account; the password is read from standard input (a prompt without echo on a terminal).")

        @Argument(help: "The username (1 to 64 characters, no control characters).")
        var name: String

        // `--database` is the root command's option; the parser hands it to the root wherever it appears.
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            guard (1...64).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw ConfigurationError(description: "a username has 1 to 64 characters and no control characters")
            }
            let store = try UserCommand.store(database: root.database)
            guard let password = PasswordInput.read(prompt: "Password for \(name): "), !password.isEmpty else {
                throw ConfigurationError(description: "no password given (one line on standard input)")
            }
            guard try store.addAccount(name, password: password) else {
                printError("user \(name) already exists")
                throw ExitCode(1)
            }
            print("added user \(name)")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account.")

        @Argument(help: "The username.")
        var name: String

        // `--database` is the root command's option; the parser hands it to the root wherever it appears.
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            guard try UserCommand.store(database: root.database).removeAccount(name) else {
                printError("no user \(name)")
                throw ExitCode(1)
            }
            print("removed user \(name)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts, one name a line.")

        // `--database` is the root command's option; the parser hands it to the root wherever it appears.
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            for name in try UserCommand.store(database: root.database).accountNames() {
                print(name)
            }
        }
    }
}

private func printError(_ message: String) {
    FileHandle.standardError.write(Data("\(RxLiveApp.current.name): \(message)\n".utf8))
}

/// Reads a password: one line of standard input, with echo off while a terminal types it.
enum PasswordInput {
    static func read(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
