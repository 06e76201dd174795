/// A transition as the schema stores it: everything by dense id.
struct CompiledTransition<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    let source: Int32
    private(set) var event: Int32
    let target: Int32
    let filter: PredicateFilter
    let guards: [Guard<Definition>]
    let actions: Actions<Definition>
    let location: SourceLocation
    let isOverride: Bool
    /// Whether the transition postpones its event until the next change of state.
    var postpones = false
    /// Its place in a `firstOf { }` block, if it was declared in one.
    var alternative: Alternative?

    /// The same transition, answering to the event with id `event`.
    func with(event: Int32) -> CompiledTransition {
        var moved = self
        moved.event = event
        return moved
    }
}

/// The transitions of one (state, event) pair, expanded over the predicate types they use.
///
/// Its slots are a range of the schema's `groupSlots`, and its strides a row of the schema's
/// `slotStrides`, not arrays of its own, so reading a group counts no reference. Lookups read
/// its layout from the cell (``LookupCell``); the group itself names a missing type.
@usableFromInline
struct LookupGroup: Sendable, BitwiseCopyable {
    /// Where this group's entries start in the schema's entry table.
    @usableFromInline let base: Int32
    /// Where this group's predicate slots start in `groupSlots`.
    @usableFromInline let firstSlot: Int32
    /// How many predicate slots the group depends on.
    @usableFromInline let slotCount: Int32
    /// Where this group's row starts in `slotStrides`: a stride in each predicate type's column
    /// (see ``TypeColumns``), 0 for a type the group does not depend on and for `Never` (an
    /// empty place of a context). Groups that depend on none share the row at 0, all zeros.
    @usableFromInline let strideRow: Int32

    /// The group's positions in `groupSlots`.
    @inlinable var slotPositions: Range<Int> { Int(firstSlot)..<Int(firstSlot &+ slotCount) }
}
