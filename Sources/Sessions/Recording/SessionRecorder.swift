import FoundationEssentials
import Glibc
import Synchronization

/// Records sessions to files in one folder (`--record DIR`): one file per session, mode 600,
/// in the format of docs/RECORDING.md. At most `maxFiles` files of at most `maxBytes` in all
/// stay in the folder: when a session's file is done, the oldest go first; a session whose
/// file alone reaches `maxBytes` stops being written (its file says `truncated`).
public final class SessionRecorder: Sendable {
    /// The folder.
    public let directory: String
    let maxFiles: Int
    let maxBytes: Int
    /// The finished recordings in the folder, oldest first, with their sizes.
    private let finished: Mutex<[(path: String, size: Int)]>

    /// A recorder into `directory`, made (mode 700) if missing; the recordings already in it
    /// count against the bounds.
    /// - Throws: `RecordingError` when the folder cannot be made or read.
    public init(directory: String, maxFiles: Int, maxBytes: Int) throws {
        self.directory = directory
        self.maxFiles = maxFiles
        self.maxBytes = maxBytes
        let files = FileManager.default
        do {
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let names = try files.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(RecordingLine.fileExtension) }
            // `stat`, not `attributesOfItem`, which also looks up the owner's and group's names:
            // about a million instructions less at each start for each file already there.
            let existing = names.compactMap { name -> (path: String, size: Int, modified: Int)? in
                let path = directory + "/" + name
                var status = stat()
                guard stat(path, &status) == 0 else { return nil }  // gone meanwhile
                return (path, Int(status.st_size), Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec))
            }
            finished = Mutex(existing.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }.map { ($0.path, $0.size) })
        } catch {
            // FoundationEssentials' errors have no localized text: the system's words for the cause.
            let cause = ((error as? CocoaError)?.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
            throw RecordingError(description: "cannot record into \(directory): \(cause ?? "\(error)")")
        }
        prune()
    }

    /// Starts recording `session`: its file made, and the session writing to it from now on.
    /// Nil (nothing recorded) when the file cannot be made, or the session is closed or
    /// already recorded.
    func begin(_ session: Session) -> SessionRecording? {
        // Milliseconds since 1970, padded: the names sort as the sessions began.
        let stamp = String(Int(Date().timeIntervalSince1970 * 1000)).leftPadded(to: 13)
        let path = "\(directory)/\(stamp)-\(session.viewModelName)-\(session.id)\(RecordingLine.fileExtension)"
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        let wire = session.endpoint.wire
        let header = RecordingLine.header(viewModel: wire.name, session: session.id, started: Date().formatted(.iso8601),
                                          inputs: wire.inputDeclarations, outputs: wire.outputNames)
        let recording = SessionRecording(path: path, descriptor: descriptor, header: header, inputs: wire.inputDeclarations,
                                         maxBytes: maxBytes, recorder: self)
        guard session.startRecording(recording) else {
            recording.discard()
            return nil
        }
        return recording
    }

    /// A recording is complete: it counts against the bounds from now on.
    func finish(path: String, size: Int) {
        finished.withLock { $0.append((path, size)) }
        prune()
    }

    /// Removes the oldest recordings while there are more than `maxFiles` or they hold more
    /// than `maxBytes`.
    private func prune() {
        let removed: [String] = finished.withLock { files in
            var total = files.reduce(0) { $0 + $1.size }
            var removed: [String] = []
            while !files.isEmpty, files.count > maxFiles || total > maxBytes {
                let oldest = files.removeFirst()
                total -= oldest.size
                removed.append(oldest.path)
            }
            return removed
        }
        for path in removed { unlink(path) }
    }
}

/// A recording folder that cannot be used, in one line.
public struct RecordingError: Error, CustomStringConvertible {
    public let description: String
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
