@testable import ActorFSM
import Testing
import TestSupport

/// The queue under the inbox: moving a batch out keeps the order across the wrap-around, stops
/// at the limit and after the marked element, and leaves the rest in place.
@Suite struct RingBufferTests {
    /// A queue of 8 slots whose head has moved, so that its elements wrap around the end.
    func wrappedQueue() -> RingBuffer<String> {
        var queue = RingBuffer<String>()
        for index in 0..<8 { queue.append("old \(index)") }
        for _ in 0..<6 { _ = queue.popFirst() }
        for index in 0..<5 { queue.append("new \(index)") }
        return queue
    }

    @Test func aBatchKeepsTheOrderAcrossTheWrapAroundAndStopsAtTheLimit() {
        var queue = wrappedQueue()
        var batch = RingBuffer<String>()
        let moved = queue.moveFront(into: &batch, limit: 4, endingAfter: { _ in false })
        #expect(moved == 4)
        #expect(batch.removeAll() == ["old 6", "old 7", "new 0", "new 1"])
        #expect(queue.removeAll() == ["new 2", "new 3", "new 4"])
    }

    @Test func aBatchEndsAfterTheMarkedElement() {
        var queue = wrappedQueue()
        var batch = RingBuffer<String>()
        let moved = queue.moveFront(into: &batch, limit: 32, endingAfter: { $0.pointee == "new 0" })
        #expect(moved == 3)
        #expect(batch.removeAll() == ["old 6", "old 7", "new 0"])
        #expect(queue.count == 4)
    }

    @Test func aBatchAppendsBehindWhatTheTargetHolds() {
        var queue = wrappedQueue()
        var batch = RingBuffer<String>()
        batch.append("kept")
        _ = queue.moveFront(into: &batch, limit: 32, endingAfter: { _ in false })
        #expect(batch.removeAll() == ["kept", "old 6", "old 7", "new 0", "new 1", "new 2", "new 3", "new 4"])
        #expect(queue.isEmpty)
        #expect(queue.moveFront(into: &batch, limit: 32, endingAfter: { _ in false }) == 0)
    }

    @Test func aBatchWrapsAroundTheEndOfANonEmptyTarget() {
        var queue = wrappedQueue()
        var target = RingBuffer<String>()
        target.reserveCapacity(16)
        for index in 0..<14 { target.append("t\(index)") }
        for _ in 0..<12 { _ = target.popFirst() }
        // The target holds t12 and t13 in slots 12 and 13: its free slots run 14, 15, then 0.
        let moved = queue.moveFront(into: &target, limit: 5, endingAfter: { _ in false })
        #expect(moved == 5)
        #expect(target.removeAll() == ["t12", "t13", "old 6", "old 7", "new 0", "new 1", "new 2"])
        #expect(queue.removeAll() == ["new 3", "new 4"])
    }
}
