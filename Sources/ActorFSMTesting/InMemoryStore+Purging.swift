import ActorFSMDurability

extension InMemoryStore: MachinePurging {
    /// Deletes the journals of those of `machines` still final at the entries given, after the
    /// writes queued before; see `MachinePurging`. During an outage it fails as every read does.
    public func deleteJournals(of machines: [(id: String, sequenceNumber: UInt64)]) async throws(StoreError) -> [String] {
        try await read { _ in }
        return contents.withLock { contents in
            machines.compactMap { id, number in
                guard let machine = contents.kept.machines[id], machine.sequenceNumber == number,
                      [.final, .cancelled].contains(machine.summary.status),
                      contents.kept.journals[id]?.keys.max().map({ $0 <= number }) ?? true
                else { return nil }
                contents.kept.journals[id] = nil
                contents.kept.machines[id] = nil
                return id
            }
        }
    }
}
