/// What the schema finds transitions with: states and events by dense id, and for each
/// (state, event) a cell that names its transition or the group table its predicates index.
/// It finds transitions and evaluates their conditions; it runs nothing.
@usableFromInline
final package class LookupTable<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    @usableFromInline package let stateIDs: [State: Int32]
    /// For states that are payload-free enums: ids by tag, without hashing.
    @usableFromInline let stateTagTable: TagTable?
    /// Events and then timeouts: the width of a row of `cells` and of `groupIndex`.
    @usableFromInline let eventCount: Int
    @usableFromInline let eventID: @Sendable (Event) -> Int32?
    /// For events matched by value that are payload-free enums: ids by tag, without a closure.
    @usableFromInline let tagTable: TagTable?
    @usableFromInline package let predicateTypes: [PredicateType]
    /// The identifiers of `predicateTypes`, by slot.
    @usableFromInline let predicateTypeIDs: [ObjectIdentifier]
    @usableFromInline let predicateSlots: [ObjectIdentifier: Int32]
    /// The column of each slot (of `predicateTypeIDs`) in a row of `slotStrides`, and the hash
    /// that finds it from a type's identifier.
    @usableFromInline let typeColumns: TypeColumns
    /// For `state * eventCount + event`, the index of its `LookupGroup`, or -1.
    @usableFromInline let groupIndex: [Int32]
    /// For `state * eventCount + event`: its transition, if no search is needed, and where its
    /// group's table lies, read in one step.
    @usableFromInline let cells: [LookupCell]
    @usableFromInline let groups: [LookupGroup]
    /// The predicate slots of every group (see ``LookupGroup/slotPositions``).
    @usableFromInline let groupSlots: [Int32]
    /// For `group.strideRow + column`: the weight of the case ordinal of the column's predicate
    /// type (see ``TypeColumns``) in the group's combined index, or 0 if the group does not
    /// depend on that type (and for `Never` and unused columns). A lookup reads one weight per
    /// predicate of the context, and one per place of a context held in place.
    @usableFromInline let slotStrides: [Int32]
    /// For each group's combination of predicate cases, the winning transition, or -1.
    @usableFromInline let entries: [Int32]
    /// Per transition, whether it has conditions.
    @usableFromInline let guarded: [Bool]
    /// Per transition, its conditions.
    @usableFromInline let conditions: [[Guard<Definition>]]
    /// Per transition, the alternative of its `firstOf` block tried next when its conditions
    /// fail, or -1.
    @usableFromInline let nextAlternative: [Int32]
    /// Per transition of a `firstOf` block, its place among the alternatives of its state and
    /// event; -1 for others.
    let alternativeRank: [Int32]

    /// The table for `states` and the compiler's lookup groups.
    init(
        states: [State], eventCount: Int, eventID: @escaping @Sendable (Event) -> Int32?, tagTable: TagTable?,
        space: PredicateSpace, typeColumns: TypeColumns, transitions: [CompiledTransition<Definition>],
        groups built: LookupTableBuilder<Definition>.Output
    ) {
        let (groupIndex, groups, groupSlots, slotStrides, entries) =
            (built.groupIndex, built.groups, built.groupSlots, built.slotStrides, built.entries)
        let predicateTypes = space.types
        // What the lookup's unchecked reads of strides rest on: every group's row is whole.
        precondition(slotStrides.count >= typeColumns.width && groups.allSatisfy {
            $0.strideRow >= 0 && Int($0.strideRow) + typeColumns.width <= slotStrides.count
        }, "a whole row of strides per group")
        self.stateIDs = Dictionary(uniqueKeysWithValues: states.enumerated().map { ($1, Int32($0)) })
        self.stateTagTable = TagTable(states)
        self.eventCount = eventCount
        self.eventID = eventID
        self.tagTable = tagTable
        self.predicateTypes = predicateTypes
        self.predicateTypeIDs = predicateTypes.map(\.id)
        self.predicateSlots = space.slots.mapValues { Int32($0) }
        self.typeColumns = typeColumns
        self.groupIndex = groupIndex
        self.groups = groups
        self.groupSlots = groupSlots
        self.slotStrides = slotStrides
        self.entries = entries
        self.cells = groupIndex.map { group in
            guard group >= 0 else { return .empty }
            let layout = groups[Int(group)]
            let direct = layout.slotCount == 0 && entries[Int(layout.base)] >= 0 ? entries[Int(layout.base)] : -2
            return LookupCell(group: layout, direct: direct)
        }
        self.conditions = transitions.map(\.guards)
        self.guarded = transitions.map { !$0.guards.isEmpty }
        self.nextAlternative = built.nextAlternative
        self.alternativeRank = built.alternativeRank
    }

    /// The id of `state`, if the table names it. A tag table's hit is final, since the byte is
    /// the whole value; a miss is not, so an unusual `==` is honoured (as for events).
    @inlinable @inline(__always)
    func stateID(of state: State) -> Int32? {
        if let id = stateTagTable?.id(of: state) { return id }
        return stateIDs[state]
    }

    /// The transition that `event` triggers in the state with id `state`: O(1) in the size of the
    /// table, with no allocation, boxing or lock.
    @inlinable @inline(__always)
    func lookup(state: Int32, event: Event, predicates: PredicateContext, data: Definition.Data) -> LookupResult {
        // The tag table answers for payload-free enums; the closure still decides a miss, so an
        // unusual `==` (two cases declared equal) is honoured, at a cost only for unknown events.
        guard let eventID = tagTable?.id(of: event) ?? eventID(event) else {
            return .unhandled(.init(.unknownEvent))
        }
        return lookup(state: state, eventID: eventID, event: event, predicates: predicates, data: data)
    }

    /// The transition that the event with id `eventID` triggers: `event` is `nil` for a timeout.
    ///
    /// Two paths are inlined into the caller: an empty context in a cell that needs no search,
    /// and a context held in place whose search finds a transition without conditions, or none.
    /// Everything else (conditions, a boxed context, an unhandled reason to name) is answered
    /// by ``search(_:event:predicates:)``.
    @inlinable @inline(__always)
    func lookup(
        state: Int32, eventID: Int32, event: Event?, predicates: PredicateContext, data: Definition.Data
    ) -> LookupResult {
        let index = Int(state) &* eventCount &+ Int(eventID)
        let cell = cells[index]
        if cell.direct >= 0 && predicates.isEmpty && !guarded[Int(cell.direct)] { return .fires(cell.direct) }
        if case .inline(let small) = predicates.representation {
            let transition = entry(in: cell, for: small)
            if transition >= 0 && !hasGuards(transition) { return .fires(transition) }
            if transition == -1 { return .unhandled(.init(.noTransition)) }
        }
        return search(index, event: event, predicates: predicates, data: data)
    }

    /// The entry of `cell`'s table for a context held in place: a transition (≥ 0), which may
    /// have conditions, -1 for none, or -2 when ``search(_:event:predicates:)`` must answer: an
    /// ambiguous context, a predicate of a type the schema does not know or a missing one, and
    /// every context when the schema's type columns are not hashed.
    ///
    /// Straight-line code over the three places: an empty place holds `Never`'s type, whose
    /// stride is 0 in every group, and an ordinal held in place is never -1. A place's column is
    /// its type's bucket in ``TypeColumns``, and the type is known if the bucket holds it.
    @inlinable @inline(__always)
    func entry(in cell: LookupCell, for small: InlinePredicates) -> Int32 {
        if cell.direct == -1 { return -1 }
        if small.isAmbiguous { return -2 }
        let keys = (UInt(bitPattern: small.types.0), UInt(bitPattern: small.types.1), UInt(bitPattern: small.types.2))
        let columns = (typeColumns.bucket(of: keys.0), typeColumns.bucket(of: keys.1), typeColumns.bucket(of: keys.2))
        // Unchecked: a bucket is below the count of identifiers (see `TypeColumns.bucket(of:)`).
        let known = typeColumns.identifiers.withUnsafeBufferPointer {
            $0[columns.0] == keys.0 && $0[columns.1] == keys.1 && $0[columns.2] == keys.2
        }
        guard known else { return -2 }
        let row = Int(cell.strideRow)
        // Unchecked: a known type's column is below the width of a row, and `strideRow` starts one.
        let strides = slotStrides.withUnsafeBufferPointer {
            ($0[row &+ columns.0], $0[row &+ columns.1], $0[row &+ columns.2])
        }
        // Counted without a branch: which types a group depends on varies from event to event,
        // so a branch per place could be mispredicted (the compiler made branches of `!= 0 ? 1 : 0`).
        let counted = Self.isNonZero(strides.0) &+ Self.isNonZero(strides.1) &+ Self.isNonZero(strides.2)
        guard counted == cell.slotCount else { return -2 }
        let offset = cell.base &+ Int32(small.ordinals.0) &* strides.0
            &+ Int32(small.ordinals.1) &* strides.1 &+ Int32(small.ordinals.2) &* strides.2
        // Checked: ordinals come from the context's types, whose `allCases` the schema trusts
        // not to change, but a broken conformance must not read outside the table.
        return entries[Int(offset)]
    }

    /// Whether `transition`, an entry of the table, has conditions.
    @inlinable @inline(__always)
    func hasGuards(_ transition: Int32) -> Bool {
        // Unchecked: the table's entries are indices of `hot`, or negative.
        guarded.withUnsafeBufferPointer { $0[Int(transition)] }
    }

    /// 1 if `stride` is not 0, else 0, without a branch: bit 31 of `s | -s` is set iff `s != 0`.
    @inlinable @inline(__always)
    static func isNonZero(_ stride: Int32) -> Int32 {
        Int32(bitPattern: UInt32(bitPattern: stride | (0 &- stride)) >> 31)
    }

    /// ``lookup(state:eventID:event:predicates:)`` in full, for the cell at `index`: every
    /// context, every outcome. No transition when the state has none for the event, whatever
    /// the context; otherwise an ambiguous context, then an unknown type, then a missing one,
    /// then the entry's outcome.
    @inlinable @inline(never)
    func search(_ index: Int, event: Event?, predicates: PredicateContext, data: Definition.Data) -> LookupResult {
        let cell = cells[index]
        if cell.direct >= 0 && predicates.isEmpty { return firstAdmitted(from: cell.direct, event, data) }
        if cell.direct == -1 { return .unhandled(.init(.noTransition)) }
        if predicates.isAmbiguous { return .unhandled(.init(.ambiguousPredicate, predicates.repeatedTypeName ?? "")) }
        // One pass over the context. Each predicate must be of a type the schema knows, and
        // adds its weighted ordinal if the group depends on its type. The group's index is
        // complete when every type it depends on has been counted once.
        let row = Int(cell.strideRow)
        var offset = cell.base
        var counted: Int32 = 0
        for position in 0..<predicates.count {
            guard let slot = slot(of: predicates.typeID(at: position)) else { return unknownPredicate(in: predicates) }
            let stride = slotStrides[row &+ typeColumns.columnsOfSlots[slot]]
            let ordinal = predicates.ordinal(at: position)
            // An ordinal of -1 (a case missing from `allCases`) counts as missing.
            guard stride != 0 && ordinal >= 0 else { continue }
            offset &+= ordinal &* stride
            counted &+= 1
        }
        guard counted == cell.slotCount else { return missingPredicate(in: groups[Int(groupIndex[index])], predicates) }
        return outcome(ofEntry: entries[Int(offset)], event, data)
    }

    /// The outcome of a lookup whose context has a predicate of a type the schema never mentions.
    @usableFromInline
    func unknownPredicate(in predicates: PredicateContext) -> LookupResult {
        for index in 0..<predicates.count where slot(of: predicates.typeID(at: index)) == nil {
            return .unhandled(.init(.unknownPredicate, predicates.typeName(at: index)))
        }
        preconditionFailure("no predicate of the context is of an unknown type")
    }

    /// What the table's entry `transition` (-1 for none) does with `event`.
    @inlinable @inline(__always)
    func outcome(ofEntry transition: Int32, _ event: Event?, _ data: Definition.Data) -> LookupResult {
        guard transition >= 0 else { return .unhandled(.init(.noTransition)) }
        if guarded[Int(transition)] { return firstAdmitted(from: transition, event, data) }
        return .fires(transition)
    }

    /// The first of `transition` and the alternatives chained behind it whose conditions hold
    /// for `event` and `data`; if none does, the condition of `transition` was false.
    @inlinable
    func firstAdmitted(from transition: Int32, _ event: Event?, _ data: Definition.Data) -> LookupResult {
        var candidate = transition
        while true {
            if admits(candidate, event, data) { return .fires(candidate) }
            candidate = nextAlternative[Int(candidate)]
            if candidate < 0 { return .conditionFalse(transition) }
        }
    }

    /// Whether every condition of `transition` holds for `event` and the machine's `data`.
    @inlinable
    func admits(_ transition: Int32, _ event: Event?, _ data: Definition.Data) -> Bool {
        for condition in conditions[Int(transition)] where !condition.holds(event, data) { return false }
        return true
    }

    /// The slot of the predicate type, if the schema mentions it, for the full search and its
    /// reasons: a scan of up to 8 identifiers is cheaper than hashing one. (The inline path finds
    /// a type's column by ``TypeColumns`` instead, and only it meets `Never`'s empty places.)
    @inlinable
    func slot(of typeID: ObjectIdentifier) -> Int? {
        if predicateTypeIDs.count <= 8 { return predicateTypeIDs.firstIndex(of: typeID) }
        return predicateSlots[typeID].map(Int.init)
    }

    /// The outcome of a lookup whose context lacks a predicate type that `layout` depends on:
    /// unhandled, naming the first such type.
    @usableFromInline
    func missingPredicate(in layout: LookupGroup, _ predicates: PredicateContext) -> LookupResult {
        for position in layout.slotPositions {
            let slot = Int(groupSlots[position])
            if (predicates.ordinal(of: predicateTypeIDs[slot]) ?? -1) < 0 {
                return .unhandled(.init(.missingPredicate, predicateTypes[slot].name))
            }
        }
        preconditionFailure("a lookup counted fewer predicates than its group has, yet none is missing")
    }
}

/// What a lookup found, by transition index.
@usableFromInline
enum LookupResult: Sendable {
    case fires(Int32)
    case conditionFalse(Int32)
    case unhandled(UnhandledReason)
}
