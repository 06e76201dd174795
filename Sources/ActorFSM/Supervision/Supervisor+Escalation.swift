extension Supervisor {
    /// A failure the supervisor escalated; ``run()`` throws it.
    public struct Escalation: Error, Sendable, CustomStringConvertible {
        /// The machine that failed.
        public let id: ID
        /// Its action's error.
        public let error: any Error

        /// Says which machine failed, and how.
        public var description: String {
            "the supervisor escalated the failure of machine \(id) and stopped every machine: \(error)"
        }
    }
}
