import FoundationEssentials
import Glibc
import Synchronization

/// The recordings a dashboard can hand out: those it asked for (the "Record" control: new
/// sessions of one view model, recorded from their open into a private folder of the system's
/// temporary one) and those of `--record`. A recording starts when its session opens, since a
/// replay builds the view model afresh: a session recorded from its middle would replay
/// without the inputs before.
///
/// Costs nothing per message: a session opening asks `recorder(for:)`, one atomic load
/// while nothing is armed.
final class DashboardRecordings: Sendable {
    /// Recordings asked for from a dashboard at most stay in its folder (oldest go first).
    static let maxFiles = 200
    static let maxBytes = 64 * 1024 * 1024
    /// The largest recording a dashboard is sent (one WebSocket message).
    static let maxDownload = 16 * 1024 * 1024
    /// Sessions whose recording is remembered by id, newest last.
    private static let remembered = 2000

    private struct State {
        /// The view model whose new sessions are recorded; nil for none.
        var armed: String?
        /// The served view models that may be recorded; nil: any (a registry of its own, in tests).
        var recordable: Set<String>?
        /// Made the first time a dashboard records.
        var onDemand: SessionRecorder?
        /// By session id bits: an id typed with a leading zero is the same session.
        var byID: [UInt64: Entry] = [:]
        var order: [UInt64] = []
    }

    private struct Entry {
        let path: String
        /// While its session is open: so an export sees the lines still buffered.
        weak var recording: SessionRecording?
    }

    private let state = Mutex(State())
    private let isArmed = Atomic<Bool>(false)

    /// The recorder a new session of `viewModel` is recorded with on a dashboard's demand.
    /// Inlined, so that every session's open costs one load, with no call or retain.
    @inline(__always)
    func recorder(for viewModel: String) -> SessionRecorder? {
        guard isArmed.load(ordering: .relaxed) else { return nil }
        return armedRecorder(for: viewModel)
    }

    private func armedRecorder(for viewModel: String) -> SessionRecorder? {
        state.withLock { $0.armed == viewModel ? $0.onDemand : nil }
    }

    /// Starts recording `session` with `recorder`, remembering where, for an export.
    func begin(_ session: Session, with recorder: SessionRecorder) -> SessionRecording? {
        guard let recording = recorder.begin(session) else { return nil }
        let id = session.idBits
        state.withLock { state in
            state.byID[id] = Entry(path: recording.path, recording: recording)
            state.order.append(id)
            if state.order.count > Self.remembered {
                state.byID[state.order.removeFirst()] = nil
            }
        }
        return recording
    }

    /// The view model whose new sessions are recorded now (nil: none).
    var armed: String? { state.withLock { $0.armed } }

    /// The view models `arm` accepts: those served and not `.notRecorded()`.
    func allow(_ viewModels: [String]) {
        state.withLock { $0.recordable = Set(viewModels) }
    }

    /// Records the sessions of `viewModel` that open from now on (an empty name stops).
    /// - Throws: `RecordingError` when this server does not record that view model or the
    ///   private folder cannot be made.
    func arm(_ viewModel: String) throws {
        try state.withLock { state in
            if !viewModel.isEmpty, let recordable = state.recordable, !recordable.contains(viewModel) {
                throw RecordingError(description: "this server records no view model named \"\(viewModel.prefix(100))\"")
            }
            if !viewModel.isEmpty, state.onDemand == nil {
                let folder = FileManager.default.temporaryDirectory.path
                    + "/rxlive-dashboard-\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
                state.onDemand = try SessionRecorder(directory: folder, maxFiles: Self.maxFiles, maxBytes: Self.maxBytes)
                FoldersRemovedAtExit.add(folder)
            }
            state.armed = viewModel.isEmpty ? nil : viewModel
            isArmed.store(state.armed != nil, ordering: .relaxed)
        }
    }

    /// The lines recorded so far of session `id`, up to the last whole line, and its file's name.
    /// - Throws: `RecordingError` when it was not recorded or its file is gone.
    func contents(of id: String) throws -> (name: String, text: String) {
        guard let bits = UInt64(id, radix: 16), let entry = state.withLock({ $0.byID[bits] }) else {
            throw RecordingError(description: "session \(id) was not recorded: press Record before its session opens")
        }
        entry.recording?.flushBuffered()
        let size = (try? FileManager.default.attributesOfItem(atPath: entry.path)[.size] as? Int) ?? 0
        guard size <= Self.maxDownload else {
            throw RecordingError(description: "the recording of session \(id) holds \(size / 1_048_576) MiB, over the "
                                 + "\(Self.maxDownload / 1_048_576) MiB a dashboard hands out: take it from \(entry.path)")
        }
        guard let data = FileManager.default.contents(atPath: entry.path) else {
            throw RecordingError(description: "the recording of session \(id) is no longer in its folder")
        }
        // A live session's recorder may be writing its next line just now.
        let whole = data.lastIndex(of: UInt8(ascii: "\n")).map { data[...$0] } ?? Data()
        return (URL(fileURLWithPath: entry.path).lastPathComponent, String(decoding: whole, as: UTF8.self))
    }
}

/// Private folders removed when the process exits normally (a stop by signal ends through
/// `exit`): what a dashboard recorded on demand is handed out only while the server runs.
enum FoldersRemovedAtExit {
    private static let folders = Mutex<[String]>([])

    static func add(_ folder: String) {
        let isFirst = folders.withLock { folders in
            folders.append(folder)
            return folders.count == 1
        }
        if isFirst { atexit { FoldersRemovedAtExit.removeAll() } }
    }

    static func removeAll() {
        for folder in folders.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}
