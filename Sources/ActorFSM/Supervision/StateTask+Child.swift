// Child machines: a state task that runs a machine of another schema, under a supervisor of its
// own, and hands its end back to the parent as an event.

extension StateTask {
    /// A child machine: while the parent is in the state, the machine `id` of `children` runs
    /// (made with `data`, or restored, on a durable supervisor, when the store holds it). When it
    /// reaches one of its schema's final states, `done` makes the parent's event from that state
    /// and the child's data; when it ends without reaching one (a failure its supervisor does not
    /// restart, or an escalation), `failed` makes it from the error. Leaving the state, or the
    /// parent stopping, stops the child, first sending it `cancelling` if given.
    ///
    /// ```swift
    /// let payments = Supervisor(schema: paymentSchema)
    /// let orders = try Schema<Shop>(initial: .placed, final: [.shipping, .cancelled]) {
    ///     define(.placed) { when(.pay) | then(.paying) }
    ///     define(.paying, running: .child(in: payments, id: { "pay-\($0.id)" }, data: { Payment.Data(amount: $0.data.amount) },
    ///                                     done: { state, _ in state == .captured ? .paid : .declined },
    ///                                     failed: { _ in .declined })) {
    ///         when(.paid) | then(.shipping)
    ///         when(.declined) | then(.cancelled)
    ///     }
    /// }
    /// ```
    ///
    /// The child drives itself (its initial state's tasks, entry actions of later states,
    /// `postNext`); a restart by its supervisor is followed. Several children may run in one
    /// state: the first whose event moves the parent on stops the others, and the parent's data
    /// can count those done to wait for all (see the Guide). On a durable supervisor the child is
    /// durable: a parent restored in the state takes up the restored child, and a child that
    /// finished meanwhile hands its end over at once, so the parent gets it once.
    public static func child<Child: MachineDefinition>(
        in children: Supervisor<Child>,
        id: @escaping @Sendable (StateTaskContext<Definition>) -> Child.ID,
        data: @escaping @Sendable (StateTaskContext<Definition>) -> Child.Data,
        cancelling: Child.Event? = nil,
        done: @escaping @Sendable (Child.State, Child.Data) -> Event?,
        failed: @escaping @Sendable (any Error) -> Event?,
        fileID: StaticString = #fileID, line: UInt = #line
    ) -> StateTask {
        StateTask(at: SourceLocation(fileID, line), label: "child \(Child.self)") { context in
            let childID = id(context)
            let childData = data(context)
            return await withTaskCancellationHandler {
                await children.runChild(childID, data: childData, cancelling: cancelling, done: done, failed: failed)
            } onCancel: {
                Task { await children.stopChild(childID, cancelling: cancelling) }
            }
        }
    }
}

extension Supervisor {
    /// Runs the child `id` (made with `data` if it is not running or stored) until it reaches a
    /// final state or ends, following its restarts, and returns the parent's event for that.
    func runChild<ParentEvent>(
        _ id: ID, data: Definition.Data, cancelling: Event?,
        done: @Sendable (State, Definition.Data) -> ParentEvent?, failed: @Sendable (any Error) -> ParentEvent?
    ) async -> ParentEvent? {
        var child: Child
        do { child = try await childMachine(id, data: data) } catch { return Task.isCancelled ? nil : failed(error) }
        // The parent left the state while the child was being made: the cancellation handler
        // found nothing to stop.
        if Task.isCancelled {
            await stopChild(id, cancelling: cancelling)
            return nil
        }
        while !Task.isCancelled {
            let states = await child.stateChanges()
            for await state in states where schema.finalStates.contains(state) {
                let finalData = await child.data
                await child.shutdown()
                return done(state, finalData)
            }
            // It ended without a final state: its supervisor restarted it, or it failed for good.
            if let successor = machine(id: id), successor !== child {
                child = successor
                continue
            }
            if Task.isCancelled { return nil }
            do {
                try await child.run()
                return failed(ChildEnded(description: "child machine \(id) ended without reaching a final state"))
            } catch {
                return failed(error)
            }
        }
        return nil
    }

    /// Stops the child `id` because its parent left the state, first sending it `cancelling`.
    func stopChild(_ id: ID, cancelling: Event?) async {
        guard let child = machine(id: id) else { return }
        if let cancelling { _ = try? await child.send(cancelling) }
        await child.stop()
    }

    /// The machine under `id`: running, restored from the store on a durable supervisor, or
    /// made with `data`.
    func childMachine(_ id: ID, data: Definition.Data) async throws(MachineError<Definition>) -> Child {
        if let journaling { return try await journaling.activate(id, data: data, of: self) }
        if let running = machine(id: id) { return running }
        do {
            return try spawn(id: id, data: data)
        } catch where error.kind == .duplicateMachine {
            if let running = machine(id: id) { return running }
            throw error
        }
    }
}

/// A child machine ended without reaching a final state and without an error to say why (it
/// was stopped, or shut down).
struct ChildEnded: Error, CustomStringConvertible {
    let description: String
}
