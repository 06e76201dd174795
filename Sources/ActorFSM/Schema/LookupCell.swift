/// What a lookup reads first about a (state, event) pair: 16 bytes, so within one cache line,
/// that answer an event without predicates and tell a search with predicates where its
/// group's table lies.
@usableFromInline
struct LookupCell: Sendable, BitwiseCopyable {
    /// The transition, when the pair's group depends on no predicate type; -1 when the state has
    /// no transition for the event; -2 when the group's entries must be searched.
    @usableFromInline let direct: Int32
    /// Where the group's entries start in the schema's entry table.
    @usableFromInline let base: Int32
    /// Where the group's row of strides starts (see ``LookupGroup/strideRow``).
    @usableFromInline let strideRow: Int32
    /// How many predicate types the group depends on.
    @usableFromInline let slotCount: Int32

    /// The cell of a pair without transitions.
    static var empty: LookupCell { LookupCell(direct: -1, base: 0, strideRow: 0, slotCount: 0) }

    /// The cell of a pair whose group is `group`, with its transition when it needs no search.
    init(group: LookupGroup, direct: Int32) {
        self.init(direct: direct, base: group.base, strideRow: group.strideRow, slotCount: group.slotCount)
    }

    private init(direct: Int32, base: Int32, strideRow: Int32, slotCount: Int32) {
        (self.direct, self.base, self.strideRow, self.slotCount) = (direct, base, strideRow, slotCount)
    }
}
