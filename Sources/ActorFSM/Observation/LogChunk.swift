/// A run of consecutive slots of a ``Broadcast``'s log: the publisher fills it once, front to
/// back, and every reader copies records out of it. Chunks are linked oldest to newest; a
/// chunk is freed by reference counting once no reader and not the publisher holds it or an
/// older chunk.
@usableFromInline
final class LogChunk<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable is sound. One writer at a time (the publisher, serialised by its actor
    // or lock) initialises slot `filled` and only then makes it visible by storing a larger
    // count in `Broadcast.published` (sequentially consistent, so also a release). A reader
    // reads only slots below the count it loaded (an acquire), and a slot is never written
    // again once published, so reads never race a write. `next` is written by the publisher
    // once, before the count first passes this chunk's end, and read only after a reader has
    // loaded such a count; `deinit` clears it on this chunk and on the chunks it alone holds,
    // which no other thread can reach any more. `filled` is read and written only by the publisher, and by `deinit`, which runs
    // after every other reference is gone.

    /// The log index of the first slot.
    @usableFromInline let start: Int
    @usableFromInline let capacity: Int
    @usableFromInline let slots: UnsafeMutablePointer<Element>
    /// Slots initialised so far (publisher only).
    @exclusivity(unchecked) @usableFromInline var filled = 0
    /// The chunk after this one, set when this one is full.
    @exclusivity(unchecked) @usableFromInline var next: LogChunk?

    @usableFromInline
    init(start: Int, capacity: Int) {
        self.start = start
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
    }

    deinit {
        slots.deinitialize(count: filled)
        slots.deallocate()
        // Free the chunks that only this one held in a loop: released from here one by one,
        // a long chain (a reader that lagged far behind, then left) would recurse once per
        // chunk and could overflow the stack.
        var following = next
        next = nil
        while var chunk = following {
            following = nil
            guard isKnownUniquelyReferenced(&chunk) else { break }
            following = chunk.next
            chunk.next = nil
        }
    }
}
