// Handing events to a machine: `send` awaits the record (also with the predicates written out);
// `post` queues, waiting for room; `tryPost` queues or refuses at once; `post(contentsOf:)`
// queues a sequence.

extension Machine {
    /// Processes `event` and returns its record once its transition has completed.
    ///
    /// - Parameters:
    ///   - event: the event to process.
    ///   - predicates: the event's predicates; the standing predicates when `nil`.
    /// - Returns: the record, whose outcome is `.transitioned`, `.unhandled` or `.conditionFalse`.
    /// - Throws: ``MachineError`` of kind `.actionFailed` (the record is published with outcome
    ///   `.failed` and the failure policy applied), `.stopped`, `.cancelled` (the event was
    ///   withdrawn before processing) or `.reentrantSend`.
    @discardableResult
    @inlinable
    public func send(_ event: Event, predicates: PredicateContext? = nil) async throws(MachineError<Definition>) -> Record {
        guard core.isAcceptingEvents else { throw refusal(core.isPaused ? .paused : .stopped, origin: .send) }
        if Task.isCancelled { throw refusal(.cancelled, origin: .send) }
        // A durable machine's send waits for the store too: a path of its own, so that this one
        // keeps no suspension point for it.
        if journal != nil { return try await sendDurably(event, predicates) }
        let acceptedAt = Timestamp.now
        if mailbox.withLock({ $0.inbox.beginInline() }) {
            // Not reentrant: none of this machine's actions is running.
            if settings.isInstrumented { reportInlineSend() }
            let record = await process(event, predicates, origin: .send, acceptedAt: acceptedAt,
                                       scope: ActionScope.machines, replying: true)
            if record.isPostponement {
                return try await awaitPostponed(event, predicates, acceptedAt: acceptedAt, scope: ActionScope.machines)
            }
            processingFinished()
            return try Self.result(of: consume record)
        }
        let scope = ActionScope.machines
        if scope.contains(ObjectIdentifier(self)) { throw refusal(.reentrantSend, origin: .send) }
        return try await sendThroughInbox(event, predicates, acceptedAt: acceptedAt, scope: scope)
    }

    /// Queues `event` without waiting for it to be processed, or refuses it at once if the inbox
    /// has no room. Callable from any thread without awaiting the actor: the inbox is behind a
    /// lock of its own.
    ///
    /// - Throws: ``MachineError`` of kind `.inboxFull` if the inbox is at capacity (or senders
    ///   wait for room, which `tryPost` does not overtake), or `.stopped`.
    @inlinable
    public nonisolated func tryPost(_ event: Event, predicates: PredicateContext? = nil) throws(MachineError<Definition>) {
        let acceptedAt = Timestamp.now
        let trace = callerContext
        guard try queue(event, predicates, acceptedAt: acceptedAt, trace: trace) else {
            throw refusal(.inboxFull, origin: .post)
        }
    }

    /// Queues `event` without waiting for it to be processed, but waiting for room if the inbox
    /// is full: back-pressure for producers. From one of the machine's own actions it never
    /// waits, since the room it would wait for cannot come: it throws `.inboxFull` instead.
    ///
    /// Once the inbox is full, waiting senders are let in, in order, when half of it is free
    /// again: a producer that outruns the machine then wakes once per half inbox.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`), and returns without
    /// suspending while the inbox has room, so a loop of `post` calls on an actor holds
    /// that actor until the inbox is full.
    ///
    /// - Throws: ``MachineError`` `.stopped`, `.inboxFull` (see above), or `.cancelled` if the task
    ///   is cancelled while it waits.
    @inlinable
    public nonisolated(nonsending) func post(
        _ event: Event, predicates: PredicateContext? = nil
    ) async throws(MachineError<Definition>) {
        let acceptedAt = Timestamp.now
        let trace = callerContext
        if try queue(event, predicates, acceptedAt: acceptedAt, trace: trace) { return }
        try await enqueueWhenRoom(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: acceptedAt,
                                        trace: trace))
        reportQueued(origin: .post)
    }

    /// Queues a posted event if the inbox has room.
    ///
    /// - Returns: `false` if the inbox is full.
    /// - Throws: ``MachineError`` `.stopped` if the machine takes no more events.
    @inlinable @inline(__always)
    nonisolated func queue(
        _ event: Event, _ predicates: PredicateContext?, acceptedAt: Timestamp, trace: (any AnyObject & Sendable)?
    ) throws(MachineError<Definition>) -> Bool {
        // The entry is made inside the lock's closure, so that it moves into the queue (a copy
        // and a destruction through its value witnesses otherwise).
        switch mailbox.withLock({
            $0.inbox.post(Entry(event: event, predicates: predicates, origin: .post, acceptedAt: acceptedAt, trace: trace))
        }) {
        case .queued(let resumptions):
            if !resumptions.isEmpty { perform(resumptions) }
            if settings.isInstrumented { reportQueued(origin: .post) }
            return true
        case .full: return false
        case .closed: throw refusal(.stopped, origin: .post)
        case .paused: throw refusal(.paused, origin: .post)
        }
    }

    /// Feeds every element of `events` into the inbox in order, waiting for room when it is
    /// full, until the sequence ends. Returns without waiting for the last events to be processed.
    ///
    /// - Throws: ``MachineError`` `.stopped` if the machine stops first, or the sequence's error.
    public nonisolated func post<S: AsyncSequence & Sendable>(contentsOf events: S) async throws where S.Element == Event {
        for try await event in events { try await post(event) }
    }

    /// Feeds every event of `envelopes`, with its predicates, into the inbox in order.
    public nonisolated func post<S: AsyncSequence & Sendable>(contentsOf envelopes: S) async throws
    where S.Element == Envelope<Event> {
        for try await envelope in envelopes { try await post(envelope.event, predicates: envelope.predicates) }
    }
}

/// ``Machine/send(_:predicates:)`` with the predicates written out:
/// `send(.pass, predicates: Enforcement.weak)`.
///
/// One, two and three predicates have overloads of their own, specialized for the predicates'
/// types where they are called, so that the context is made without allocating or searching.
/// More predicates take the variadic form.
extension Machine {
    /// Sends `event` with one predicate; see ``send(_:predicates:)``.
    @discardableResult
    @inlinable
    public func send<P: MatchingPredicate>(_ event: Event, predicates: P) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(predicates))
    }

    /// Sends `event` with two predicates; see ``send(_:predicates:)-(_,PredicateContext?)``.
    @discardableResult
    @inlinable
    public func send<P1: MatchingPredicate, P2: MatchingPredicate>(
        _ event: Event, predicates first: P1, _ second: P2
    ) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(first, second))
    }

    /// Sends `event` with three predicates; see ``send(_:predicates:)-(_,PredicateContext?)``.
    @discardableResult
    @inlinable
    public func send<P1: MatchingPredicate, P2: MatchingPredicate, P3: MatchingPredicate>(
        _ event: Event, predicates first: P1, _ second: P2, _ third: P3
    ) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(first, second, third))
    }

    /// Sends `event` with any number of predicates; see ``send(_:predicates:)``.
    @discardableResult
    public func send<each P: MatchingPredicate>(
        _ event: Event, predicates: repeat each P
    ) async throws(MachineError<Definition>) -> Record {
        try await send(event, predicates: PredicateContext(repeat each predicates))
    }
}
