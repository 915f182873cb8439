#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A decoder that makes a `Decodable` value from `Data`, such as `JSONDecoder` or
/// `PropertyListDecoder`; `decode(type:decoder:)` takes any of them.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    ///
    /// - throws: The decoding error.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each `Data` element into a value of `type` with `decoder`; a decoding error
    /// fails the sequence.
    ///
    /// - parameter type: The type to decode.
    /// - parameter decoder: The decoder, e.g. a `JSONDecoder`.
    /// - returns: The decoded values.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
