import Synchronization

/// The actor's side of a machine's inbox: where it takes the next queued event, without the
/// inbox's lock. Only the actor uses it, one call at a time.
///
/// It touches the producers' cache lines as rarely as it can: it reads how far they have got
/// only once it has taken every event it knew of, and tells them how far it has got (which
/// gives them room) only then, or once per segment (see `Machine.takeNext`).
@usableFromInline
struct InboxReader<Entry: Sendable>: Sendable {
    /// The segment holding the next event to take; `nil` while the queue has no memory.
    @usableFromInline var head: InboxSegment<Entry>?
    /// The position of the next event to take.
    @usableFromInline var position = 0
    /// How many events the producers had queued when the reader last looked.
    @usableFromInline var known = 0
    /// The position the producers were last told.
    @usableFromInline var published = 0

    @inlinable init() {}

    /// Whether a segment's worth of events has been taken since the segment began.
    @inlinable var isAtSegmentEnd: Bool { position % InboxSegment<Entry>.slotCount == 0 }

    /// Takes the next queued event, or returns `nil` if none is queued. Once it has taken every
    /// event it knew of, and once per segment, it tells the producers how far it has got.
    ///
    /// - Parameters:
    ///   - claimHead: hands over the segment producers started while the reader had none (it
    ///     takes the inbox's lock).
    ///   - tell: tells the producers a position (under the inbox's lock, if it is free); returns
    ///     whether it could.
    @inlinable
    mutating func next(
        _ signals: borrowing InboxSignals, claimingHead claimHead: () -> InboxSegment<Entry>?,
        telling tell: (Int) -> Bool
    ) -> Entry? {
        if position == known {
            if published != position && tell(position) { published = position }
            known = signals.appended.load(ordering: .acquiring)
            guard known > position else { return nil }
        }
        if head == nil {
            head = claimHead()
        } else if isAtSegmentEnd {
            // The head is spent, and the producer linked the next segment before publishing
            // this position.
            head = head!.next
        }
        let entry = head!.take(at: position)
        position += 1
        if isAtSegmentEnd && tell(position) { published = position }
        return entry
    }
}
