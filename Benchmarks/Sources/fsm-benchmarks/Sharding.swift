/// How B4 divides its machines among the sending tasks.
///
/// The machines are spawned one after another, so neighbours in the array are usually
/// neighbours in memory. `blocks` gives each task its own contiguous range, the way a server
/// gives each core its shard; `interleaved` gives task `t` the machines `t`, `t + tasks`, …, so
/// that the cores work on neighbouring objects at the same moment. Both are measured and judged
/// against B4's target, next to the same orders over bare actors (`b4FloorVariants`), which
/// show what the concurrency runtime alone does with each.
enum Sharding {
    /// Each task takes one contiguous range of the machines.
    case blocks
    /// Task `t` of `n` takes the machines `t`, `t + n`, `t + 2n`, ….
    case interleaved

    /// The combinations B4 measures: one task (where both orders are the same), then every
    /// order with one task per core.
    static func measuredCombinations(cores: Int) -> [(tasks: Int, sharding: Sharding)] {
        cores > 1 ? [(1, .blocks), (cores, .blocks), (cores, .interleaved)] : [(1, .blocks)]
    }

    /// The indices, in `0..<count`, that task `task` of `tasks` visits, in its order.
    func indices(of task: Int, among tasks: Int, count: Int) -> StrideTo<Int> {
        switch self {
        case .blocks:
            let size = (count + tasks - 1) / tasks
            return stride(from: Swift.min(count, task * size), to: Swift.min(count, (task + 1) * size), by: 1)
        case .interleaved:
            return stride(from: task, to: count, by: tasks)
        }
    }

    /// The measurement's name after "B4": `1 task`, `2 tasks`, `2 tasks, interleaved`.
    func label(tasks: Int) -> String {
        let name = "\(tasks) task\(tasks == 1 ? "" : "s")"
        return self == .interleaved ? name + ", interleaved" : name
    }
}
