/// A (state, event) pair whose predicates combine into more cases than this is refused rather than
/// expanded into a lookup table.
let predicateCombinationLimit = 1 << 20

/// Groups transitions by (state, event), expands each group over the predicate types it uses,
/// and picks the most specific transition for every combination of cases, reporting clashes.
struct LookupTableBuilder<Definition: MachineDefinition> {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    let transitions: [CompiledTransition<Definition>]
    let stateCount: Int
    let eventCount: Int
    let space: PredicateSpace
    /// Where each slot's stride lies in a row: `space`'s types, then `Never`.
    let columns: TypeColumns
    let describeState: (Int32) -> String
    let describeEvent: (Int32) -> String

    struct Output {
        var groupIndex: [Int32]
        var groups: [LookupGroup] = []
        /// The predicate slots of every group, ascending within a group, one group after another.
        var groupSlots: [Int32] = []
        /// Per group, the weight of each predicate type's case id in the group's combined index,
        /// in the type's column (see ``LookupGroup/strideRow``); `Never`'s column, which stands
        /// for an empty place of a context, is 0. Starts with the shared row of zeros.
        var slotStrides: [Int32]
        var entries: [Int32] = []
        /// Per transition, the alternative tried after it when its conditions fail, or -1.
        var nextAlternative: [Int32]
        /// Per transition of a `firstOf` block, its place among the alternatives tried for its
        /// state and event (from 0); -1 for others.
        var alternativeRank: [Int32]
        var diagnostics: [SchemaError.Diagnostic] = []
    }

    /// The width of a row of `slotStrides`: a column for each predicate type and `Never`, and
    /// the hash's unused ones.
    var rowWidth: Int { columns.width }

    func build() -> Output {
        var output = Output(groupIndex: Array(repeating: -1, count: stateCount * eventCount),
                            slotStrides: Array(repeating: 0, count: rowWidth),
                            nextAlternative: Array(repeating: -1, count: transitions.count),
                            alternativeRank: Array(repeating: -1, count: transitions.count))
        var members: [Int: [Int]] = [:]
        for (index, transition) in transitions.enumerated() {
            members[Int(transition.source) * eventCount + Int(transition.event), default: []].append(index)
        }
        for cell in members.keys.sorted() {
            output.groupIndex[cell] = Int32(output.groups.count)
            expand(chainingAlternatives(of: members[cell]!, into: &output), into: &output)
        }
        return output
    }

    /// The members of one (state, event) pair that take part in the choice by predicates: each
    /// `firstOf` block's statements are chained in their written order behind the first, which
    /// stands for them all. Reports a chain whose statements match different predicates, and a
    /// statement without a condition that is not the last.
    private func chainingAlternatives(of members: [Int], into output: inout Output) -> [Int] {
        var chains: [Int: [Int]] = [:]
        var heads: [Int] = []
        for member in members {
            guard let group = transitions[member].alternative?.group else {
                heads.append(member)
                continue
            }
            if chains[group] == nil { heads.append(member) }
            chains[group, default: []].append(member)
        }
        for group in chains.keys.sorted() {
            let chain = chains[group]!
            let ordered = chain.sorted { transitions[$0].alternative!.position < transitions[$1].alternative!.position }
            for (rank, member) in ordered.enumerated() {
                output.alternativeRank[member] = Int32(rank)
                if rank + 1 < ordered.count { output.nextAlternative[member] = Int32(ordered[rank + 1]) }
            }
            if let index = heads.firstIndex(of: chain[0]) { heads[index] = ordered[0] }
            output.diagnostics += chainDiagnostics(ordered)
        }
        return heads
    }

    /// What is wrong with the alternatives `chain` of one state and event, in order.
    private func chainDiagnostics(_ chain: [Int]) -> [SchemaError.Diagnostic] {
        let first = transitions[chain[0]]
        let (state, event) = (describeState(first.source), describeEvent(first.event))
        var found: [SchemaError.Diagnostic] = []
        if let differing = chain.first(where: { transitions[$0].filter != first.filter }) {
            found.append(.init(
                .alternativesDiffer,
                "the alternatives of this firstOf for \(event) in \(state) match different predicates; put the matching(…) outside the firstOf block, or give each set of predicates a firstOf of its own",
                at: [first.location, transitions[differing].location], state: state, event: event))
        }
        for (rank, member) in chain.dropLast().enumerated() where transitions[member].guards.isEmpty {
            found.append(.init(
                .unreachableAlternative,
                "this alternative for \(event) in \(state) has no condition, so the \(chain.count - rank - 1) after it could never fire; give it a condition, or move it last",
                at: [transitions[member].location, transitions[chain[rank + 1]].location], state: state, event: event))
        }
        return found
    }

