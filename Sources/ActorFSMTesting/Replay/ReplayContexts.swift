import ActorFSM

/// The predicate contexts that select a schema's rows, by state and event: what a stored entry
/// that kept no predicates (a completed one keeps them only when its event failed) may have been
/// processed with. A replay tries them when the entry's event, resolved without predicates,
/// does not do what the entry records.
struct ReplayContexts<Definition: MachineDefinition> {
    /// A state and an event (or timeout), by index and id.
    private struct Cell: Hashable {
        let state: Int
        let event: Int
    }

    private let byCell: [Cell: [PredicateContext]]

    /// The contexts of `schema`'s rows that depend on predicates.
    init(_ schema: Schema<Definition>) {
        var byCell: [Cell: [PredicateContext]] = [:]
        for trigger in schema.triggers().compactMap({ $0 }) where !trigger.predicates.isEmpty {
            let cell = Cell(state: schema.endpoints(ofTransition: trigger.transition).source, event: trigger.eventID)
            byCell[cell, default: []].append(PredicateContext(trigger.predicates))
        }
        self.byCell = byCell
    }

    /// The contexts that select a row of the state with index `state` for the event with id `event`.
    func contexts(state: Int, event: Int) -> [PredicateContext] {
        byCell[Cell(state: state, event: event)] ?? []
    }
}
