/// Flattens `define` statements and the super states they adopt into the statements that apply
/// to each state, applying `override` and reporting its misuse.
struct Inheritance<Definition: MachineDefinition> {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    var space = PredicateSpace()
    var diagnostics: [SchemaError.Diagnostic] = []
    /// `nothing to override` reports, kept apart: they are dropped for an override that turns out
    /// to be out of order, which is the real mistake.
    private var nothingToOverride: [NothingToOverrideKey: SchemaError.Diagnostic] = [:]
    private var outOfOrder: Set<SourceLocation> = []

    private struct NothingToOverrideKey: Hashable {
        let location: SourceLocation
        let event: SendableHashable
    }

    /// The statements that apply to a `define` (whose state is `state`) or to a super state
    /// (`state` is `nil`: its problems belong to no single adopter), inherited ones first.
    ///
    /// A super state adopted more than once, directly or through other super states (a
    /// diamond), contributes each of its statements once, where it is first met. Each branch
    /// still sees the whole super state, so an `override` in one branch replaces what that
    /// branch inherits, whatever the order of adoption.
    mutating func candidates(
        adopting superStates: [SuperState<Definition>], own block: Syntax.Block<Definition, Syntax.Complete>,
        state: String?, origin: ObjectIdentifier? = nil
    ) -> [Candidate<Definition>] {
        var inherited: [Candidate<Definition>] = []
        var seen = Set<Candidate<Definition>.Origin>()
        for superState in superStates {
            let parent = candidates(adopting: superState.superStates, own: superState.block, state: nil,
                                    origin: ObjectIdentifier(superState.identity))
            for candidate in parent where seen.insert(candidate.origin).inserted { inherited.append(candidate) }
        }
        for location in block.emptyBlockLocations {
            diagnostics.append(.init(.emptyBlock, "this block declares no transition; add one or remove the block",
                                     at: [location], state: state))
        }
        var own: [Candidate<Definition>] = []
        for fragment in block.fragments { own += split(fragment, state: state, origin: origin) }
        var plainKeys: [SendableHashable: SourceLocation] = [:]
        for statement in own where !statement.isOverride && plainKeys[statement.overrideKey] == nil {
            plainKeys[statement.overrideKey] = statement.location
        }

        inherited.removeAll { parent in
            guard parent.isOverride, let child = plainKeys[parent.overrideKey] else { return false }
            outOfOrder.insert(parent.location)
            diagnostics.append(.init(
                .overridesOutOfOrder,
                "an override in a super state is followed by a plain statement for \(parent.event.label) in an adopter; mark the adopter's statement with `override` too",
                at: [parent.location, child], state: state, event: parent.event.label))
            return true
        }
        var replaced = Set<SendableHashable>()
        for statement in own where statement.isOverride {
            let before = inherited.count
            inherited.removeAll { $0.overrideKey == statement.overrideKey }
            guard inherited.count == before else {
                replaced.insert(statement.overrideKey)
                continue
            }
            // A second override of what an earlier one in this scope replaced is a duplicate, not
            // an override of nothing.
            if replaced.contains(statement.overrideKey) { continue }
            // An override of a statement in the same scope means nothing: the two remain, and
            // are reported as duplicates or a clash.
            if plainKeys[statement.overrideKey] != nil { continue }
            nothingToOverride[NothingToOverrideKey(location: statement.location, event: statement.overrideKey)] = .init(
                .nothingToOverride,
                "no inherited transition for \(statement.event.label) to replace; remove `override`",
                at: [statement.location], state: state, event: statement.event.label)
        }
        return inherited + own
    }

    /// The entry or exit actions of a `define`: those of its super states first, in order,
    /// each super state's once however often it is adopted.
    static func actions(
        adopting superStates: [SuperState<Definition>], own: Actions<Definition>,
        _ select: (SuperState<Definition>) -> Actions<Definition>
    ) -> Actions<Definition> {
        var visited = Set<ObjectIdentifier>()
        return actions(adopting: superStates, own: own, select, visited: &visited)
    }

    private static func actions(
        adopting superStates: [SuperState<Definition>], own: Actions<Definition>,
        _ select: (SuperState<Definition>) -> Actions<Definition>, visited: inout Set<ObjectIdentifier>
    ) -> Actions<Definition> {
        var combined = Actions<Definition>()
        for superState in superStates where visited.insert(ObjectIdentifier(superState.identity)).inserted {
            combined = combined & actions(adopting: superState.superStates, own: select(superState), select, visited: &visited)
        }
        return combined & own
    }

    /// Every diagnostic, with `nothing to override` dropped where the override is out of order.
    var allDiagnostics: [SchemaError.Diagnostic] {
        diagnostics + nothingToOverride.filter { !outOfOrder.contains($0.key.location) }.map(\.value)
    }

    private mutating func split(
        _ fragment: Fragment<Definition>, state: String?, origin: ObjectIdentifier?
    ) -> [Candidate<Definition>] {
        let filter = PredicateFilter.combining(fragment.clauses, in: &space, state: state, diagnostics: &diagnostics)
        return fragment.events.map { Candidate(fragment: fragment, event: $0, filter: filter, declaredIn: origin) }
    }
}
