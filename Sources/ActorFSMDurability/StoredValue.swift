import ActorFSM

/// A state or a data value as a store holds it, handed to a ``SchemaMigration`` when the
/// current types cannot read it: decode it as the type that wrote it.
public struct StoredValue: Sendable, CustomStringConvertible {
    /// The encoded bytes.
    public let bytes: [UInt8]
    /// The user version of the schema that wrote it (``Durability/schemaVersion``).
    public let schemaVersion: Int
    let codec: any DurableCodec

    /// The value decoded as `type`, typically the type the older schema used.
    public func decode<Value: Decodable>(as type: Value.Type) throws -> Value {
        try codec.decode(type, from: bytes)
    }

    /// The bytes as text if they are UTF-8 (as JSON is), else their count.
    public var description: String {
        String(validating: bytes, as: UTF8.self) ?? "\(bytes.count) bytes"
    }
}
