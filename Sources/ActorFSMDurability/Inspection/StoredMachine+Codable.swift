/// A listed machine as JSON: one flat object, its summary's fields beside its id, as the
/// `actorfsm` command's `--json` and the web inspector print it:
/// `{"id": "1042", "sequenceNumber": 3, "change": 917, "state": "paid", "status": "running",
/// "fingerprint": "…", "schemaVersion": 1, "lastTransition": 1795756840278}` (and
/// `waitingUntil` when the machine waits for a timer).
extension StoredMachine: Codable {
    private enum Keys: String, CodingKey {
        case id, sequenceNumber, change, state, status, fingerprint, schemaVersion, lastTransition, waitingUntil
    }

    /// Decodes a machine from its flat JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let summary = MachineSummary(
            state: try container.decode(String.self, forKey: .state), status: try container.decode(MachineStatus.self, forKey: .status),
            fingerprint: try container.decode(String.self, forKey: .fingerprint),
            schemaVersion: try container.decode(Int.self, forKey: .schemaVersion),
            lastTransition: try container.decode(Int64.self, forKey: .lastTransition),
            waitingUntil: try container.decodeIfPresent(Int64.self, forKey: .waitingUntil))
        self.init(id: try container.decode(String.self, forKey: .id),
                  sequenceNumber: try container.decode(UInt64.self, forKey: .sequenceNumber), summary: summary,
                  change: try container.decode(Int64.self, forKey: .change))
    }

    /// Encodes the machine as one flat JSON object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encode(sequenceNumber, forKey: .sequenceNumber)
        try container.encode(change, forKey: .change)
        try container.encode(summary.state, forKey: .state)
        try container.encode(summary.status, forKey: .status)
        try container.encode(summary.fingerprint, forKey: .fingerprint)
        try container.encode(summary.schemaVersion, forKey: .schemaVersion)
        try container.encode(summary.lastTransition, forKey: .lastTransition)
        try container.encodeIfPresent(summary.waitingUntil, forKey: .waitingUntil)
    }
}
