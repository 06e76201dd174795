import ActorFSMDurability
import ActorFSMTesting

extension Verification {
    /// Whether each store's summaries (what `actorfsm` and the inspection read) agree with its
    /// journal: every machine's newest completed entry, its number and its state.
    func checkSummaries() async -> [String] {
        var problems: [String] = []
        var checked: Set<ObjectIdentifier> = []
        for store in [orderStore, paymentStore] where checked.insert(ObjectIdentifier(store)).inserted {
            guard let kept = store as? any MachineStore & StoreInspection else { continue }
            problems += await SummaryAudit.disagreements(in: kept)
        }
        return problems
    }
}
