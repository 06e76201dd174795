/// An operator's act on one machine that a store carries to the process running the machine:
/// the `actorfsm` command asks this way when the application holds the machine, and the
/// application's durable supervisor carries it out and answers.
public struct OperatorRequest: Sendable, Equatable {
    /// What the operator asks for.
    public enum Verb: String, Sendable, CaseIterable {
        /// Pause the machine (`Supervisor.pause(_:reason:)`).
        case pause
        /// Resume the machine (`Supervisor.resume(_:reason:)`).
        case resume
        /// Cancel the machine (`Supervisor.cancel(_:reason:)`).
        case cancel
        /// Process the machine's failed event again (`Supervisor.retry(_:reason:)`).
        case retry
        /// Send the machine ``OperatorRequest/event`` (`Supervisor.signal(_:_:predicates:reason:)`).
        case signal
    }

    /// What the process that carried out a request answers.
    public struct Answer: Sendable, Equatable {
        /// Whether the act was done.
        public var succeeded: Bool
        /// What the process tells the operator: the machine's new state, or why it refused.
        public var message: String

        /// An answer saying whether the act was done, and `message`.
        public init(succeeded: Bool, message: String) {
            self.succeeded = succeeded
            self.message = message
        }
    }

    /// The store's number for the request; 0 before it is submitted.
    public var number: Int64
    /// The machine's id, as the store knows it.
    public var machine: String
    /// The name of the machine's schema, as its stored description gives it: the supervisor of
    /// that schema takes the request.
    public var schema: String
    /// What to do.
    public var verb: Verb
    /// Why, for the machine's history.
    public var reason: String
    /// When the operator asked, in milliseconds since 1970.
    public var time: Int64
    /// For a signal, the event to send; `nil` for the other verbs.
    public var event: SignalledEvent?

    /// A request to apply `verb` to `machine` of the schema named `schema`, asked at `time`; a
    /// signal sends `event`.
    public init(
        number: Int64 = 0, machine: String, schema: String, verb: Verb, reason: String, time: Int64, event: SignalledEvent? = nil
    ) {
        self.number = number
        self.machine = machine
        self.schema = schema
        self.verb = verb
        self.reason = reason
        self.time = time
        self.event = event
    }
}

/// Where a submitted ``OperatorRequest`` is.
public enum OperatorRequestProgress: Sendable, Equatable {
    /// No process has taken it yet.
    case waiting
    /// A process took it and has not answered yet.
    case taken
    /// The process that took it stopped (it died, or lost the store) before it answered: the
    /// request gets no answer, and the machine's history says whether the act was done. A
    /// signal or retry whose event had started is finished by the process that restores the
    /// machine.
    case abandoned
    /// The process answered: whether the act was done, and what it said.
    case answered(succeeded: Bool, message: String)
    /// The store holds no such request (withdrawn, or cleared a day after its answer).
    case unknown
}
