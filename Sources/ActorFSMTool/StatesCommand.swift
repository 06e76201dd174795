import ActorFSM
import ActorFSMDurability

/// `actorfsm states`: machines per state, per schema; or the schema's diagram with the counts.
struct StatesCommand {
    let context: CommandContext
    var invocation: Invocation { context.invocation }
    var store: any StoreInspection { context.store }

    func output(_ text: String) { context.output(text) }

    func run() async throws {
        let counts = try await store.stateCounts()
        let schemas = try await store.storedSchemas()
        let wanted = invocation.query.fingerprint
        switch invocation.format {
        case .dot, .mermaid:
            let schema = try SchemaChoice.one(name: nil, fingerprint: wanted, among: schemas)
            let perState = try await store.counts(of: schema.fingerprint)
            var all = perState
            for state in schema.description.states where all[state.name] == nil { all[state.name] = 0 }
            output(invocation.format == .dot ? schema.description.dot(counts: all) : schema.description.mermaid(counts: all))
        case .json:
            output(try TextFormat.json(counts))
        case .table:
            let names = Dictionary(schemas.map { ($0.fingerprint, "\($0.description.name) v\($0.schemaVersion)") }) { first, _ in first }
            let rows = counts.filter { wanted == nil || $0.fingerprint == wanted }.map { count in
                [names[count.fingerprint] ?? "?", count.fingerprint, count.state, String(count.count)]
            }
            output(TextFormat.table(["SCHEMA", "FINGERPRINT", "STATE", "MACHINES"], rows))
        }
    }
}
