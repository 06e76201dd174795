import Synchronization

// Ordered alternatives: `firstOf { }` tries its statements in the order written and takes the
// first whose conditions hold, where plain statements that differ only by conditions clash.

/// Tries the statements inside in the order written, when an event arrives, and fires the first
/// whose conditions hold; a last statement without a condition (``otherwise(fileID:line:)``) is
/// the fallback. Every statement of the block must match the same predicates, and all but the
/// last must have a condition.
///
/// ```swift
/// define(.paymentPending) {
///     when(.declined) {
///         firstOf {
///             condition { (order: Purchase) in order.attempts < 3 } | then(.paymentPending) | update { $0.attempts += 1 }
///             otherwise() | then(.failed)
///         }
///     }
/// }
/// ```
///
/// Without the block, two such statements would clash: conditions are opaque to the schema, so
/// only an explicit order tells them apart. A record names the statement that fired in
/// ``TransitionRecord/transitionLocation``, and ``Schema/resolve(_:in:predicates:)-(_,_,PredicateContext)``
/// returns it, with its ``Transition/alternative``.
public func firstOf<Definition: MachineDefinition, Shape>(
    fileID: StaticString = #fileID, line: UInt = #line,
    @Syntax.RowBuilder<Definition, Shape> _ alternatives: () -> Syntax.Block<Definition, Shape>
) -> Syntax.Block<Definition, Shape> {
    let location = SourceLocation(fileID, line)
    let block = alternatives().reportingEmptiness(at: location)
    let group = alternativeGroups.add(1, ordering: .relaxed).newValue
    var fragments = block.fragments
    for position in fragments.indices {
        fragments[position].alternative = Alternative(group: group, position: position, blockLocation: location)
    }
    return Syntax.Block(fragments: fragments, emptyBlockLocations: block.emptyBlockLocations)
}

/// The last alternative of a ``firstOf(fileID:line:_:)`` block: it applies when no earlier one's
/// condition holds.
///
/// ```swift
/// otherwise() | then(.failed)
/// ```
public func otherwise<Definition: MachineDefinition>(
    fileID: StaticString = #fileID, line: UInt = #line
) -> Syntax.Matching<Definition> {
    var statement = Syntax.Matching<Definition>(condition: { true }, fileID: fileID, line: line)
    statement.fragment.guards = []
    statement.fragment.isOtherwise = true
    return statement
}

/// Numbers `firstOf` blocks, so that each one's statements are told from another's.
private let alternativeGroups = Atomic<Int>(0)
