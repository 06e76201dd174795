/// One way to make a transition fire, read from the compiled table: its event, a case of each
/// predicate type its lookup depends on, and the `firstOf` alternatives tried before it, whose
/// conditions must fail first. Conditions are opaque: whether a guarded transition fires
/// depends on the machine's data.
package struct TransitionTrigger: Sendable {
    /// The transition's index in the schema's flattened table.
    package let transition: Int
    /// The event's id: below the schema's event count for an event, at or above it for a timeout.
    package let eventID: Int
    /// A case of each predicate type the lookup depends on, in slot order.
    package let predicates: [any MatchingPredicate]
    /// The alternatives of the transition's `firstOf` block tried before it, in order.
    package let precedingAlternatives: [Int]
}

extension Schema {
    /// How many events the table responds to; timeouts are numbered after them.
    package var eventCount: Int { storage.events.count }

    /// The index of the state `state` in ``states``, if the table names it.
    package func stateIndex(of state: State) -> Int? { storage.table.stateID(of: state).map(Int.init) }

    /// The id of `event` (below ``eventCount``), if the table responds to it.
    package func eventID(of event: Event) -> Int? { storage.table.eventID(event).map(Int.init) }

    /// The event with id `eventID`, for an event matched by value; `nil` for a ``CaseKeyed``
    /// event's case and for a timeout.
    package func event(withID eventID: Int) -> Event? {
        eventID < storage.events.count ? storage.events[eventID] as? Event : nil
    }

    /// The event id of the timeout of `duration`, if the table has one.
    package func timeoutEventID(of duration: Duration) -> Int? { storage.timers.timeoutID(duration).map(Int.init) }

    /// The duration of the timeout with id `eventID`, or `nil` for an event.
    package func timeoutDuration(ofEventID eventID: Int) -> Duration? {
        eventID >= storage.events.count ? storage.timers.timeouts[eventID - storage.events.count] : nil
    }

    /// The index in ``states`` of the state transition `index` leaves, and of the one it enters.
    package func endpoints(ofTransition index: Int) -> (source: Int, target: Int) {
        let hot = storage.actions.hot[index]
        return (Int(hot.source), Int(hot.target))
    }

    /// The event id of transition `index`.
    package func eventID(ofTransition index: Int) -> Int { Int(storage.transitions[index].event) }

    /// Per transition, the trigger that selects it with the fewest alternatives before it, or
    /// `nil` for a row no event and context select: every combination of the predicate cases a
    /// lookup depends on is tried (as many as the group's entries, which the compiler bounds).
    package func triggers() -> [TransitionTrigger?] {
        let table = storage.table
        var found = [TransitionTrigger?](repeating: nil, count: storage.transitions.count)
        for (cell, group) in table.groupIndex.enumerated() where group >= 0 {
            let layout = table.groups[Int(group)]
            let slots = layout.slotPositions.map { Int(table.groupSlots[$0]) }
            let radices = slots.map { table.predicateTypes[$0].cases.count }
            let strides = slots.map { table.slotStrides[Int(layout.strideRow) + table.typeColumns.columnsOfSlots[$0]] }
            var ordinals = [Int](repeating: 0, count: slots.count)
            repeat {
                var offset = Int(layout.base)
                for (place, ordinal) in ordinals.enumerated() { offset += ordinal * Int(strides[place]) }
                var chain: [Int] = []
                var candidate = table.entries[offset]
                while candidate >= 0 {
                    let index = Int(candidate)
                    if found[index].map({ $0.precedingAlternatives.count > chain.count }) ?? true {
                        found[index] = TransitionTrigger(
                            transition: index, eventID: cell % table.eventCount,
                            predicates: zip(slots, ordinals).map { table.predicateTypes[$0].cases[$1] },
                            precedingAlternatives: chain)
                    }
                    chain.append(index)
                    candidate = table.nextAlternative[index]
                }
            } while Self.advance(&ordinals, radices: radices)
        }
        return found
    }

    /// The next combination of `ordinals` in mixed radix `radices`; `false` after the last.
    private static func advance(_ ordinals: inout [Int], radices: [Int]) -> Bool {
        for place in ordinals.indices {
            ordinals[place] += 1
            if ordinals[place] < radices[place] { return true }
            ordinals[place] = 0
        }
        return false
    }
}
