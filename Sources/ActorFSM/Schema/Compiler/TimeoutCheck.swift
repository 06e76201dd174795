/// Checks the transitions that state timeouts trigger: a positive duration, an effect, and no
/// condition or action that needs the event a timeout does not have.
struct TimeoutCheck<Definition: MachineDefinition> {
    @usableFromInline package typealias State = Definition.State
    @usableFromInline package typealias Event = Definition.Event
    let policy: EntryExitPolicy
    /// Event ids from here on are timeouts, numbered in the order of `durations`.
    let firstTimeoutID: Int32
    let durations: [Duration]
    let entryActions: [Actions<Definition>]
    let exitActions: [Actions<Definition>]
    let describeState: (Int32) -> String

    func diagnostics(_ transition: CompiledTransition<Definition>) -> [SchemaError.Diagnostic] {
        guard transition.event >= firstTimeoutID else { return [] }
        let timeout = Timeout(durations[Int(transition.event - firstTimeoutID)])
        let state = describeState(transition.source)
        func diagnostic(_ kind: SchemaError.Kind, _ message: String) -> SchemaError.Diagnostic {
            .init(kind, message, at: [transition.location], state: state, event: timeout.description)
        }
        var found: [SchemaError.Diagnostic] = []
        if timeout.duration <= .zero {
            found.append(diagnostic(.invalidTimeout, "\(timeout) in \(state) would fire at once; give after(…) a positive duration"))
        }
        let changes = policy == .executeAlways || transition.source != transition.target
        if !changes && transition.actions.count == 0 {
            found.append(diagnostic(
                .timeoutWithoutEffect,
                "\(timeout) in \(state) stays in \(state) and runs no action, so it can never do anything; give it a target or an action"))
        }
        var readers: [String] = []
        if transition.guards.contains(where: \.readsEvent) { readers.append("a condition") }
        if transition.actions.readsEvent { readers.append("an action") }
        if changes && exitActions[Int(transition.source)].readsEvent { readers.append("an exit action of \(state)") }
        if changes && entryActions[Int(transition.target)].readsEvent {
            readers.append("an entry action of \(describeState(transition.target))")
        }
        if !readers.isEmpty {
            found.append(diagnostic(
                .eventUnavailable,
                "\(readers.joined(separator: " and ")) \(readers.count == 1 ? "takes" : "take") the event, but \(timeout) in \(state) has none; take the TransitionContext instead, whose event is nil for a timeout"))
        }
        return found
    }
}
