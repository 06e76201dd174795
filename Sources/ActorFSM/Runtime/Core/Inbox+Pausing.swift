// The inbox of a paused machine: it refuses new events, keeps those it has in order, and hands
// nothing over until the machine is resumed.

extension Inbox {
    /// The machine is paused: new sends and posts are refused with `.paused`; follow-ups, timer
    /// events and children's ends still join the queue. Nothing if it no longer takes events.
    @usableFromInline
    mutating func pause() {
        if case .open = intake { intake = .paused }
    }

    /// A paused machine's drain stops at its next event: `entry`, whose turn had come, and the
    /// rest of `batch` go back to the queue's front, in order, to wait for the resume. The drain
    /// still owns the inbox, and gives it up with `release()` as it ends.
    @usableFromInline
    mutating func putBack(_ entry: consuming Entry, _ batch: inout RingBuffer<Entry>) {
        var merged = RingBuffer<Entry>()
        merged.append(entry)
        batch.moveAll(into: &merged)
        queue.moveAll(into: &merged)
        queue = merged
        inHand = 0
    }

    /// The machine runs again: new events are taken, and a drain starts for those that waited.
    @usableFromInline
    mutating func resume() -> Resumptions {
        var resumptions = Resumptions()
        guard case .paused = intake else { return resumptions }
        intake = .open
        if !isActive && !(queue.isEmpty && upNext.isEmpty && retried.isEmpty) {
            isActive = true
            resumptions.startProcessing = true
        }
        return resumptions
    }
}
