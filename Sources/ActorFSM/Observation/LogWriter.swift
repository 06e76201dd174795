/// The publisher's end of a ``Broadcast``: appends each record once, for every unbounded
/// subscription. A class, so that a publisher without unbounded subscribers carries one
/// pointer for it (a machine has two publishers, and a million machines may be idle).
@usableFromInline
final class LogWriter<Element: Sendable>: @unchecked Sendable {
    // @unchecked Sendable is sound: the mutable state (`tail`, `count`, `deferredSince`) is
    // read and written only by the publisher, which its owner serialises (a machine's actor,
    // a supervisor's lock), and which is its only holder. Readers never reach this object:
    // they hold the `broadcast` and chunks, whose sharing `Broadcast` and `LogChunk` justify.
    /// A new log's first chunk is small, so that an idle subscription costs little; each next
    /// one doubles, up to this many records.
    static var largestChunk: Int { 1024 }

    @usableFromInline let broadcast = Broadcast<Element>()
    @usableFromInline var tail = LogChunk<Element>(start: 0, capacity: 16)
    @usableFromInline var count = 0
    /// The count before the first record written since a reader waits and wake-ups are
    /// deferred, and that record's time.
    @usableFromInline var deferredSince: (index: Int, time: Timestamp)?

    @usableFromInline init() {}

    /// Where a reader subscribing now starts: at the next record to be written.
    var position: LogPosition<Element> { LogPosition(chunk: tail, offset: tail.filled, index: count) }

    /// How many records a publisher that defers wake-ups may write, while a reader waits,
    /// before it wakes the waiting readers anyway.
    @usableFromInline static var wakeInterval: Int { 256 }
    /// How long the first of those records may wait, in nanoseconds (20 µs).
    @usableFromInline static var wakeDelay: Int64 { 20_000 }

    /// Writes `element` at the end of the log and makes it visible to the readers.
    ///
    /// Wakes the waiting readers now, or, with `deferringWakeAt` (the record's time), once
    /// ``wakeInterval`` records have been written since a reader started waiting, or once a
    /// record is written ``wakeDelay`` or more after the first of them. Both are checked only
    /// here, when a record is written (there is no timer): the publisher promises to call
    /// ``wakeReaders()`` when it pauses or suspends.
    @inlinable
    func append(_ element: Element, deferringWakeAt time: Timestamp? = nil) {
        if tail.filled == tail.capacity { startChunk() }
        (tail.slots + tail.filled).initialize(to: element)
        tail.filled += 1
        count += 1
        guard broadcast.publish(upTo: count) else {
            // Nobody waits: a reader that parks later starts a run of its own.
            if deferredSince != nil { deferredSince = nil }
            return
        }
        if let time {
            guard let since = deferredSince else {
                deferredSince = (count - 1, time)
                return
            }
            if count - since.index < Self.wakeInterval && time.nanoseconds(since: since.time) < Self.wakeDelay { return }
        }
        wakeReaders()
    }

    /// Wakes the waiting readers, if any.
    @inlinable
    func wakeReaders() {
        deferredSince = nil
        guard broadcast.hasParkedReaders else { return }
        broadcast.wakeAll()
    }

    @usableFromInline
    func startChunk() {
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
