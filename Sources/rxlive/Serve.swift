import Foundation
import Logging

/// Why the server could not start, reported in one line.
struct ServeError: Error, CustomStringConvertible {
    let description: String
}

/// Runs the server described by `configuration` until SIGTERM or SIGINT.
///
/// The HTTP/WebSocket server and the sessions land in their own modules; until
/// they do, this reports that the server is not built yet.
func serve(_ configuration: Configuration, logger: Logger) throws {
    throw ServeError(description: "the HTTP server is not part of this build yet")
}
