import ActorFSM

/// How a durable machine turns its states, events and data into bytes and back: any
/// `Codable` format. A store names the one its machines use (``MachineStore/codec``).
public protocol DurableCodec: Sendable {
    /// The bytes of `value`.
    func encode<Value: Encodable>(_ value: Value) throws -> [UInt8]

    /// The value of type `type` that `bytes` hold.
    func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value
}
