@testable import ActorFSM
import Testing
import TestSupport

/// One subscription's bookkeeping, driven without `await`: what is buffered, dropped, handed
/// over and when the waiting consumer must be resumed. The waiter is a plain number here.
@Suite struct SubscriptionStateTests {
    typealias State = SubscriptionState<Int, Int>

    func published(_ values: Range<Int>, buffering: SubscriptionBuffering) -> State {
        var state = State(buffering: buffering.code)
        for value in values { _ = state.publish(value) }
        return state
    }

    func taken(from state: inout State) -> [Int] {
        var values: [Int] = []
        var batch = RingBuffer<Int>()
        while true {
            switch state.take(into: &batch) {
            case .element(let value): values.append(value)
            case .batch: values += batch.removeAll()
            case .wait, .end: return values
            }
        }
    }

    @Test func anUnboundedConsumerTakesEverythingBufferedInOneTurn() {
        var state = published(0..<5, buffering: .unbounded)
        var batch = RingBuffer<Int>()
        guard case .batch = state.take(into: &batch) else { Issue.record("expected a batch"); return }
        #expect(batch.removeAll() == [0, 1, 2, 3, 4])
        guard case .wait = state.take(into: &batch) else { Issue.record("expected to wait"); return }
    }

    @Test func keepingNewestDropsTheOldestAndCountsThem() {
        var state = published(0..<5, buffering: .keepingNewest(2))
        #expect(taken(from: &state) == [3, 4])
        #expect(state.dropped == 3)
    }

    @Test func keepingOldestDropsTheNewestAndCountsThem() {
        var state = published(0..<5, buffering: .keepingOldest(2))
        #expect(taken(from: &state) == [0, 1])
        #expect(state.dropped == 3)
    }

    @Test func aWaitingConsumerIsResumedByTheNextRecordOnlyOnce() {
        var state = State(buffering: SubscriptionBuffering.unbounded.code)
        #expect(state.park(7) == false)
        guard case .resume(let waiter) = state.publish(1) else { Issue.record("expected a resume"); return }
        #expect(waiter == 7)
        guard case .none = state.publish(2) else { Issue.record("resumed twice"); return }
        #expect(taken(from: &state) == [1, 2])
    }

    @Test func aConsumerThatWouldParkAfterARecordArrivedIsResumedAtOnce() {
        var state = published(0..<1, buffering: .unbounded)
        #expect(state.park(7) == true)
        #expect(state.waiter == nil)
    }

    @Test func finishingDeliversWhatIsBufferedThenTheEnd() {
        var state = published(0..<3, buffering: .keepingOldest(8))
        #expect(state.finish() == nil)
        guard case .none = state.publish(9) else { Issue.record("accepted after finish"); return }
        #expect(taken(from: &state) == [0, 1, 2])
        var batch = RingBuffer<Int>()
        guard case .end = state.take(into: &batch) else { Issue.record("expected the end"); return }
    }

    @Test func aGoneConsumerIsWokenAndReportedOnce() {
        var state = State(buffering: SubscriptionBuffering.unbounded.code)
        #expect(state.park(7) == false)
        let first = state.terminate()
        #expect(first.ended && first.waiter == 7)
        #expect(state.terminate().ended == false)
        guard case .terminated = state.publish(4) else { Issue.record("expected terminated"); return }
    }

    @Test func aGoneConsumerDropsWhatIsBuffered() {
        var state = published(0..<3, buffering: .unbounded)
        _ = state.terminate()
        #expect(taken(from: &state) == [])
    }

    @Test func theStreamValueEndsTheSubscriptionOnlyIfNoIteratorWasMade() {
        var state = State(buffering: SubscriptionBuffering.unbounded.code)
        #expect(state.release(iterator: false) == true)
        state.isIterated = true
        #expect(state.release(iterator: false) == false)
        #expect(state.release(iterator: true) == true)
    }
}
