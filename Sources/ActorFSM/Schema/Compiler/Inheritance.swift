/// Flattens `define` statements and the super states they adopt into the statements that apply
/// to each state, applying `override` and reporting its misuse.
struct Inheritance<State: Sendable, Event: Sendable> {
    var space = PredicateSpace()
    var diagnostics: [SchemaError.Diagnostic] = []
    /// `nothing to override` reports, kept apart: they are dropped for an override that turns out
    /// to be out of order, which is the real mistake.
    private var nothingToOverride: [SourceLocation: SchemaError.Diagnostic] = [:]
    private var outOfOrder: Set<SourceLocation> = []

    /// The statements that apply to a `define` or super state, inherited ones first.
    mutating func candidates(
        adopting superStates: [SuperState<State, Event>], own block: Syntax.Block<State, Event, Syntax.Complete>
    ) -> [Candidate<State, Event>] {
        var inherited = superStates.flatMap { candidates(adopting: $0.superStates, own: $0.block) }
        for location in block.emptyBlockLocations {
            diagnostics.append(.init(.emptyBlock, "this block declares no transition; add one or remove the block", at: [location]))
        }
        var own: [Candidate<State, Event>] = []
        for fragment in block.fragments { own += split(fragment) }
        var plainKeys: [Candidate<State, Event>.OverrideKey: SourceLocation] = [:]
        for statement in own where !statement.isOverride && plainKeys[statement.overrideKey] == nil {
            plainKeys[statement.overrideKey] = statement.location
        }

        inherited.removeAll { parent in
            guard parent.isOverride, let child = plainKeys[parent.overrideKey] else { return false }
            outOfOrder.insert(parent.location)
            diagnostics.append(.init(
                .overridesOutOfOrder,
                "an override in a super state is followed by a plain statement for \(parent.event.label) in an adopter; move `override` to the adopter",
                at: [parent.location, child], event: parent.event.label))
            return true
        }
        for statement in own where statement.isOverride {
            let before = inherited.count
            inherited.removeAll { $0.overrideKey == statement.overrideKey }
            guard inherited.count == before else { continue }
            // An override of a statement in the same scope means nothing: the two remain, and
            // are reported as duplicates or a clash.
            if plainKeys[statement.overrideKey] != nil { continue }
            nothingToOverride[statement.location] = .init(
                .nothingToOverride,
                "no inherited transition for \(statement.event.label) with the same predicates; remove `override`",
                at: [statement.location], event: statement.event.label)
        }
        return inherited + own
    }

    /// The entry or exit actions of a node: those of its super states first, in order.
    static func actions(
        adopting superStates: [SuperState<State, Event>], own: Actions<State, Event>,
        _ select: (SuperState<State, Event>) -> Actions<State, Event>
    ) -> Actions<State, Event> {
        superStates.reduce(Actions()) { $0 & actions(adopting: $1.superStates, own: select($1), select) } & own
    }

    /// Every diagnostic, with `nothing to override` dropped where the override is out of order.
    var allDiagnostics: [SchemaError.Diagnostic] {
        diagnostics + nothingToOverride.filter { !outOfOrder.contains($0.key) }.map(\.value)
    }

    private mutating func split(_ fragment: Fragment<State, Event>) -> [Candidate<State, Event>] {
        let filter = PredicateFilter.combining(fragment.clauses, in: &space, diagnostics: &diagnostics)
        return fragment.events.map { Candidate(fragment: fragment, event: $0, filter: filter) }
    }
}
