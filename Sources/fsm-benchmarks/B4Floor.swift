import Synchronization

/// An object the size of a machine with the two words a send writes at each end of one: the
/// actor's lock word after the header, and the inbox's lock at the tail.
private final class Slab: Sendable {
    let head = Atomic<Int>(0)
    let middle: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                 Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                 Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let tail = Atomic<Int>(0)

    /// Takes and releases the head word, like an actor entered and left, and counts at the tail.
    func visit() {
        _ = head.compareExchange(expected: 0, desired: 1, ordering: .acquiring)
        tail.wrappingAdd(1, ordering: .relaxed)
        head.store(0, ordering: .releasing)
    }
}

/// B4's baseline: the same numbers of objects, visits and tasks, in the same orders, over plain
/// objects the size of a machine, with no runtime at all. What the memory system does with
/// an order bounds what B4 can do with it.
func benchmarkB4Floor(_ settings: Settings) async throws -> [Measurement] {
    let count = settings.b4Instances
    let passes = 10
    let clock = ContinuousClock()
    let variants = Sharding.runs(cores: settings.cores).map { tasks, sharding in
        Variant(name: "B4 floor " + sharding.label(tasks: tasks)) { () async throws -> (Duration, Int) in
            let slabs = (0..<count).map { _ in Slab() }
            let start = clock.now
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        let shard = sharding.indices(of: task, among: tasks, count: slabs.count)
                        for _ in 0..<passes {
                            for index in shard { slabs[index].visit() }
                        }
                    }
                }
            }
            let elapsed = clock.now - start
            return (elapsed, slabs.reduce(0) { $0 &+ $1.tail.load(ordering: .relaxed) })
        }
    }
    return try await measureInTurn(variants, unit: "ms", repetitions: settings.repetitions, units: 1, scale: 1e6)
}
