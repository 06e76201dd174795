import ActorFSM

/// Finds the events that machines of older versions of a schema hold, in an interrupted
/// transition or posted to themselves and not yet processed, and that the new schema cannot
/// decode. It looks only where a stored version's table names an event that the new table does
/// not, and that the new type does not decode from its label (as an enum of `String` raw values
/// stores its cases): then it reads the newest entry of each of that version's machines that has
/// not ended.
struct EventCheck<Definition: MachineDefinition> {
    let coding: DurableCoding<Definition>
    let schema: Schema<Definition>
    let store: any MachineStore & StoreInspection

    /// The problems of the machines that `versions`, the store's versions of the schema, wrote.
    /// The one whose fingerprint is the schema's counts too: a fingerprint covers the states, and
    /// the store keeps the description first written under it, so an older table may be there.
    func problems(of versions: [StoredSchema]) async throws(StoreError) -> [CompatibilityReport.Problem] {
        let known = Set(coding.stored.description.transitions.map(\.label))
        var problems: [CompatibilityReport.Problem] = []
        for stored in versions {
            let dropped = stored.description.transitions.map(\.label).filter {
                !known.contains($0) && !$0.hasPrefix("after ") && !decodes(label: $0)
            }
            guard !dropped.isEmpty else { continue }
            var held: [String: [String]] = [:]
            var query = MachineQuery(fingerprint: stored.fingerprint, limit: 500)
            while true {
                let page = try await store.machines(query)
                let running = page.machines.filter { ![.final, .cancelled, .purged].contains($0.summary.status) }.map(\.id)
                for (id, entries) in try await store.latestEntries(of: running, count: 1) {
                    for event in entries.last.map(undecodableEvents) ?? [] { held[event, default: []].append(id) }
                }
                guard let next = page.next else { break }
                query.after = next
            }
            for (event, ids) in held.sorted(by: { $0.key < $1.key }) {
                problems.append(CompatibilityReport.Problem(
                    fingerprint: stored.fingerprint, schemaVersion: stored.schemaVersion, state: "", event: event,
                    machines: ids.count, firstIDs: Array(ids.sorted().prefix(10)),
                    reason: "it does not decode as an event of \(coding.stored.description.name): keep its case until no machine holds it"))
            }
        }
        return problems
    }

    /// Whether the schema's event type decodes `label` written as text by the codec, as the
    /// cases of an enum of `String` raw values are stored: then the case is still there.
    private func decodes(label: String) -> Bool {
        guard let bytes = try? coding.codec.encode(label) else { return false }
        return (try? coding.decodeEvent(bytes)) != nil
    }

    /// The events `entry` holds that the schema cannot decode, as their stored bytes read as text.
    private func undecodableEvents(in entry: JournalEntry) -> [String] {
        // A damaged entry is the restore's to report, with its machine and number.
        guard let payload = JournalPayload(decoding: entry) else { return [] }
        var events = payload.timers.pending.map(\.event)
        if payload.isIntent, let event = payload.event { events.append(event) }
        return events.compactMap { bytes in
            (try? coding.decodeEvent(bytes)) == nil ? String(decoding: bytes, as: UTF8.self) : nil
        }
    }
}
