import Synchronization

/// An iterator's place in a ``Broadcast``'s log. It reads the published count only when it has
/// used up the records it knew of, so a reader that lags behind reads each record with no
/// atomic operation or lock.
@usableFromInline
struct LogCursor<Element: Sendable> {
    @usableFromInline let reader: LogReader<Element>
    /// `nil` once the subscription has ended.
    @usableFromInline var chunk: LogChunk<Element>?
    @usableFromInline var offset: Int
    @usableFromInline var index: Int
    /// The published count last read: records below it can be read without synchronisation.
    @usableFromInline var available: Int

    init(reader: LogReader<Element>, at position: LogPosition<Element>) {
        self.reader = reader
        chunk = position.chunk
        offset = position.offset
        index = position.index
        available = index
    }

    /// The next record, or `nil` once the subscription has ended.
    @inlinable
    mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
        if index == available {
            guard chunk != nil else { return nil }
            if reader.isTerminated.load(ordering: .relaxed) || Task.isCancelled { return end() }
            available = reader.broadcast.published.load(ordering: .acquiring)
            if index == available {
                guard let count = await reader.wait(forRecordAt: index, isolation: actor) else { return end() }
                available = count
            }
        }
        if offset == chunk!.capacity {
            chunk = chunk!.next
            offset = 0
        }
        let element = chunk!.slots[offset]
        offset += 1
        index += 1
        return element
    }

    /// Ends the subscription (if the consumer's task was cancelled) and lets go of the log.
    @usableFromInline
    mutating func end() -> Element? {
        reader.terminate()
        chunk = nil
        return nil
    }
}
