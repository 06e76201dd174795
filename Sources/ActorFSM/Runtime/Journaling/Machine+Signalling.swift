// An operator's signal: an event sent to a machine for an operator, whose entries record the
// act, with the operator's reason.

extension Machine {
    /// Sends `event` for an operator who gave `reason`, and returns its record once its
    /// transition has completed, as ``send(_:predicates:)`` does. A durable machine's entries
    /// for the event (its intent, if it has one, and its completed entry) record the signal,
    /// so that the machine's history names the operator's act; a crash during the event's
    /// action has it processed again after the restore, still recorded as the signal.
    ///
    /// The event takes its turn behind those queued before it.
    ///
    /// - Throws: as ``send(_:predicates:)``: ``MachineError`` `.paused` if the machine is
    ///   paused (resume it first), `.stopped`, `.reentrantSend` from one of its own actions,
    ///   `.actionFailed`, `.notDurable`.
    package func signal(_ event: Event, predicates: PredicateContext?, reason: String) async throws(MachineError<Definition>) -> Record {
        guard journal != nil else { return try await send(event, predicates: predicates) }
        guard core.isAcceptingEvents else { throw refusal(core.isPaused ? .paused : .stopped, origin: .send) }
        let scope = ActionScope.machines
        if scope.contains(ObjectIdentifier(self)) { throw refusal(.reentrantSend, origin: .send) }
        // Through the inbox, whether the machine is idle or not: the drain tells the journal
        // which event in progress the signal is.
        return try await sendThroughInbox(event, predicates, acceptedAt: .now, scope: scope, signal: reason)
    }
}
