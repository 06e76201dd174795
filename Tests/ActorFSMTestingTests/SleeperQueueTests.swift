@testable import ActorFSMTesting
import Testing

/// `ManualClock`'s queue of sleepers, driven synchronously against a plain list.
@Suite struct SleeperQueueTests {
    @Test func sleepersWakeEarliestFirstAndCancelledOnesNever() {
        var queue = SleeperQueue<Int, UInt64>()
        var model: [(deadline: Int, id: UInt64)] = []
        var random: UInt64 = 7
        func next(_ bound: Int) -> Int {
            random = random &* 6364136223846793005 &+ 1442695040888963407
            return Int((random >> 33) % UInt64(bound))
        }
        var now = 0
        for id in UInt64(1)...20_000 {
            // Deadlines repeat, so ties are broken by the order sleepers came in.
            let deadline = now + next(500)
            queue.insert(id: id, deadline: deadline, id)
            model.append((deadline, id))
            if next(3) == 0, !model.isEmpty {
                let victim = model.remove(at: next(model.count))
                #expect(queue.remove(id: victim.id) == victim.id)
                #expect(queue.remove(id: victim.id) == nil)
            }
            if next(50) == 0 {
                now += next(200)
                let due = model.filter { $0.deadline <= now }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
                model.removeAll { $0.deadline <= now }
                #expect(queue.removeDue(at: now) == due.map(\.id))
            }
            #expect(queue.count == model.count)
        }
        let rest = model.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }.map(\.id)
        #expect(queue.removeDue(at: Int.max) == rest)
        #expect(queue.count == 0)
    }

    @Test func cancellingMostSleepersKeepsTheRestInOrder() {
        var queue = SleeperQueue<Int, UInt64>()
        for id in UInt64(1)...1_000 { queue.insert(id: id, deadline: Int(1_000 - id), id) }
        // Cancelling all but every tenth rebuilds the heap from the live ones, more than once.
        for id in UInt64(1)...1_000 where id % 10 != 0 { #expect(queue.remove(id: id) == id) }
        #expect(queue.count == 100)
        #expect(queue.removeDue(at: 1_000) == stride(from: UInt64(1_000), through: 10, by: -10).map { $0 })
    }
}
