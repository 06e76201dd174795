import ActorFSMDurability

extension Verification {
    /// Whether each store's summaries (what `actorfsm` and the inspection read) agree with its
    /// journal: every machine's newest completed entry, its number and its state.
    func checkSummaries() async -> [String] {
        var problems: [String] = []
        var checked: Set<ObjectIdentifier> = []
        for store in [orderStore, paymentStore] where checked.insert(ObjectIdentifier(store)).inserted {
            guard let kept = store as? any StoreInspection else { continue }
            do {
                let scanning = ScanningInspection(store: store, schemas: try await kept.storedSchemas())
                var query = MachineQuery(limit: 10_000)
                while true {
                    let page = try await scanning.machines(query)
                    for journal in page.machines {
                        let summary = try await kept.machine(journal.id)
                        if summary?.sequenceNumber != journal.sequenceNumber || summary?.summary.state != journal.summary.state {
                            problems.append("machine \(journal.id): its summary says entry \(summary?.sequenceNumber ?? 0) in "
                                            + "\(summary?.summary.state ?? "no state"), its journal entry \(journal.sequenceNumber) "
                                            + "in \(journal.summary.state)")
                        }
                    }
                    guard let next = page.next else { break }
                    query.after = next
                }
                let counted = try await kept.stateCounts().reduce(0) { $0 + $1.count }
                let scanned = try await scanning.stateCounts().reduce(0) { $0 + $1.count }
                if counted != scanned { problems.append("the summaries count \(counted) machines, the journal \(scanned)") }
            } catch {
                problems.append("the summaries could not be read: \(error)")
            }
        }
        return problems
    }
}
