import Foundation
import Synchronization
import XCTest
@testable import Accounts

/// The SQLite store follows the file at its path: changes made through another handle,
/// a file replaced by `rename`, a file deleted, and a file others may read.
final class SQLiteFileTests: XCTestCase {
    private var folder: URL!
    private let warnings = Warnings()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("rxlive-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func file(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func makeStore(_ path: String) throws -> CredentialStore {
        var database = SQLiteDatabase(path: path)
        let warnings = warnings
        database.onWarning = { message in warnings.list.withLock { $0.append(message) } }
        let store = CredentialStore(database: database, hasher: try PasswordHasher(parameters: testParameters))
        try store.migrate()
        return store
    }

    func testUsersAddedAndRemovedThroughAnotherHandleCountAtTheNextLogin() throws {
        let server = try makeStore(file("accounts.sqlite"))
        let command = try makeStore(file("accounts.sqlite"))
        _ = try command.addAccount("ada", password: "engine")
        XCTAssertEqual(server.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted)
        _ = try command.addAccount("dave", password: "pw")
        XCTAssertTrue(try command.removeAccount("ada"))
        XCTAssertEqual(server.authenticate(username: "dave", password: "pw", clientAddress: "a"), .accepted)
        XCTAssertEqual(server.authenticate(username: "ada", password: "engine", clientAddress: "a"), .rejected)
    }

    func testAFileReplacedByRenameIsReopenedWithAWarning() throws {
        let path = file("accounts.sqlite")
        let server = try makeStore(path)
        _ = try server.addAccount("ada", password: "engine")
        XCTAssertEqual(server.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted)
        // A new file built aside (its connections closed, so its WAL is folded in) moves over the old one.
        do {
            let replacement = try makeStore(file("new.sqlite"))
            _ = try replacement.addAccount("dave", password: "pw")
        }
        XCTAssertEqual(rename(file("new.sqlite"), path), 0)

        XCTAssertEqual(server.authenticate(username: "ada", password: "engine", clientAddress: "a"), .rejected,
                       "the old, unlinked file no longer answers")
        XCTAssertEqual(server.authenticate(username: "dave", password: "pw", clientAddress: "a"), .accepted)
        XCTAssertEqual(warnings.list.withLock { $0.count }, 1)
        XCTAssertTrue(warnings.list.withLock { $0.first ?? "" }.contains("was replaced"), "\(warnings.list.withLock { $0 })")
    }

    func testAFileCopiedOverWhileOpenIsToldOnceAndOwnWritesAreNot() throws {
        let path = file("accounts.sqlite")
        let server = try makeStore(path)
        // Enough writes for this process to checkpoint into the file itself: not a warning.
        let before = try XCTUnwrap(FileIdentity(path: path)).content
        for index in 0..<1100 { _ = try server.addAccount("user\(index)", password: "pw") }
        XCTAssertEqual(server.authenticate(username: "user1", password: "pw", clientAddress: "a"), .accepted)
        XCTAssertGreaterThan(try XCTUnwrap(FileIdentity(path: path)).content.size, before.size, "a checkpoint wrote the file")
        XCTAssertEqual(warnings.list.withLock { $0 }, [])

        // `cp backup accounts.sqlite`: the same inode, other contents.
        let backup = try makeStore(file("backup.sqlite"))
        _ = try backup.addAccount("ada", password: "engine")
        let copied = try Data(contentsOf: URL(fileURLWithPath: file("backup.sqlite")))
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: copied)
        try handle.close()
        _ = server.authenticate(username: "ada", password: "engine", clientAddress: "a")
        _ = server.authenticate(username: "ada", password: "engine", clientAddress: "a")
        XCTAssertEqual(warnings.list.withLock { $0.count }, 1, "\(warnings.list.withLock { $0 })")
        XCTAssertTrue(warnings.list.withLock { $0.first ?? "" }.contains("rewritten on disk while open"))
    }

    func testADeletedFileAnswersUnavailableAndIsNotRecreated() throws {
        let path = file("accounts.sqlite")
        let server = try makeStore(path)
        _ = try server.addAccount("ada", password: "engine")
        XCTAssertEqual(server.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted)
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }

        guard case .unavailable(let reason) = server.authenticate(username: "ada", password: "engine", clientAddress: "a") else {
            return XCTFail("a deleted file must not answer")
        }
        XCTAssertTrue(reason.contains("gone"), reason)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no empty file takes its place")

        // Once a file is back at the path, it answers.
        do {
            let restored = try makeStore(file("back.sqlite"))
            _ = try restored.addAccount("ada", password: "engine")
        }
        XCTAssertEqual(rename(file("back.sqlite"), path), 0)
        XCTAssertEqual(server.authenticate(username: "ada", password: "engine", clientAddress: "a"), .accepted)
    }

    func testAFileOthersMayReadIsRefusedLikeATLSKey() throws {
        let path = file("accounts.sqlite")
        _ = try makeStore(path)
        XCTAssertEqual(chmod(path, 0o644), 0)
        XCTAssertThrowsError(try makeStore(path)) { error in
            XCTAssertEqual("\(error)", "the accounts database \(path) is accessible to group or others (mode 644): run chmod 600 on it")
        }
        XCTAssertEqual(chmod(path, 0o600), 0)
        XCTAssertNoThrow(try makeStore(path))
    }
}

/// Warnings the store reported, from any thread.
private final class Warnings: Sendable {
    let list = Mutex<[String]>([])
}
