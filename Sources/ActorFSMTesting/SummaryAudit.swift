import ActorFSMDurability

/// Checks that a store's summaries agree with its journal: what `actorfsm`, the inspector and
/// `StoreInspection` queries read against what recovery reads.
///
/// For every machine, the summary must name the newest completed entry and the state that entry
/// holds, and the counts per schema and state must be those of the journal. A machine whose
/// failed event an operator's retry put back, as an intent under the failed entry's number,
/// keeps the failed entry's summary until a process restores it and processes the event. A
/// summary a purge kept (status `purged`) has no journal, and is not counted. Run it after a
/// fault (a crash, an outage, a fenced write) to prove the summaries lost and invented nothing.
///
/// ```swift
/// let problems = await SummaryAudit.disagreements(in: store)
/// #expect(problems.isEmpty, "\(problems)")
/// ```
public enum SummaryAudit {
    /// What disagrees, one sentence per problem; empty when the summaries and the journal agree.
    public static func disagreements(in store: any MachineStore & StoreInspection) async -> [String] {
        var problems: [String] = []
        do {
            let journal = ScanningInspection(store: store, schemas: try await store.storedSchemas())
            var query = MachineQuery(limit: 10_000)
            while true {
                let page = try await journal.machines(query)
                for read in page.machines {
                    if let problem = try await disagreement(of: read, in: store) { problems.append(problem) }
                }
                guard let next = page.next else { break }
                query.after = next
            }
            let counted = try await Self.countsWithoutPurged(in: store).sorted(by: Self.order)
            let scanned = try await journal.stateCounts().sorted(by: Self.order)
            if counted != scanned {
                problems.append("the summaries count \(Self.describe(counted)), the journal \(Self.describe(scanned))")
            }
        } catch {
            problems.append("the summaries could not be read: \(error)")
        }
        return problems
    }

    /// The store's counts per schema and state, less the machines whose summaries a purge kept.
    private static func countsWithoutPurged(in store: any StoreInspection) async throws(StoreError) -> [StateCount] {
        var counts = try await store.stateCounts()
        var query = MachineQuery(status: .purged, limit: 10_000)
        while true {
            let page = try await store.machines(query)
            for machine in page.machines {
                guard let index = counts.firstIndex(where: {
                    $0.fingerprint == machine.summary.fingerprint && $0.state == machine.summary.state
                }) else { continue }
                counts[index].count -= 1
            }
            guard let next = page.next else { break }
            query.after = next
        }
        return counts.filter { $0.count > 0 }
    }

    private static func order(_ lhs: StateCount, _ rhs: StateCount) -> Bool {
        (lhs.fingerprint, lhs.state) < (rhs.fingerprint, rhs.state)
    }

    private static func describe(_ counts: [StateCount]) -> String {
        counts.isEmpty ? "no machine" : counts.map { "\($0.count) in \($0.state)" }.joined(separator: ", ")
    }

    private static func disagreement(
        of read: StoredMachine, in store: any StoreInspection
    ) async throws(StoreError) -> String? {
        let kept = try await store.machine(read.id)
        guard kept?.sequenceNumber != read.sequenceNumber || kept?.summary.state != read.summary.state else { return nil }
        if let kept, kept.summary.status == .failed, let newest = try await store.history(of: read.id).last,
           newest.kind == .intent, newest.operation?.verb == "retry", newest.sequenceNumber == kept.sequenceNumber {
            return nil
        }
        return "machine \(read.id): its summary says entry \(kept?.sequenceNumber ?? 0) in \(kept?.summary.state ?? "no state"), "
            + "its journal entry \(read.sequenceNumber) in \(read.summary.state)"
    }
}