    private func expand(_ group: [Int], into output: inout Output) {
        let slots = Set(group.flatMap { transitions[$0].filter.constraints.map(\.slot) }).sorted()
        var strides: [Int32] = []
        var size = 1
        for slot in slots {
            strides.append(Int32(size))
            size *= space.types[slot].caseCount
            if size > predicateCombinationLimit { break }
        }
        let base = output.entries.count
        var strideRow = 0
        if !strides.isEmpty {
            strideRow = output.slotStrides.count
            output.slotStrides += repeatElement(0, count: rowWidth)
            for (slot, stride) in zip(slots, strides) {
                output.slotStrides[strideRow + columns.columnsOfSlots[slot]] = stride
            }
        }
        output.groups.append(LookupGroup(
            base: Int32(base), firstSlot: Int32(output.groupSlots.count), slotCount: Int32(strides.count),
            strideRow: Int32(strideRow)))
        output.groupSlots += slots.prefix(strides.count).map { Int32($0) }
        let first = transitions[group[0]]
        guard size <= predicateCombinationLimit else {
            output.diagnostics.append(.init(
                .tooManyPredicateCombinations,
                "the transitions for \(describeEvent(first.event)) in \(describeState(first.source)) combine more than \(predicateCombinationLimit) predicate cases; split the predicate types or use condition { }",
                at: group.map { transitions[$0].location }, state: describeState(first.source), event: describeEvent(first.event)))
            output.entries.append(-1)
            return
        }
        let (winner, ties) = winners(of: group, slots: slots, strides: strides, size: size)
        output.entries += winner.map { $0 < 0 ? -1 : Int32(group[Int($0)]) }
        reportClashes(ties, in: group, slots: slots, strides: strides, into: &output)
    }

    /// Which member of `group` each cell of its table goes to: each transition writes itself
    /// into the cells it accepts, and the most specific wins a cell. Equally specific ones are
    /// remembered, to be reported as clashes once all are in; their cells go to none (-1).
    private func winners(
        of group: [Int], slots: [Int], strides: [Int32], size: Int
    ) -> (winner: [Int32], ties: [Int: [Int]]) {
        var best = [Int](repeating: -1, count: size)
        var winner = [Int32](repeating: -1, count: size)
        var ties: [Int: [Int]] = [:]
        for (member, filter) in group.map({ transitions[$0].filter }).enumerated() {
            let allowed = slots.map { slot in
                filter.constraints.first { $0.slot == slot }?.cases ?? (0..<Int32(space.types[slot].caseCount)).map { $0 }
            }
            forEachCell(allowed, strides: strides) { cell in
                if filter.specificity > best[cell] {
                    best[cell] = filter.specificity
                    winner[cell] = Int32(member)
                    ties[cell] = nil
                } else if filter.specificity == best[cell] {
                    ties[cell, default: [Int(winner[cell])]].append(member)
                }
            }
        }
        for cell in ties.keys { winner[cell] = -1 }
        return (winner, ties)
    }

    /// Reports each pair of members of `group` tied in some cell of `ties`, once, with the
    /// first combination of cases they tie on.
    private func reportClashes(
        _ ties: [Int: [Int]], in group: [Int], slots: [Int], strides: [Int32], into output: inout Output
    ) {
        var reported = Set<[Int]>()
        for cell in ties.keys.sorted() {
            let tied = ties[cell]!.map { group[$0] }
            let caseIDs = slots.indices.map { position in
                Int32(cell / Int(strides[position]) % space.types[slots[position]].caseCount)
            }
            for (offset, lhs) in tied.enumerated() {
                for rhs in tied[(offset + 1)...] where reported.insert([lhs, rhs]).inserted {
                    output.diagnostics.append(clash(lhs, rhs, slots: slots, caseIDs: caseIDs))
                }
            }
        }
    }

    /// Calls `body` with the index of every combination of the `allowed` cases, one list per slot.
    private func forEachCell(_ allowed: [[Int32]], strides: [Int32], _ body: (Int) -> Void) {
        var positions = [Int](repeating: 0, count: allowed.count)
        if allowed.contains(where: \.isEmpty) { return }
        while true {
            var cell = 0
            for slot in allowed.indices { cell += Int(allowed[slot][positions[slot]]) * Int(strides[slot]) }
            body(cell)
            var slot = 0
            while slot < allowed.count {
                positions[slot] += 1
                if positions[slot] < allowed[slot].count { break }
                positions[slot] = 0
                slot += 1
            }
            if slot == allowed.count { return }
        }
    }

    private func clash(_ lhs: Int, _ rhs: Int, slots: [Int], caseIDs: [Int32]) -> SchemaError.Diagnostic {
        let (first, second) = (transitions[lhs], transitions[rhs])
        let state = describeState(first.source)
        let event = describeEvent(first.event)
        let combination = zip(slots, caseIDs).map { space.name(slot: $0, caseID: $1) }
        let locations = [first.location, second.location]
        guard first.filter.constraints.map(\.slot) == second.filter.constraints.map(\.slot) else {
            return .init(
                .implicitClash,
                "in \(state), \(event) with [\(combination.joined(separator: ", "))] matches two statements equally specifically; make one of them match more predicates",
                at: locations, state: state, event: event, predicates: combination)
        }
        // Same predicate types: as if `or:` were written out, the two are the same statement.
        let shared = zip(slots, caseIDs).filter { slot, _ in first.filter.constraints.contains { $0.slot == slot } }
        let predicates = shared.map { space.name(slot: $0, caseID: $1) }
        let suffix = predicates.isEmpty ? "" : " matching [\(predicates.joined(separator: ", "))]"
        if first.target == second.target {
            return .init(
                .duplicateTransitions,
                "\(state) has two transitions for \(event)\(suffix), both to \(describeState(first.target)); remove one, or use `override` in an adopter to replace an inherited one",
                at: locations, state: state, event: event, predicates: predicates)
        }
        return .init(
            .logicalClash,
            "\(state) cannot go both to \(describeState(first.target)) and to \(describeState(second.target)) on \(event)\(suffix); conditions do not tell transitions apart: use matching with predicates, or firstOf { } to try them in order",
            at: locations, state: state, event: event, predicates: predicates)
    }
}
