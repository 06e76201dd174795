import ActorFSM
import ActorFSMDurability

// The small values of records and errors, as they cross process boundaries (distributed actors,
// logs). Codes travel by name, so that adding a kind does not renumber the others.

extension SourceLocation: Codable {
    private enum CodingKeys: String, CodingKey { case fileID, line }

    /// Decodes `{"fileID": "Orders/Schema.swift", "line": 12}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(fileID: try container.decode(String.self, forKey: .fileID), line: try container.decode(UInt.self, forKey: .line))
    }

    /// Encodes the file identifier and the line.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileID, forKey: .fileID)
        try container.encode(line, forKey: .line)
    }
}

extension EventOrigin: Codable {
    private enum CodingKeys: String, CodingKey { case origin, timeoutNanoseconds }

    /// Decodes an origin by name; a timeout carries its duration in nanoseconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .origin)
        switch name {
        case "send": self = .send
        case "post": self = .post
        case "followUp": self = .followUp
        case "next": self = .next
        // Also the name a process of the previous release writes.
        case "scheduled", "delayedPost": self = .scheduled
        case "stateTask": self = .stateTask
        case "timeout": self = .timeout(after: .nanoseconds(try container.decode(Int64.self, forKey: .timeoutNanoseconds)))
        default:
            throw DecodingError.dataCorruptedError(forKey: .origin, in: container, debugDescription: "unknown event origin \(name)")
        }
    }

    /// Encodes the origin's name (and a timeout's duration).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let name = switch self {
        case .send: "send"
        case .post: "post"
        case .followUp: "followUp"
        case .next: "next"
        case .scheduled: "scheduled"
        case .stateTask: "stateTask"
        case .timeout: "timeout"
        }
        try container.encode(name, forKey: .origin)
        if let timeout { try container.encode(StoredOrigin.nanoseconds(timeout), forKey: .timeoutNanoseconds) }
    }
}

extension UnhandledReason: Codable {
    private enum CodingKeys: String, CodingKey { case kind, predicateType }

    /// Decodes a reason by its kind's name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .kind)
        guard let code = Kind.Code.allCases.first(where: { "\($0)" == name }) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown reason \(name)")
        }
        self.init(Kind(code: code), try container.decodeIfPresent(String.self, forKey: .predicateType))
    }

    /// Encodes the kind's name and the predicate type, if any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("\(kind.code)", forKey: .kind)
        try container.encodeIfPresent(predicateType, forKey: .predicateType)
    }
}

extension Outcome: Codable {
    private enum CodingKeys: String, CodingKey { case outcome, reason, failure }

    /// Decodes an outcome; a failure's error comes back as a ``RemoteFailure``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .outcome)
        switch name {
        case "transitioned": self = .transitioned
        case "conditionFalse": self = .conditionFalse
        case "stopped": self = .stopped
        case "unhandled": self = .unhandled(try container.decode(UnhandledReason.self, forKey: .reason))
        case "failed": self = .failed(try container.decode(RemoteFailure.self, forKey: .failure))
        default:
            throw DecodingError.dataCorruptedError(forKey: .outcome, in: container, debugDescription: "unknown outcome \(name)")
        }
    }

    /// Encodes the outcome's name, an unhandled event's reason, and a failure's error as a
    /// ``RemoteFailure`` (its type and message).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .transitioned: try container.encode("transitioned", forKey: .outcome)
        case .conditionFalse: try container.encode("conditionFalse", forKey: .outcome)
        case .stopped: try container.encode("stopped", forKey: .outcome)
        case .unhandled(let reason):
            try container.encode("unhandled", forKey: .outcome)
            try container.encode(reason, forKey: .reason)
        case .failed(let error):
            try container.encode("failed", forKey: .outcome)
            try container.encode(RemoteFailure(error), forKey: .failure)
        }
    }
}

extension MachineErrorKind: Codable {
    /// Decodes a kind by name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let code = Code.allCases.first(where: { "\($0)" == name }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown machine error kind \(name)")
        }
        self.init(code: code)
    }

    /// Encodes the kind's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
