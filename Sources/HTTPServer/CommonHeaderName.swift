#if canImport(Glibc)
import Glibc
#endif

/// The header names that nearly every WebSocket upgrade and page request carries, as the
/// strings the parser hands out when a name's bytes are exactly one of them: a literal lives
/// in the binary and is never counted or freed, where making the name afresh cost about 200
/// instructions (validating the bytes, and a heap block for a name over 15 bytes).
enum CommonHeaderName {
    /// Each name in the case browsers send and in lower case (as HTTP/2 proxies pass it on),
    /// its bytes to compare beside the `String` literal to hand out.
    static let names: [(bytes: StaticString, string: String)] = [
        ("Host", "Host"), ("host", "host"),
        ("Upgrade", "Upgrade"), ("upgrade", "upgrade"),
        ("Connection", "Connection"), ("connection", "connection"),
        ("Origin", "Origin"), ("origin", "origin"),
        ("Sec-WebSocket-Key", "Sec-WebSocket-Key"), ("sec-websocket-key", "sec-websocket-key"),
        ("Sec-WebSocket-Version", "Sec-WebSocket-Version"), ("sec-websocket-version", "sec-websocket-version"),
        ("Sec-WebSocket-Extensions", "Sec-WebSocket-Extensions"), ("sec-websocket-extensions", "sec-websocket-extensions"),
        ("User-Agent", "User-Agent"), ("user-agent", "user-agent"),
        ("Accept", "Accept"), ("accept", "accept"),
        ("Accept-Encoding", "Accept-Encoding"), ("accept-encoding", "accept-encoding"),
        ("Accept-Language", "Accept-Language"), ("accept-language", "accept-language"),
        ("Cache-Control", "Cache-Control"), ("cache-control", "cache-control"),
        ("Pragma", "Pragma"), ("pragma", "pragma"),
        ("Cookie", "Cookie"), ("cookie", "cookie"),
        ("X-Forwarded-For", "X-Forwarded-For"), ("x-forwarded-for", "x-forwarded-for"),
    ]

    /// `bytes` as a `String`: a common name's literal when they are exactly its bytes.
    static func string(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let base = bytes.baseAddress {
            for name in names where name.bytes.utf8CodeUnitCount == bytes.count && memcmp(name.bytes.utf8Start, base, bytes.count) == 0 {
                return name.string
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
