/// A block of slots of a machine's inbox queue. The queue is a chain of these: producers write at
/// its tail under the inbox's lock, and the machine's actor reads at its head without the lock.
///
/// Slots are addressed by an event's position in the queue (the count of events queued before
/// it): position `p` is slot `p % slotCount` of its segment, so a producer starts a new segment
/// exactly when the reader will move on to it. Nothing in a segment is atomic: the inbox's
/// `appended` counter publishes a slot (and the link to the next segment, written before the
/// slot at position `32k` is), and the reader reads nothing past the position that counter shows.
@usableFromInline
final class InboxSegment<Element> {
    /// How many events a segment holds: a producer allocates once per this many events.
    @inlinable static var slotCount: Int { 32 }

    /// The segment after this one, once a producer needed it.
    @usableFromInline var next: InboxSegment?
    @usableFromInline let slots: UnsafeMutablePointer<Element>

    @inlinable
    init() {
        slots = .allocate(capacity: Self.slotCount)
    }

    /// Frees the slots, which are all empty: the queue drops a segment only once the reader has
    /// moved past it or emptied it (see `Inbox.releaseIfEmpty`), and an inbox is never dropped
    /// with events in it, since a queued event has an owner, whose drain task keeps the machine.
    deinit {
        slots.deallocate()
    }

    /// Moves `element` into the empty slot for `position`.
    @inlinable
    func put(_ element: consuming Element, at position: Int) {
        (slots + position % Self.slotCount).initialize(to: element)
    }

    /// Moves the element out of the slot for `position`, leaving it empty.
    @inlinable
    func take(at position: Int) -> Element {
        (slots + position % Self.slotCount).move()
    }
}

extension InboxSegment: @unchecked Sendable where Element: Sendable {}
// @unchecked Sendable is sound: a slot is written by one producer, under the inbox's lock, before
// the atomic `appended` store that publishes it, and read (moved out) once by the one reader after
// the atomic load that shows it; `next` is written the same way, before the first slot of the next
// segment is published. No slot or link is written after it is published until the reader has
// moved past it, so every access is ordered by the counter's release/acquire pair; `slots` never
// changes; and the elements are `Sendable`.
