/// A schema's timers: the durations of its `after(…)` statements, which timeouts each state
/// arms, and which tasks it runs.
@usableFromInline
package struct TimerTable<Definition: MachineDefinition>: Sendable {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    /// The durations of the table's timeouts; the one at index `i` has event id `eventCount + i`.
    let timeouts: [Duration]
    /// The number of events: timeouts are numbered after them.
    let eventCount: Int
    /// Per state, the timeouts to arm on entering it, shortest first.
    @usableFromInline let stateTimeouts: [[StateTimeout]]
    /// Per state, the tasks to run while in it.
    @usableFromInline let stateTasks: [[StateTask<Definition>]]
    /// Whether any state has a timeout or a task: machines of other schemas skip the bookkeeping.
    @usableFromInline let hasTimedStates: Bool

    /// A timeout a state arms: its event id and its duration.
    @usableFromInline package struct StateTimeout: Sendable {
        let eventID: Int32
        @usableFromInline package let duration: Duration
    }

    /// The timers of `transitions`, whose timeout event ids follow the `eventCount` events.
    init(
        timeouts: [Duration], eventCount: Int, transitions: [CompiledTransition<Definition>],
        stateTasks: [[StateTask<Definition>]]
    ) {
        self.timeouts = timeouts
        self.eventCount = eventCount
        var stateTimeouts = [[StateTimeout]](repeating: [], count: stateTasks.count)
        for transition in transitions where transition.event >= Int32(eventCount) {
            let duration = timeouts[Int(transition.event) - eventCount]
            if !stateTimeouts[Int(transition.source)].contains(where: { $0.eventID == transition.event }) {
                stateTimeouts[Int(transition.source)].append(StateTimeout(eventID: transition.event, duration: duration))
            }
        }
        // Shortest first: the order a machine waits for them in.
        self.stateTimeouts = stateTimeouts.map { $0.sorted { $0.duration < $1.duration } }
        self.stateTasks = stateTasks
        self.hasTimedStates = !timeouts.isEmpty || stateTasks.contains { !$0.isEmpty }
    }

    /// The event id of the timeout of `duration`, if the table has one.
    func timeoutID(_ duration: Duration) -> Int32? {
        timeouts.firstIndex(of: duration).map { Int32(eventCount + $0) }
    }
}
