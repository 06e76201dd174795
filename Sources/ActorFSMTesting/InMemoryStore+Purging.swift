import ActorFSMDurability

extension InMemoryStore: MachinePurging {
    /// Deletes the journals of those of `machines` still ended at the entries given (and their
    /// summaries, or, `keepingSummaries`, marks those purged), after the
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
                      machine.summary.status != .purged || contents.kept.journals[id] == nil,
                      !(keepingSummaries && machine.summary.status == .purged)
                else { return nil }
                contents.kept.journals[id] = nil
                if keepingSummaries && machine.summary.status != .purged {
                    contents.kept.lastChange += 1
                    (machine.summary.status, machine.sequenceNumber, machine.change) = (.purged, 0, contents.kept.lastChange)
                    contents.kept.machines[id] = machine
                } else {
                    contents.kept.machines[id] = nil
                }
                return id
            }
        }
    }
}
