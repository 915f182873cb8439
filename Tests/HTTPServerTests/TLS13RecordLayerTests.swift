@testable import TLS
import XCTest

/// The server's own TLS 1.3 records, against records sealed with the same secrets: what each
/// content type does, and each refusal's alert (RFC 8446 §5 and §4.6.3).
final class TLS13RecordLayerTests: XCTestCase {
    private typealias Refusal = TLS13RecordLayer.Refusal
    private typealias Alert = TLS13RecordLayer.Alert
    private let suite = TLS13CipherSuite(code: 0x1301)!
    private let clientSecret = [UInt8](repeating: 7, count: 32)
    private let serverSecret = [UInt8](repeating: 9, count: 32)
    /// The server side under test.
    private var layer: TLS13RecordLayer!
    /// Where the server's output goes (KeyUpdate answers, alerts, data).
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 17, alignment: 8)
    private var outputCount = 0
    /// What the server sent.
    private var sent: [UInt8] { Array(output[..<outputCount]) }

    override func setUp() {
        let expander = TLS13KeyExpander(suite)!
        layer = TLS13RecordLayer(readKeys: keys(clientSecret, encrypts: false, expander), writeKeys: keys(serverSecret, encrypts: true, expander))
        outputCount = 0
    }

    deinit { output.deallocate() }

    private func keys(_ secret: [UInt8], encrypts: Bool, _ expander: borrowing TLS13KeyExpander) -> TLS13TrafficKeys {
        TLS13TrafficKeys(suite: suite, secret: secret, sequence: 0, encrypts: encrypts, expander: expander)!
    }

    /// The client's side: seals records and opens the server's, as a peer keeping count would.
    private final class Peer {
        var write: TLS13TrafficKeys
        var read: TLS13TrafficKeys
        init(write: consuming TLS13TrafficKeys, read: consuming TLS13TrafficKeys) {
            self.write = write
            self.read = read
        }

        /// A record whose inner plaintext (content, type, padding) is `inner`.
        func seal(_ inner: [UInt8]) -> [UInt8] {
            let body = inner.count + TLS13TrafficKeys.tagLength
            var record = [23, 3, 3, UInt8(body >> 8), UInt8(body & 0xff)] + inner + [UInt8](repeating: 0, count: TLS13TrafficKeys.tagLength)
            let sealed = record.withUnsafeMutableBytes { write.seal(record: $0.baseAddress!, count: inner.count) }
            precondition(sealed)
            return record
        }

        /// The inner plaintexts of the records in `bytes`.
        func open(_ bytes: [UInt8]) -> [[UInt8]] {
            var records: [[UInt8]] = []
            var offset = 0
            while offset + 5 <= bytes.count {
                let length = 5 + (Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4]))
                var inner = [UInt8](repeating: 0, count: length - 5 - TLS13TrafficKeys.tagLength)
                let opened = bytes[offset..<offset + length].withUnsafeBytes { record in
                    inner.withUnsafeMutableBytes { read.open(record: record, into: $0.baseAddress!) }
                }
                precondition(opened, "a record of the server's did not authenticate")
                records.append(inner)
                offset += length
            }
            return records
        }
    }

    private func makePeer() -> Peer {
        let expander = TLS13KeyExpander(suite)!
        return Peer(write: keys(clientSecret, encrypts: true, expander), read: keys(serverSecret, encrypts: false, expander))
    }

    /// Opens one record as the server does; the application data it held, if any.
    private func receive(_ record: [UInt8]) throws -> (TLS13RecordLayer.Opened, [UInt8]) {
        let length = try record.withUnsafeBytes { try TLS13RecordLayer.recordLength(at: $0) }
        XCTAssertEqual(length, record.count)
        var plaintext = [UInt8](repeating: 0, count: TLS13RecordLayer.maxOpened)
        let opened = try record.withUnsafeBytes { bytes in
            try plaintext.withUnsafeMutableBytes { buffer in
                try layer.open(record: bytes, into: buffer.baseAddress!, reserve: reserve)
            }
        }
        if case .data(let count) = opened { return (opened, Array(plaintext[..<count])) }
        return (opened, [])
    }

    private func reserve(_ count: Int) -> UnsafeMutableRawPointer? {
        guard outputCount + count <= output.count else { return nil }
        defer { outputCount += count }
        return output.baseAddress! + outputCount
    }

    private func assertRefused(_ record: [UInt8], alert: UInt8?, file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try receive(record)
            XCTFail("accepted", file: file, line: line)
        } catch let error as Refusal {
            XCTAssertEqual(error.alert, alert, error.reason, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testApplicationDataWithAndWithoutPaddingAndEmptyRecords() throws {
        let peer = makePeer()
        XCTAssertEqual(try receive(peer.seal(Array("hi".utf8) + [23, 0, 0, 0])).1, Array("hi".utf8), "padding is not content")
        XCTAssertEqual(try receive(peer.seal([23])).0, .nothing, "an empty record delivers nothing")
        XCTAssertEqual(try receive(peer.seal([0x17, 23])).1, [0x17], "a content byte equal to a type byte is content")
        assertRefused(peer.seal([0, 0, 0]), alert: Alert.unexpectedMessage)
    }

    func testTheLargestRecordOpensAndOneByteMoreOverflows() throws {
        let peer = makePeer()
        let largest = [UInt8](repeating: 5, count: TLS13RecordLayer.maxPlaintext)
        XCTAssertEqual(try receive(peer.seal(largest + [23])).1, largest)
        assertRefused(peer.seal(largest + [5, 23]), alert: Alert.recordOverflow)
    }

    /// Padding counts against the limit too (§5.4: the whole inner plaintext, at most 2^14 + 1
    /// bytes), as tlsfuzzer's "too big plaintext … additional bytes of padding" expects.
    func testPaddingThatTakesARecordPastTheLimitOverflows() throws {
        let peer = makePeer()
        let short = [UInt8](repeating: 5, count: TLS13RecordLayer.maxPlaintext - 8)
        XCTAssertEqual(try receive(peer.seal(short + [23] + [UInt8](repeating: 0, count: 8))).1, short)
        assertRefused(peer.seal(short + [23] + [UInt8](repeating: 0, count: 9)), alert: Alert.recordOverflow)
        setUp()
        assertRefused(makePeer().seal([5, 23] + [UInt8](repeating: 0, count: 16_400)), alert: Alert.recordOverflow)
    }

    func testRecordHeadersTheStandardForbids() {
        func length(_ header: [UInt8]) throws -> Int? {
            try header.withUnsafeBytes { try TLS13RecordLayer.recordLength(at: $0) }
        }
        XCTAssertNil(try length([23, 3, 3, 0]), "a header cut short waits")
        XCTAssertEqual(try length([23, 3, 3, 0x41, 0x00]), 5 + 0x4100, "the largest body allowed")
        for (header, alert) in [([22, 3, 3, 0, 5], Alert.unexpectedMessage), ([21, 3, 3, 0, 2], Alert.unexpectedMessage),
                                ([23, 3, 3, 0x41, 0x01], Alert.recordOverflow), ([23, 3, 3, 0, 16], Alert.decodeError)] as [([UInt8], UInt8)] {
            XCTAssertThrowsError(try length(header)) { XCTAssertEqual(($0 as? Refusal)?.alert, alert, "\(header)") }
        }
    }

    func testAlteredAndReplayedRecordsDoNotAuthenticate() throws {
        let peer = makePeer()
        let record = peer.seal(Array("one".utf8) + [23])
        var altered = record
        altered[7] ^= 0x40
        assertRefused(altered, alert: Alert.badRecordMAC)
        setUp()
        XCTAssertEqual(try receive(record).1, Array("one".utf8))
        assertRefused(record, alert: Alert.badRecordMAC) // its number is taken: a replay fails
    }

    func testAlerts() throws {
        let peer = makePeer()
        assertRefused(peer.seal([2, 40, 21]), alert: nil) // the peer's fatal alert: nothing to answer
        setUp()
        let again = makePeer()
        assertRefused(again.seal([1, 0, 0, 21]), alert: Alert.decodeError)
        setUp()
        let closing = makePeer()
        XCTAssertEqual(try receive(closing.seal([1, 90, 21])).0, .nothing, "user_canceled waits for close_notify")
        XCTAssertEqual(try receive(closing.seal([1, 0, 21])).0, .closed)
        XCTAssertTrue(layer.peerClosed)
        XCTAssertEqual(try receive(closing.seal(Array("late".utf8) + [23])).0, .nothing, "nothing after close_notify is read")
        setUp()
        assertRefused(makePeer().seal([1, 20]), alert: Alert.unexpectedMessage) // change_cipher_spec inside
    }

    /// tlsfuzzer's "empty alert … using application keys": OpenSSL answers a fatal
    /// unexpected_message, padded or not, and so must we (RFC 8446 §5.1).
    func testAnEmptyAlertRecordIsAnUnexpectedMessageWithOrWithoutPadding() {
        for padding in [0, 2, 5, 30] {
            setUp()
            assertRefused(makePeer().seal([21] + [UInt8](repeating: 0, count: padding)), alert: Alert.unexpectedMessage)
        }
    }

    func testAKeyUpdateCutAcrossRecordsIsAnsweredAndBothSidesChangeKeys() throws {
        let peer = makePeer()
        XCTAssertEqual(try receive(peer.seal([24, 0, 22])).0, .nothing)
        XCTAssertEqual(try receive(peer.seal([0, 1, 1, 22])).0, .nothing) // update_requested
        XCTAssertTrue(peer.write.update())
        // The answer asks for nothing and goes under the old keys; what follows, under the new.
        XCTAssertEqual(peer.open(sent), [[24, 0, 0, 1, 0, 22]])
        XCTAssertTrue(peer.read.update())
        XCTAssertEqual(try receive(peer.seal(Array("new".utf8) + [23])).1, Array("new".utf8))
        outputCount = 0
        XCTAssertTrue(Array("reply".utf8).withUnsafeBytes { layer.seal($0, reserve: reserve) })
        XCTAssertEqual(peer.open(sent), [Array("reply".utf8) + [23]])
        // One that asks nothing is not answered.
        outputCount = 0
        XCTAssertEqual(try receive(peer.seal([24, 0, 0, 1, 0, 22])).0, .nothing)
        XCTAssertTrue(peer.write.update())
        XCTAssertEqual(outputCount, 0)
        XCTAssertEqual(try receive(peer.seal(Array("newer".utf8) + [23])).1, Array("newer".utf8))
    }

    func testOurKeyUpdateChangesOurKeysAfterIt() throws {
        let peer = makePeer()
        XCTAssertTrue(layer.sendKeyUpdate(requestingPeers: true, reserve: reserve))
        XCTAssertEqual(peer.open(sent), [[24, 0, 0, 1, 1, 22]])
        XCTAssertTrue(peer.read.update())
        outputCount = 0
        XCTAssertTrue(Array("after".utf8).withUnsafeBytes { layer.seal($0, reserve: reserve) })
        XCTAssertEqual(peer.open(sent), [Array("after".utf8) + [23]])
    }

    func testHandshakeMessagesTheStandardForbidsAfterTheHandshake() {
        let cases: [([[UInt8]], UInt8)] = [
            ([[24, 0, 0, 1, 0, 24, 22]], Alert.unexpectedMessage), // the record goes on after a KeyUpdate
            ([[4, 0, 0, 1, 22]], Alert.unexpectedMessage), // NewSessionTicket from the client
            ([[24, 0, 0, 2, 22]], Alert.decodeError),
            ([[24, 0, 0, 1, 2, 22]], Alert.illegalParameter),
            ([[24, 0, 22], Array("x".utf8) + [23]], Alert.unexpectedMessage), // data inside a handshake message
            ([[22]], Alert.unexpectedMessage), // an empty handshake record
        ]
        for (inners, alert) in cases {
            setUp()
            let peer = makePeer()
            for inner in inners.dropLast() { XCTAssertNoThrow(try receive(peer.seal(inner))) }
            assertRefused(peer.seal(inners.last!), alert: alert)
        }
    }

    func testWritesLargerThanARecordAreSplitIntoRecordsOf16KiB() throws {
        let peer = makePeer()
        let plaintext = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        XCTAssertTrue(plaintext.withUnsafeBytes { layer.seal($0, reserve: reserve) })
        let records = peer.open(sent)
        XCTAssertEqual(records.map(\.count), [16_385, 16_385, 7_233])
        XCTAssertEqual(records.flatMap { $0.dropLast() }, plaintext)
        XCTAssertEqual(Set(records.map { $0.last! }), [23])
    }
}
