import ActorFSM
import ActorFSMDurability

/// The keys of an encoded ``TransitionRecord``.
enum RecordCodingKeys: String, CodingKey {
    case sequenceNumber, machineID, source, event, predicates, target, outcome, actionsRun
    case transitionLocation, origin, postponements, latencyNanoseconds, data, retries
}

/// The keys of an encoded ``MachineError``.
enum ErrorCodingKeys: String, CodingKey { case kind, machineID, record, supervisorShutDown, cause }

extension TransitionRecord: Codable where State: Codable, Event: Codable, ID: Codable {
    /// Decodes a record made in another process. Its instants are this process's: it completed
    /// when it was decoded, and was accepted its ``latency`` before. A failure's error is a
    /// ``RemoteFailure``; the data is decoded when `Data` is `Decodable`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordCodingKeys.self)
        try self.init(fields: container, machineID: try container.decode(ID.self, forKey: .machineID))
    }

    /// Encodes the record's values, its latency rather than its instants (which mean nothing in
    /// another process), and its data when `Data` is `Encodable` and the record carries it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RecordCodingKeys.self)
        try container.encode(machineID, forKey: .machineID)
        try encodeFields(to: &container)
    }
}

extension TransitionRecord where State: Codable, Event: Codable {
    /// Decodes every value but the machine's id, which the caller knows.
    init(fields container: KeyedDecodingContainer<RecordCodingKeys>, machineID: ID) throws {
        let completed = Timestamp.now
        let latency = try container.decode(Int64.self, forKey: .latencyNanoseconds)
        var data: Definition.Data?
        if let type = Definition.Data.self as? any Decodable.Type, container.contains(.data) {
            data = try container.decode(type, forKey: .data) as? Definition.Data
        }
        let turn = EventTurn<Definition>(
            try container.decodeIfPresent(Event.self, forKey: .event),
            predicates: try container.decode(PredicateContext.self, forKey: .predicates),
            origin: try container.decode(EventOrigin.self, forKey: .origin),
            acceptedAt: Timestamp(nanoseconds: completed.nanoseconds - latency),
            number: try container.decode(UInt64.self, forKey: .sequenceNumber),
            source: try container.decode(State.self, forKey: .source),
            postponements: try container.decode(UInt32.self, forKey: .postponements))
        self.init(
            turn, machineID: machineID, target: try container.decode(State.self, forKey: .target),
            outcome: try container.decode(Outcome.self, forKey: .outcome),
            actions: ActionTally(completed: try container.decode(Int.self, forKey: .actionsRun),
                                 retries: try container.decodeIfPresent(Int.self, forKey: .retries) ?? 0),
            transitionLocation: try container.decodeIfPresent(SourceLocation.self, forKey: .transitionLocation),
            completedAt: completed, data: data)
    }

    /// Encodes every value but the machine's id.
    func encodeFields(to container: inout KeyedEncodingContainer<RecordCodingKeys>) throws {
        try container.encode(sequenceNumber, forKey: .sequenceNumber)
        try container.encode(source, forKey: .source)
        try container.encodeIfPresent(event, forKey: .event)
        try container.encode(predicates, forKey: .predicates)
        try container.encode(target, forKey: .target)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(actionsRun, forKey: .actionsRun)
        if attempts > 1 { try container.encode(attempts - 1, forKey: .retries) }
        try container.encodeIfPresent(transitionLocation, forKey: .transitionLocation)
        try container.encode(origin, forKey: .origin)
        try container.encode(postponedCount, forKey: .postponements)
        try container.encode(completed.nanoseconds(since: accepted), forKey: .latencyNanoseconds)
        if let data = data as? any Encodable { try container.encode(data, forKey: .data) }
    }
}

extension MachineError: Codable where Definition.State: Codable, Definition.Event: Codable, Definition.ID: Codable {
    /// Decodes an error made in another process; its ``underlying`` error is a ``RemoteFailure``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ErrorCodingKeys.self)
        try self.init(fields: container, machineID: try container.decode(Definition.ID.self, forKey: .machineID))
    }

    /// Encodes the kind, the machine, the record and the cause (as a ``RemoteFailure``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ErrorCodingKeys.self)
        try container.encode(machineID, forKey: .machineID)
        try encodeFields(to: &container)
    }
}

extension MachineError where Definition.State: Codable, Definition.Event: Codable {
    /// Decodes every value but the machine's id (its record's too), which the caller knows.
    init(fields container: KeyedDecodingContainer<ErrorCodingKeys>, machineID: Definition.ID) throws {
        let record = container.contains(.record)
            ? try TransitionRecord<Definition>(
                fields: container.nestedContainer(keyedBy: RecordCodingKeys.self, forKey: .record), machineID: machineID)
            : nil
        self.init(try container.decode(Kind.self, forKey: .kind), machineID: machineID, record: record,
                  supervisorShutDown: try container.decode(Bool.self, forKey: .supervisorShutDown),
                  cause: try container.decodeIfPresent(RemoteFailure.self, forKey: .cause))
    }

    /// Encodes every value but the machine's id.
    func encodeFields(to container: inout KeyedEncodingContainer<ErrorCodingKeys>) throws {
        try container.encode(kind, forKey: .kind)
        if let record {
            var nested = container.nestedContainer(keyedBy: RecordCodingKeys.self, forKey: .record)
            try record.encodeFields(to: &nested)
        }
        try container.encode(supervisorShutDown, forKey: .supervisorShutDown)
        try container.encodeIfPresent(cause.map(RemoteFailure.init), forKey: .cause)
    }
}
