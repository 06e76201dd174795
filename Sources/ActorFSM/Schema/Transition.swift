/// One transition of a schema, flattened: what a `define`, its super states and context blocks
/// add up to for one state and one event.
public struct Transition<Definition: MachineDefinition>: Sendable, CustomStringConvertible {
    /// The definition's state type.
    public typealias State = Definition.State
    /// The definition's event type.
    public typealias Event = Definition.Event
    @usableFromInline let storage: SchemaStorage<Definition>
    @usableFromInline let index: Int

    /// The transition at `index` of `storage`'s table.
    @inlinable init(storage: SchemaStorage<Definition>, index: Int) {
        self.storage = storage
        self.index = index
    }

    var compiled: CompiledTransition<Definition> { storage.transitions[index] }

    /// The state the transition leaves.
    @inlinable public var source: State { storage.states[Int(storage.actions.hot[index].source)] }
    /// The event it responds to: an `Event` value, an `Event.CaseKey` for ``CaseKeyed`` events, or
    /// a ``Timeout`` for `after(…)`.
    public var event: any Hashable & Sendable {
        let id = Int(compiled.event)
        return id < storage.events.count ? storage.events[id] : Timeout(storage.timers.timeouts[id - storage.events.count])
    }
    /// The timeout that triggers it, for a transition declared with `after(…)`.
    public var timeout: Timeout? { event as? Timeout }
    /// The event's label, as written in the table.
    public var eventDescription: String { storage.eventLabels[Int(compiled.event)] }
    /// The state it moves to (the source state for `then()`).
    @inlinable public var target: State { storage.states[Int(storage.actions.hot[index].target)] }
    /// The predicates it requires, per predicate type; an absent type is not constrained.
    public var predicates: [PredicateRequirement] {
        compiled.filter.constraints.map { constraint in
            let type = storage.table.predicateTypes[constraint.slot]
            return PredicateRequirement(typeName: type.name, anyOf: constraint.cases.map { type.cases[Int($0)] })
        }
    }
    /// Whether a `condition` must also hold.
    public var hasCondition: Bool { !compiled.guards.isEmpty }
    /// Its actions, in order, not counting entry and exit actions.
    public var actions: Actions<Definition> { compiled.actions }
    /// The number of its actions.
    public var actionCount: Int { compiled.actions.count }
    /// Where the statement that declared it starts.
    public var location: SourceLocation { compiled.location }
    /// Whether it was declared in an `override` block.
    public var isOverride: Bool { compiled.isOverride }
    /// Whether it postpones its event until the next change of state (`postpone()`).
    public var postpones: Bool { compiled.postpones }
    /// Its place among the alternatives a ``firstOf(fileID:line:_:)`` block declares for its
    /// state and event, from 0 (tried first); `nil` if it is not in such a block.
    public var alternative: Int? {
        let rank = storage.table.alternativeRank[index]
        return rank >= 0 ? Int(rank) : nil
    }

    /// `locked --coin [Enforcement.weak]--> unlocked (Module/File.swift:12)`.
    public var description: String {
        let requirements = predicates.map(\.description)
        let predicateText = requirements.isEmpty ? "" : " [\(requirements.joined(separator: ", "))]"
        let conditionText = switch (alternative, hasCondition) {
        case (let rank?, true): " if condition, alternative \(rank + 1)"
        case (let rank?, false): " otherwise, alternative \(rank + 1)"
        case (nil, true): " if condition"
        case (nil, false): ""
        }
        return "\(source) --\(eventDescription)\(predicateText)\(conditionText)--> \(target) (\(location))"
    }
}

/// The cases of one predicate type a transition accepts.
public struct PredicateRequirement: Sendable, CustomStringConvertible {
    /// The predicate type's name.
    public let typeName: String
    /// The accepted cases: any one of them matches.
    public let anyOf: [any MatchingPredicate]

    /// `Enforcement.weak` or `Enforcement.weak | Enforcement.strong`.
    public var description: String { anyOf.map(\.qualifiedName).joined(separator: " | ") }

    /// Whether `context` holds one of the accepted cases.
    package func isMet(by context: PredicateContext) -> Bool {
        let names = Set(anyOf.map(\.qualifiedName))
        return context.predicates.contains { names.contains($0.qualifiedName) }
    }
}
