import ActorFSMDurability

extension InMemoryStore: MachinePurging {
    /// Deletes the journals of those of `machines` still final at the entries given, after the
    /// writes queued before; see `MachinePurging`. During an outage it fails as every read does.
    public func deleteJournals(
        of machines: [(id: String, sequenceNumber: UInt64)], keepingSummaries: Bool
    ) async throws(StoreError) -> [String] {
        try await read { _ in }
        return contents.withLock { contents in
            machines.compactMap { id, number in
                guard var machine = contents.kept.machines[id], machine.sequenceNumber == number,
                      [.final, .cancelled, .purged].contains(machine.summary.status),
                      contents.kept.journals[id]?.keys.max().map({ $0 <= number }) ?? true,
                      !(keepingSummaries && machine.summary.status == .purged)
                else { return nil }
                contents.kept.journals[id] = nil
                if keepingSummaries && machine.summary.status != .purged {
                    (machine.summary.status, machine.sequenceNumber) = (.purged, 0)
                    contents.kept.machines[id] = machine
                } else {
                    contents.kept.machines[id] = nil
                }
                return id
            }
        }
    }
}
