/// The immutable tables behind a `Schema`, shared by every copy of it and every machine.
///
/// Every stored property is a `let` of a `Sendable` type, so the class is `Sendable` by construction.
final class SchemaStorage<State: Hashable & Sendable, Event: Sendable>: Sendable {
    let initial: Int32
    let states: [State]
    let stateIDs: [State: Int32]
    let events: [any Hashable & Sendable]
    let eventLabels: [String]
    let eventID: @Sendable (Event) -> Int32?
    let predicateTypes: [PredicateType]
    let predicateSlots: [ObjectIdentifier: Int32]
    let transitions: [CompiledTransition<State, Event>]
    /// For `state * eventCount + event`, the index of its `LookupGroup`, or -1.
    let groupIndex: [Int32]
    let groups: [LookupGroup]
    /// For each group's combination of predicate cases, the winning transition, or -1.
    let entries: [Int32]
    let entryActions: [Actions<State, Event>]
    let exitActions: [Actions<State, Event>]
    let policy: EntryExitPolicy

    init(
        initial: Int32, states: [State], stateIDs: [State: Int32], events: [any Hashable & Sendable],
        eventLabels: [String], eventID: @escaping @Sendable (Event) -> Int32?, predicateTypes: [PredicateType],
        predicateSlots: [ObjectIdentifier: Int32], transitions: [CompiledTransition<State, Event>],
        groupIndex: [Int32], groups: [LookupGroup], entries: [Int32],
        entryActions: [Actions<State, Event>], exitActions: [Actions<State, Event>], policy: EntryExitPolicy
    ) {
        self.initial = initial
        self.states = states
        self.stateIDs = stateIDs
        self.events = events
        self.eventLabels = eventLabels
        self.eventID = eventID
        self.predicateTypes = predicateTypes
        self.predicateSlots = predicateSlots
        self.transitions = transitions
        self.groupIndex = groupIndex
        self.groups = groups
        self.entries = entries
        self.entryActions = entryActions
        self.exitActions = exitActions
        self.policy = policy
    }

    /// The transition that `event` triggers in the state with id `state`: O(1) in the size of the
    /// table, with no allocation, boxing or lock.
    func lookup(state: Int32, event: Event, predicates: PredicateContext) -> Lookup {
        guard let eventID = eventID(event) else { return .unhandled(.init(.unknownEvent)) }
        let group = groupIndex[Int(state) &* events.count &+ Int(eventID)]
        guard group >= 0 else { return .unhandled(.init(.noTransition)) }
        if let repeated = predicates.repeatedType { return .unhandled(.init(.ambiguousPredicate, repeated)) }
        for entry in predicates.entries where predicateSlots[entry.typeID] == nil {
            return .unhandled(.init(.unknownPredicate, "\(type(of: entry.value))"))
        }
        let layout = groups[Int(group)]
        var offset = layout.base
        for (position, slot) in layout.slots.enumerated() {
            let type = predicateTypes[Int(slot)]
            guard let entry = predicates.entries.first(where: { $0.typeID == type.id }),
                  let caseID = entry.value.caseID(in: type.index)
            else { return .unhandled(.init(.missingPredicate, type.name)) }
            offset &+= caseID &* layout.strides[position]
        }
        let transition = entries[Int(offset)]
        guard transition >= 0 else { return .unhandled(.init(.noTransition)) }
        return transitions[Int(transition)].admits(event) ? .fires(transition) : .conditionFalse(transition)
    }

    /// What a lookup found, by transition index.
    enum Lookup: Sendable {
        case fires(Int32)
        case conditionFalse(Int32)
        case unhandled(UnhandledReason)
    }
}
