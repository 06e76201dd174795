extension Supervisor {
    /// A failure the supervisor escalated; ``run()`` throws it, and sends refused afterwards
    /// carry it as their ``MachineError/underlying`` error.
    public struct Escalation: Error, Sendable, CustomStringConvertible {
        /// The machine that failed.
        public let id: ID
        /// Its action's error: the last failure.
        public let error: any Error
        /// The restart limit the failure exceeded; `nil` if the restart strategy escalates
        /// every failure.
        public let limit: Limit?

        /// A restart limit, and what it counts.
        public enum Limit: Sendable, Hashable, CustomStringConvertible {
            /// ``SupervisorConfiguration/intensity``: the restarts of the one machine.
            case perMachine(RestartIntensity)
            /// ``SupervisorConfiguration/overallIntensity``: the restarts of all machines.
            case overall(RestartIntensity)

            /// `at most 3 restarts within 5.0 seconds per machine`.
            public var description: String {
                switch self {
                case .perMachine(let intensity): "at most \(intensity) per machine"
                case .overall(let intensity): "at most \(intensity) across all machines"
                }
            }
        }

        /// The escalation the supervisor's core decided.
        init(_ escalated: Core.Escalated) {
            id = escalated.id
            error = escalated.error
            limit = escalated.limit.map { limit in
                switch limit {
                case .perMachine(let intensity): .perMachine(intensity)
                case .overall(let intensity): .overall(intensity)
                }
            }
        }

        /// Says which machine failed, which limit it exceeded, and its last failure.
        public var description: String {
            let why = limit.map { "failed once more than its restart intensity allows (\($0))" }
                ?? "failed, and the restart strategy escalates every failure"
            return "machine \(id) \(why), so the supervisor stopped every machine and takes no more events; the last failure: \(error)"
        }
    }
}
