import ActorFSM
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The default ``DurableCodec``: JSON, readable in the store with any SQLite or PostgreSQL
/// client, and tolerant of added optional fields.
public struct JSONCodec: DurableCodec {
    /// A JSON codec.
    public init() {}

    /// The JSON bytes of `value`.
    public func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        Array(try JSONEncoder().encode(value))
    }

    /// The value of type `type` that the JSON `bytes` hold.
    public func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
