// Child machines, from the parent's side: a state task that starts a machine of another schema
// and turns its end into the parent's event.

extension StateTask {
    /// A child machine: each time the parent enters the state, machine `id` of `children`
    /// starts, made with `data` (a durable supervisor links the machine its store holds under
    /// `id` instead, if there is one). When the child completes a transition into a final state
    /// of its schema, `done` makes the parent's event from that state and the child's data;
    /// when it ends for good without one (a failure its supervisor does not restart, or, in
    /// memory, a stop or its supervisor's end), `failed` makes it from the error. `nil` posts
    /// nothing.
    ///
    /// ```swift
    /// let payments = Supervisor(schema: paymentSchema)
    /// let orders = try Schema<Shop>(initial: .placed, final: [.shipped, .cancelled]) {
    ///     define(.placed) { when(.pay) | then(.paying) }
    ///     define(.paying, running: .child(in: payments, id: { "pay-\($0.id)" }, data: { Payment.Data(amount: $0.data.amount) },
    ///                                     cancelling: .cancel,
    ///                                     done: { state, _ in state == .captured ? .paid : .declined },
    ///                                     failed: { _ in .declined })) {
    ///         when(.paid) | then(.shipped)
    ///         when(.declined) | then(.cancelled)
    ///     }
    /// }
    /// ```
    ///
    /// The end comes back like a state task's result: through the parent's inbox, with origin
    /// ``EventOrigin/stateTask``, dropped if the parent has left the state by its turn. Leaving
    /// the state sends the child `cancelling` (if given and the child has not ended); a child in
    /// memory is then stopped and leaves its supervisor. The child follows its supervisor's
    /// restarts. Several children may run in one state, each with its own id.
    ///
    /// **Durable.** On a durable supervisor the child's final entry is durable before its end is
    /// handed over. When the parent stops, shuts down or is passivated, its durable children
    /// run on; the parent, restored in the state, links them again, and one that finished
    /// meanwhile hands its end over at once. Give `cancelling` an event that takes the child
    /// from every state to a final one: a durable child the parent left without it runs on. The
    /// parent's entries keep a cancellation until the child has had it, and a restored parent
    /// sends it again. A
    /// child that another process sharing the store holds runs there, and the parent reads its
    /// end from the store.
    ///
    /// - Parameters:
    ///   - children: the supervisor the child runs under.
    ///   - id: the child's id, from the parent's context. An id names one child at a time: a
    ///     second parent that starts a child under an id another parent waits for gets
    ///     `failed` with ``MachineError`` `.duplicateMachine`.
    ///   - data: the child's data, from the parent's context.
    ///   - cancelling: the event the child is sent when the parent leaves the state first.
    ///   - done: the parent's event for the child's final state and data.
    ///   - failed: the parent's event for the child's end without a final state.
    ///   - fileID: where the task is written, for diagnostics; leave the default.
    ///   - line: the line it is written on, likewise.
    @inlinable
    public static func child<Child: MachineDefinition>(
        in children: Supervisor<Child>,
        id: @escaping @Sendable (StateTaskContext<Definition>) -> Child.ID,
        data: @escaping @Sendable (StateTaskContext<Definition>) -> Child.Data,
        cancelling: Child.Event? = nil,
        done: @escaping @Sendable (Child.State, Child.Data) -> Event?,
        failed: @escaping @Sendable (any Error) -> Event?,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> StateTask {
        let launcher = ChildLauncher<Definition>(label: "child \(Child.self)", start: { context, delivery in
            let childID = id(context)
            let watch = ChildWatch<Child>(
                cancelling: cancelling,
                reached: { state, data in if let event = done(state, data) { delivery.deliver(event) } },
                ended: { error in if let event = failed(error) { delivery.deliver(event) } })
            children.startChild(childID, data: data(context), watch: watch)
            let leave: @Sendable ((@Sendable () -> Void)?) -> Bool = { settled in
                children.leaveChild(childID, watch, cancelling: cancelling, settled: settled)
            }
            guard let journaling = children.journaling else {
                return ChildHold(key: nil, leave: leave, parentEnded: { _ = leave(nil) })
            }
            return ChildHold(key: journaling.key(for: childID), leave: leave,
                             parentEnded: { children.unlinkChild(childID, watch) })
        }, key: { context in
            children.journaling?.key(for: id(context))
        }, cancel: { key, settled in
            children.cancelChild(key: key, cancelling: cancelling, settled: settled)
        })
        return StateTask(at: SourceLocation(fileID, line), child: launcher)
    }
}
