import CSQLite
import FoundationEssentials
import Glibc
import Synchronization

/// Notices the database file rewritten under a running server by something other than
/// SQLite, such as a backup copied over the live file with `cp`.
///
/// In WAL mode SQLite writes the database file only when it checkpoints, and this process's
/// connections checkpoint through `install(on:)`'s hook, which records the file's size and
/// modification time after each checkpoint. Any other change of them came from outside (or,
/// rarely, from another process's checkpoint, when its commit finds the log past 1,000
/// pages). After a copy in place the log's pages are still read over the copied file's, so
/// the accounts answered are not the ones restored: that is told, once per change, as a
/// warning naming the ways to restore (OPERATIONS.md, "Restoring a backup").
final class SQLiteWriteWatch: Sendable {
    /// Log pages at which a commit checkpoints: SQLite's own default.
    static let checkpointPages: Int32 = 1000

    private let path: String
    private let opened: OpenedFile
    private let onWarning: @Sendable (String) -> Void

    /// A watch of the file at `path`; `opened` is shared by every connection to it.
    init(path: String, opened: OpenedFile, onWarning: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.opened = opened
        self.onWarning = onWarning
    }

    /// Makes `handle` checkpoint through this watch (instead of SQLite's automatic
    /// checkpoint, at the same size). The watch must outlive the handle.
    func install(on handle: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = sqlite3_wal_hook(handle, { context, handle, _, pages in
            guard let context, let handle, pages >= SQLiteWriteWatch.checkpointPages else { return SQLITE_OK }
            _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            Unmanaged<SQLiteWriteWatch>.fromOpaque(context).takeUnretainedValue().recordOwnWrite()
            return SQLITE_OK
        }, context)
    }

    /// The file as this process last wrote or saw it is the file as it is now.
    func recordOwnWrite() {
        let now = FileIdentity(path: path)?.content
        opened.content.withLock { $0 = now }
    }

    /// Warns when the file changed since this process last wrote or saw it (`now`, read by
    /// the caller's `stat` of the path), and takes the change as seen. A first look only records.
    func check(_ now: ContentStamp?) {
        let changed = opened.content.withLock { known -> Bool in
            defer { known = now }
            return known != nil && now != nil && known != now
        }
        guard changed else { return }
        onWarning("the accounts database \(path) was rewritten on disk while open, not through SQLite (a backup "
            + "copied over the live file?): its write-ahead log still holds pages of the old contents, which win; "
            + "restore with sqlite3's .restore, or copy beside it and rename over it, or stop rxlive first "
            + "(OPERATIONS.md, Restoring a backup)")
    }
}

/// What changes when a file's contents are written: its size and modification time.
struct ContentStamp: Equatable, Sendable {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int

    init(_ info: stat) {
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
