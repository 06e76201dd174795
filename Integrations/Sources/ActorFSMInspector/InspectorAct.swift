import ActorFSMDurability

/// One act the inspector's page asks for: a verb on a machine, with the operator's reason.
public struct InspectorAct: Sendable, Equatable {
    /// What to do.
    public var verb: InspectorActions.Verb
    /// The machine's id, as the store knows it.
    public var machine: String
    /// Why, for the machine's history.
    public var reason: String
    /// For a signal, the event to send (``SignalledEvent/named(_:payload:)``: its case's name,
    /// and its values as JSON); `nil` for the other verbs.
    public var event: SignalledEvent?

    /// An act of `verb` on `machine` for `reason`; a signal sends `event`.
    public init(verb: InspectorActions.Verb, machine: String, reason: String, event: SignalledEvent? = nil) {
        self.verb = verb
        self.machine = machine
        self.reason = reason
        self.event = event
    }

    /// The act as an operator's request for the process that runs the machine, asked now.
    func request(schema: String) -> OperatorRequest {
        OperatorRequest(machine: machine, schema: schema, verb: verb.request, reason: reason,
                        time: SystemWallClock().nanosecondsSince1970() / 1_000_000, event: event)
    }
}
