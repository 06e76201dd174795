/// The predicate cases a transition accepts, per predicate type (by slot). A type that is absent
/// is unconstrained: the transition matches all its cases.
struct PredicateFilter: Sendable, Hashable {
    /// Sorted by slot; each case list is sorted.
    let constraints: [Constraint]

    struct Constraint: Sendable, Hashable {
        let slot: Int
        let cases: [Int32]
    }

    /// How many predicate types the filter constrains; the more specific transition wins.
    var specificity: Int { constraints.count }

    func accepts(slot: Int, caseID: Int32) -> Bool {
        guard let constraint = constraints.first(where: { $0.slot == slot }) else { return true }
        return constraint.cases.contains(caseID)
    }
}

extension PredicateFilter {
    /// AND-s the `matching` clauses of one statement (outer blocks first) into a filter,
    /// reporting contradictions and repetitions.
    static func combining(
        _ clauses: [MatchClause], in space: inout PredicateSpace, state: String?,
        diagnostics: inout [SchemaError.Diagnostic]
    ) -> PredicateFilter {
        var cases: [Int: Set<Int32>] = [:]
        var locations: [Int: [SourceLocation]] = [:]
        for clause in clauses {
            for (slot, new) in requirements(of: clause, in: &space, state: state, diagnostics: &diagnostics) {
                defer { locations[slot, default: []].append(clause.location) }
                guard let existing = cases[slot] else {
                    cases[slot] = new
                    continue
                }
                var involved: [SourceLocation] = []
                for location in [clause.location] + (locations[slot] ?? []).reversed() where !involved.contains(location) {
                    involved.append(location)
                }
                diagnostics += conflicts(between: existing, and: new, slot: slot, space: space, at: involved, state: state)
                cases[slot] = existing.intersection(new)
            }
        }
        return PredicateFilter(constraints: cases.keys.sorted().map { Constraint(slot: $0, cases: cases[$0]!.sorted()) })
    }

    /// What one `matching` clause requires, per slot: its `or:` alternatives as one set, then
    /// each of its `and:` predicates. Reports cases missing from `allCases` and repeated ones.
    private static func requirements(
        of clause: MatchClause, in space: inout PredicateSpace, state: String?,
        diagnostics: inout [SchemaError.Diagnostic]
    ) -> [(slot: Int, cases: Set<Int32>)] {
        var alternatives: [Int32] = []
        var alternativeSlot = -1
        for predicate in clause.anyOf {
            let (slot, caseID) = space.locate(predicate)
            alternativeSlot = slot
            guard caseID >= 0 else {
                diagnostics.append(invalid(predicate, clause.location, state))
                continue
            }
            if alternatives.contains(caseID) {
                diagnostics.append(.init(
                    .duplicatePredicate, "\(predicate.qualifiedName) is listed twice in one matching statement",
                    at: [clause.location], state: state, predicates: [predicate.qualifiedName]))
            } else {
                alternatives.append(caseID)
            }
        }
        var requirements = [(slot: alternativeSlot, cases: Set(alternatives))]
        for predicate in clause.allOf {
            let (slot, caseID) = space.locate(predicate)
            guard caseID >= 0 else {
                diagnostics.append(invalid(predicate, clause.location, state))
                continue
            }
            requirements.append((slot, [caseID]))
        }
        return requirements
    }

    /// What requiring `new` cases of one slot, where `existing` ones are already required,
    /// reports: cases required twice, and pairs of cases that cannot both hold.
    private static func conflicts(
        between existing: Set<Int32>, and new: Set<Int32>, slot: Int, space: PredicateSpace,
        at involved: [SourceLocation], state: String?
    ) -> [SchemaError.Diagnostic] {
        var diagnostics: [SchemaError.Diagnostic] = []
        let repeated = existing.intersection(new)
        if !repeated.isEmpty {
            let names = repeated.sorted().map { space.name(slot: slot, caseID: $0) }
            diagnostics.append(.init(
                .duplicatePredicate,
                "\(names.joined(separator: ", ")) is already required by an enclosing or earlier matching statement",
                at: involved, state: state, predicates: names))
        }
        for old in existing.subtracting(new).sorted() {
            for added in new.subtracting(existing).sorted() {
                let pair = [space.name(slot: slot, caseID: old), space.name(slot: slot, caseID: added)]
                diagnostics.append(.init(
                    .contradictoryPredicates,
                    "cannot match \(pair[0]) AND \(pair[1]) simultaneously: an event carries one case of each predicate type",
                    at: involved, state: state, predicates: pair))
            }
        }
        return diagnostics
    }

    private static func invalid(
        _ predicate: any MatchingPredicate, _ location: SourceLocation, _ state: String?
    ) -> SchemaError.Diagnostic {
        .init(.invalidPredicate,
              "\(predicate.qualifiedName) is not listed in \(type(of: predicate)).allCases; a MatchingPredicate's allCases must list every case",
              at: [location], state: state, predicates: [predicate.qualifiedName])
    }
}
