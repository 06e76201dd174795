import ActorFSM

/// How the machines of one schema and durability configuration turn their values into the
/// bytes of journal entries and back. Made once, where the types are known to be `Codable`,
/// and shared by every machine of a supervisor: it keeps the encoded states, so that a
/// transition encodes only its event and data.
final package class DurableCoding<Definition: MachineDefinition>: Sendable {
    package typealias State = Definition.State
    package typealias Event = Definition.Event

    let durability: Durability<Definition>
    let codec: any DurableCodec
    /// Identifies the schema's states and events: an entry written by another schema is read
    /// with extra care (see ``Machine/restoring``).
    let fingerprint: UInt64
    /// Each state of the schema, encoded, by state id.
    let encodedStates: [[UInt8]]
    /// Whether each state, by state id, runs state tasks (child machines among them): a
    /// machine there has work to do with no new event.
    let runsTasks: [Bool]
    /// The schema as the store keeps it: names, final states and timeouts of the states.
    package let stored: StoredSchema
    let predicateTypes: [(name: String, cases: [any MatchingPredicate])]
    package let key: @Sendable (Definition.ID) -> String
    package let id: @Sendable (String) -> Definition.ID?
    let encodeState: @Sendable (State) throws -> [UInt8]
    let decodeState: @Sendable ([UInt8]) throws -> State
    package let encodeEvent: @Sendable (Event) throws -> [UInt8]
    package let decodeEvent: @Sendable ([UInt8]) throws -> Event
    let encodeData: @Sendable (Definition.Data) throws -> [UInt8]
    let decodeData: @Sendable ([UInt8]) throws -> Definition.Data
    /// The data a machine starts with when none is given: `()` for a definition without data.
    let emptyData: Definition.Data?

    /// Whether `state`, encoded as `bytes`, runs state tasks.
    func runsTasks(encoded bytes: [UInt8]) -> Bool {
        encodedStates.firstIndex(of: bytes).map { runsTasks[$0] } ?? false
    }

    /// A coding whose data goes through `encodeData` and `decodeData` (data of type `Void` has
    /// no bytes, and is not `Codable`).
    init(
        schema: Schema<Definition>, durability: Durability<Definition>,
        encodeData: @escaping @Sendable (Definition.Data) throws -> [UInt8],
        decodeData: @escaping @Sendable ([UInt8]) throws -> Definition.Data, emptyData: Definition.Data? = nil
    ) throws
    where Definition.State: Codable, Definition.Event: Codable, Definition.ID: LosslessStringConvertible {
        let codec = durability.store.codec
        self.durability = durability
        self.codec = codec
        let storage = schema.storage
        let stored = try StoredSchema(schema: schema, codec: codec, schemaVersion: durability.schemaVersion)
        self.stored = stored
        encodedStates = stored.encodedStates
        runsTasks = storage.states.map { schema.taskCount(of: $0) > 0 }
        predicateTypes = storage.table.predicateTypes.map { ($0.name, $0.cases) }
        fingerprint = UInt64(stored.fingerprint, radix: 16) ?? 0
        key = { $0.description }
        id = { Definition.ID($0) }
        encodeState = { try codec.encode($0) }
        decodeState = { try codec.decode(State.self, from: $0) }
        encodeEvent = { try codec.encode($0) }
        decodeEvent = { try codec.decode(Event.self, from: $0) }
        self.encodeData = encodeData
        self.decodeData = decodeData
        self.emptyData = emptyData
    }

    /// The summary of a machine whose newest completed entry is `payload`, in the state with
    /// id `stateID` (-1 for a state the schema does not list).
    func summary(of payload: JournalPayload, stateID: Int32) -> MachineSummary {
        guard stateID >= 0 else { return stored.summary(of: payload) }
        let state = stored.description.states[Int(stateID)]
        return MachineSummary(of: payload, state: state.name, isFinal: state.isFinal, timeouts: state.timeouts,
                              fingerprint: stored.fingerprint)
    }

    /// `predicates` as stored: the predicates of the schema's types, by type name and case.
    package func store(_ predicates: PredicateContext?) -> [StoredPredicate] {
        guard let predicates, !predicates.isEmpty else { return [] }
        return predicates.predicates.compactMap { predicate in
            let name = "\(type(of: predicate))"
            return Int(predicate.ordinal) >= 0 ? StoredPredicate(typeName: name, ordinal: UInt64(predicate.ordinal)) : nil
        }
    }

    /// The predicates `stored` names, against the schema's types; those it no longer has are
    /// left out, since no transition could match them.
    package func predicates(_ stored: [StoredPredicate]) -> PredicateContext? {
        guard !stored.isEmpty else { return nil }
        var values: [any MatchingPredicate] = []
        for predicate in stored {
            guard let type = predicateTypes.first(where: { $0.name == predicate.typeName }),
                  predicate.ordinal < UInt64(type.cases.count)
            else { continue }
            values.append(type.cases[Int(predicate.ordinal)])
        }
        return PredicateContext(values)
    }
}

/// The 64-bit FNV-1a hash, for schema fingerprints.
struct FNV1a {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01B3
        }
        value ^= 0xFF
        value &*= 0x0000_0100_0000_01B3
    }
}
