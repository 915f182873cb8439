import Accounts
import ArgumentParser
import FoundationEssentials
import Glibc
import ProcessSupport

extension UserCommand {
    /// `rxlive user token NAME`: a bearer token for scripts (`Authorization: Bearer …`).
    struct Token: AccountStoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a new bearer token of a user, for scripts (websocat -H 'Authorization: Bearer TOKEN').")

        @Argument(help: "The username.")
        var name: String

        @Option(help: "Seconds the token lasts at most (default: the server's session lifetime, RXLIVE_SESSION_LIFETIME).")
        var expires: Int?

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            let lifetime = try expires.map(Double.init) ?? UserCommand.signInPolicy().lifetime
            guard lifetime >= 1 else { throw ConfigurationError(description: "--expires must be at least 1 second") }
            let issued: IssuedToken?
            do {
                issued = try openStore().issueToken(for: name, lifetime: lifetime, userAgent: "rxlive user token")
            } catch let error as CredentialValidationError {
                throw ConfigurationError(description: "\(error)")
            }
            guard let issued else {
                printUserError("no user \(name)")
                throw ExitCode(1)
            }
            // The token alone on standard output, for $(…); its id for `revoke` on standard error.
            StandardError.write("session \(issued.session.id) of \(issued.session.username), expires \(timestamp(issued.session.expiresAt))\n")
            print(issued.token)
        }
    }

    /// `rxlive user sessions NAME`: the user's signed-in sessions, never their tokens.
    struct Sessions: AccountStoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a user's signed-in sessions: id, created, last used, expires, address, user agent (never a token).")

        @Argument(help: "The username.")
        var name: String

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func run() throws {
            let policy = try UserCommand.signInPolicy()
            for session in try openStore().signedInSessions(of: name, policy: policy) {
                let fields = [session.id, timestamp(session.createdAt), timestamp(session.lastUsedAt), timestamp(session.expiresAt),
                              session.clientAddress.isEmpty ? "-" : session.clientAddress,
                              session.userAgent.isEmpty ? "-" : session.userAgent.replacing("\t", with: " ")]
                print(fields.joined(separator: "\t"))
            }
        }
    }

    /// `rxlive user revoke NAME (--all | ID)`: ends sessions on every instance.
    struct Revoke: AccountStoreCommand {
        static let configuration = CommandConfiguration(
            abstract: "End one signed-in session of a user (by the id `sessions` lists) or all of them, on every instance.")

        @Argument(help: "The username.")
        var name: String

        @Argument(help: "The session id (from `rxlive user sessions`).")
        var id: String?

        @Flag(help: "End every session of the user.")
        var all = false

        @OptionGroup var storeOption: AccountStoreOption
        @ParentCommand var root: RxLiveCommand

        func validate() throws {
            guard all != (id != nil) else { throw ValidationError("give either a session id or --all") }
        }

        func run() throws {
            let store = try openStore()
            if all {
                let count = try store.revokeAllSessions(of: name)
                print("ended \(count) session\(count == 1 ? "" : "s") of \(name)")
            } else if let id {
                guard try store.revokeSession(id: id, of: name) else {
                    printUserError("\(name) has no session \(id)")
                    throw ExitCode(1)
                }
                print("ended session \(id) of \(name)")
            }
        }
    }
}

/// A Unix time as UTC, to the second (ISO 8601).
private func timestamp(_ seconds: Double) -> String {
    Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(.iso8601)
}
