/// Checks the transitions that postpone their event: they run no action (the event runs its
/// actions when it is retried, by the transition that handles it then), and no timeout is
/// postponed (it belongs to the state it fired in).
struct PostponeCheck<Definition: MachineDefinition> {
    /// Event ids from here on are timeouts.
    let firstTimeoutID: Int32
    let describeState: (Int32) -> String

    func diagnostics(_ transition: CompiledTransition<Definition>) -> [SchemaError.Diagnostic] {
        guard transition.postpones else { return [] }
        let state = describeState(transition.source)
        if transition.event >= firstTimeoutID {
            return [.init(.invalidPostpone, "a timeout of \(state) is postponed, but it belongs to \(state) and would be stale in any other state; handle it or leave it out",
                          at: [transition.location], state: state)]
        }
        if transition.actions.count > 0 {
            return [.init(.invalidPostpone, "postpone() in \(state) has actions, but a postponed event runs nothing until it is retried; move them to the transition that handles it then",
                          at: [transition.location], state: state)]
        }
        return []
    }
}
