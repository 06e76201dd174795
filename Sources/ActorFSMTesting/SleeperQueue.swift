/// The tasks sleeping on a ``ManualClock``, earliest deadline first: adding, cancelling and
/// taking the next due sleeper each cost O(log n) amortized, however many sleep.
///
/// A binary heap orders the sleepers by deadline, then by the order they came in. Cancelling
/// removes a sleeper from the live table at once and leaves its heap entry behind, to be
/// skipped when it surfaces; when the heap holds more dead entries than live ones, it is
/// rebuilt from the live ones.
struct SleeperQueue<Instant: Comparable & Sendable, Waiter: Sendable>: Sendable {
    private struct Entry: Sendable {
        let deadline: Instant
        let id: UInt64

        func precedes(_ other: Entry) -> Bool { deadline < other.deadline || (deadline == other.deadline && id < other.id) }
    }

    private var heap: [Entry] = []
    private var live: [UInt64: Waiter] = [:]

    /// How many sleepers wait.
    var count: Int { live.count }

    /// Adds a sleeper, under an `id` larger than every earlier one.
    mutating func insert(id: UInt64, deadline: Instant, _ waiter: Waiter) {
        live[id] = waiter
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
    }

    /// Removes the sleeper `id`, if it still waits, and returns it.
    mutating func remove(id: UInt64) -> Waiter? {
        guard let waiter = live.removeValue(forKey: id) else { return nil }
        if heap.count > 32 && heap.count > 2 * live.count { rebuild() }
        return waiter
    }

    /// Removes and returns every sleeper whose deadline is at or before `now`, earliest first.
    mutating func removeDue(at now: Instant) -> [Waiter] {
        var due: [Waiter] = []
        while let first = heap.first, first.deadline <= now {
            popFirst()
            if let waiter = live.removeValue(forKey: first.id) { due.append(waiter) }
        }
        return due
    }

    private mutating func popFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func rebuild() {
        heap.removeAll { live[$0.id] == nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var first = parent
            let (left, right) = (2 * parent + 1, 2 * parent + 2)
            if left < heap.count && heap[left].precedes(heap[first]) { first = left }
            if right < heap.count && heap[right].precedes(heap[first]) { first = right }
            guard first != parent else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
