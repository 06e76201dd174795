/// The publisher's end of a ``Broadcast``: appends each record once, for every unbounded
/// subscription. Not thread-safe: the publisher's actor or lock serialises access.
@usableFromInline
struct LogWriter<Element: Sendable>: Sendable {
    /// A new log's first chunk is small, so that an idle subscription costs little; each next
    /// one doubles, up to this many records.
    static var largestChunk: Int { 1024 }

    @usableFromInline let broadcast = Broadcast<Element>()
    @usableFromInline var tail = LogChunk<Element>(start: 0, capacity: 16)
    @usableFromInline var count = 0
    /// `count` at the last wake-up.
    @usableFromInline var wokenAt = 0

    @usableFromInline init() {}

    /// Where a reader subscribing now starts: at the next record to be written.
    var position: LogPosition<Element> { LogPosition(chunk: tail, offset: tail.filled, index: count) }

    /// How many records a publisher that defers wake-ups may write before it wakes parked
    /// readers anyway.
    @usableFromInline static var wakeInterval: Int { 256 }

    /// Writes `element` at the end of the log and makes it visible to the readers. Wakes the
    /// parked readers now, or, when `deferringWake`, once ``wakeInterval`` records have been
    /// written since the last wake-up: the publisher then promises to call ``wakeReaders()``
    /// when it stops publishing for a while.
    @inlinable
    mutating func append(_ element: Element, deferringWake: Bool) {
        if tail.filled == tail.capacity { startChunk() }
        (tail.slots + tail.filled).initialize(to: element)
        tail.filled += 1
        count += 1
        if broadcast.publish(upTo: count) && (!deferringWake || count - wokenAt >= Self.wakeInterval) {
            wakeReaders()
        }
    }

    /// Wakes the parked readers, if any.
    @inlinable
    mutating func wakeReaders() {
        guard broadcast.hasParkedReaders else { return }
        broadcast.wakeAll()
        wokenAt = count
    }

    @usableFromInline
    mutating func startChunk() {
        let next = LogChunk<Element>(start: count, capacity: Swift.min(tail.capacity * 2, Self.largestChunk))
        tail.next = next
        tail = next
    }
}

/// A place in a log: a chunk, a slot in it, and the slot's log index.
@usableFromInline
struct LogPosition<Element: Sendable>: Sendable {
    @usableFromInline var chunk: LogChunk<Element>
    @usableFromInline var offset: Int
    @usableFromInline var index: Int
}
