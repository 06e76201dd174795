/// What a machine does after an action throws.
///
/// ```swift
/// let machine = Machine(schema: orders, id: 42, configuration: .init(failurePolicy: .enter(.failed)))
/// ```
public struct FailurePolicy<State: Hashable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    enum Code: Sendable, Hashable {
        case resume
        case stop
        case enter(State)
    }
    let code: Code

    /// Stay in the committed state and go on with the next event (the default).
    ///
    /// The committed state is the source state if an exit or transition action threw, and the
    /// target state if an entry action threw.
    public static var resume: FailurePolicy { FailurePolicy(code: .resume) }

    /// Stop the machine: queued events get the outcome `.stopped`, new ones are refused. Under a
    /// ``Supervisor``, this is what triggers a restart.
    public static var stop: FailurePolicy { FailurePolicy(code: .stop) }

    /// Move to `state` (an error state of the schema) without running entry or exit actions, and
    /// go on. If `state` has no transitions, every later event is unhandled until the machine is
    /// replaced.
    public static func enter(_ state: State) -> FailurePolicy { FailurePolicy(code: .enter(state)) }

    /// The policy's name.
    public var description: String {
        switch code {
        case .resume: "resume"
        case .stop: "stop"
        case .enter(let state): "enter(\(state))"
        }
    }
}
