import ActorFSM
import ActorFSMDurability
import ActorFSMTesting

/// The orders B12's store holds, as their first release wrote them: the states of
/// `InspectionFill.states`, the last four final.
enum CheckedOrder: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable {
        case placed, paymentPending, paid, shipping, delivered, cancelled, paymentFailed, paymentExpired, onHold
    }
    enum Event: String, Codable, Hashable, Sendable { case submit, pay, ship, deliver, cancel, fail, expire, hold }
    typealias ID = String
}

/// B12's compatibility checks: a supervisor of a new release of the orders asks
/// `compatibility()` of a store of 1,000,000 of them, as `restoreAll()` does at start.
enum CheckedReleases {
    /// The first release's table.
    static func schema() throws -> Schema<CheckedOrder> {
        try Schema<CheckedOrder>(initial: .placed, final: [.delivered, .cancelled, .paymentFailed, .paymentExpired]) {
            define(.placed) { when(.submit) | then(.paymentPending) ; when(.cancel) | then(.cancelled) }
            define(.paymentPending) {
                when(.pay) | then(.paid) ; when(.fail) | then(.paymentFailed) ; when(.expire) | then(.paymentExpired)
            }
            define(.paid) { when(.ship) | then(.shipping) }
            define(.shipping) { when(.deliver) | then(.delivered) }
        }
    }

    /// A release without `shipping`: a paid order is delivered at once.
    static func droppingShipping() throws -> Schema<CheckedOrder> {
        try Schema<CheckedOrder>(initial: .placed, final: [.delivered, .cancelled, .paymentFailed, .paymentExpired]) {
            define(.placed) { when(.submit) | then(.paymentPending) ; when(.cancel) | then(.cancelled) }
            define(.paymentPending) {
                when(.pay) | then(.paid) ; when(.fail) | then(.paymentFailed) ; when(.expire) | then(.paymentExpired)
            }
            define(.paid) { when(.ship) | then(.delivered) }
        }
    }

    /// A release that adds `onHold` and keeps every state.
    static func addingHold() throws -> Schema<CheckedOrder> {
        try Schema<CheckedOrder>(initial: .placed, final: [.delivered, .cancelled, .paymentFailed, .paymentExpired]) {
            define(.placed) { when(.submit) | then(.paymentPending) ; when(.cancel) | then(.cancelled) ; when(.hold) | then(.onHold) }
            define(.onHold) { when(.submit) | then(.paymentPending) }
            define(.paymentPending) {
                when(.pay) | then(.paid) ; when(.fail) | then(.paymentFailed) ; when(.expire) | then(.paymentExpired)
            }
            define(.paid) { when(.ship) | then(.shipping) }
            define(.shipping) { when(.deliver) | then(.delivered) }
        }
    }

    /// The fingerprint of the first release, which the filled summaries carry.
    static func firstFingerprint() throws -> String {
        try StoredSchema(schema: try schema(), durability: Durability(store: InMemoryStore())).fingerprint
    }

    /// Records the first release's description in `store`, then times the check of a release
    /// that drops `shipping` (125,000 machines in it) and of one that only adds a state.
    static func timeChecks(on store: any MachineStore, store name: String) async throws -> [Measurement] {
        let first = try Supervisor(schema: try schema(), durability: Durability(store: store))
        let dropping = try Supervisor(schema: try droppingShipping(), durability: Durability(store: store, schemaVersion: 2))
        let adding = try Supervisor(schema: try addingHold(), durability: Durability(store: store, schemaVersion: 3))
        let clock = ContinuousClock()
        let refused = try await measure("B12 compatibility(), a state dropped (125,000 machines), \(name), 1M machines",
                                                   unit: "ms", repetitions: 3, units: 1, scale: 1_000_000) {
            let start = clock.now
            let report = try await dropping.compatibility()
            return (clock.now - start, report.problems.first?.machines ?? 0)
        }
        let kept = try await measure("B12 compatibility(), every state kept, \(name), 1M machines",
                                                unit: "ms", repetitions: 3, units: 1, scale: 1_000_000) {
            let start = clock.now
            let report = try await adding.compatibility()
            return (clock.now - start, report.problems.count)
        }
        for supervisor in [first, dropping] { await supervisor.shutdown() }
        await adding.shutdown()
        return [refused, kept]
    }
}
