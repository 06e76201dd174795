import ActorFSM

/// A schema as a store keeps it: its description under its fingerprint, with what reading
/// its machines' entries without the Swift types takes.
public struct StoredSchema: Sendable, Codable, Equatable {
    /// The fingerprint entries written by this schema carry, as 16 hexadecimal digits.
    public var fingerprint: String
    /// The user version of the schema and its data (`Durability.schemaVersion`).
    public var schemaVersion: Int
    /// The states, transitions and timeouts.
    public var description: SchemaDescription
    /// Each state of ``description`` as the store's codec encodes it, in the same order: how
    /// a tool names the state an entry holds.
    public var encodedStates: [[UInt8]]

    /// A stored schema with these parts.
    public init(fingerprint: String, schemaVersion: Int, description: SchemaDescription, encodedStates: [[UInt8]]) {
        self.fingerprint = fingerprint
        self.schemaVersion = schemaVersion
        self.description = description
        self.encodedStates = encodedStates
    }

    /// The name of the state encoded as `bytes`, if it is one of this schema's.
    public func stateName(encoded bytes: [UInt8]) -> String? {
        encodedStates.firstIndex(of: bytes).map { description.states[$0].name }
    }

    /// A fingerprint as it is stored and shown.
    static func hex(_ fingerprint: UInt64) -> String {
        let digits = String(fingerprint, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StoredSchema {
    private enum Keys: String, CodingKey { case fingerprint, schemaVersion, description, encodedStates }

    /// Decodes a stored schema; its encoded states are base64 text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        fingerprint = try container.decode(String.self, forKey: .fingerprint)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        description = try container.decode(SchemaDescription.self, forKey: .description)
        encodedStates = try container.decode([String].self, forKey: .encodedStates).map { text in
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .encodedStates, in: container, debugDescription: "not base64")
            }
            return Array(data)
        }
    }

    /// Encodes a stored schema, its encoded states as base64 text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(fingerprint, forKey: .fingerprint)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(description, forKey: .description)
        try container.encode(encodedStates.map { Data($0).base64EncodedString() }, forKey: .encodedStates)
    }

    /// The schema as the JSON text a store keeps: also what `actorfsm check
    /// --schema-description FILE` reads to check a new version against a store before it is
    /// deployed.
    ///
    /// ```swift
    /// let file = try StoredSchema(schema: orderSchema, durability: durability).json()
    /// ```
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The schema a store kept as `json`, or `nil` if the text is not one.
    package init?(json: String) {
        guard let schema = try? JSONDecoder().decode(StoredSchema.self, from: Data(json.utf8)) else { return nil }
        self = schema
    }
}
