import ActorFSM

// Passivation: a durable supervisor writes idle machines out of memory; their next event
// brings them back.

extension Supervisor {
    /// Writes the machine under `id` out of memory: it finishes the events it has queued, its
    /// entries are durable, and it leaves the supervisor (reported as ``SupervisorReport/passivated(id:)``);
    /// first use restores it. Its timers are not lost: restored, it arms them again with their
    /// deadlines. Only a durable supervisor passivates, and never a paused machine
    /// (``Machine/pause(reason:)``), which stays in memory, paused.
    ///
    /// - Returns: whether a machine was passivated.
    @discardableResult
    public func passivate(id: ID) async -> Bool {
        guard let passivated = await passivateOne(id: id) else { return false }
        if let newest = passivated { record([newest]) }
        return true
    }

    /// Passivates the machine `id`; `nil` if there is none here, else the machine's key and
    /// newest entry's number once its last write is durable, if it has written one.
    private func passivateOne(id: ID) async -> (id: String, sequenceNumber: UInt64)?? {
        guard durable != nil, let machine = machine(id: id) else { return nil }
        // Asked from its own action, the machine cannot end before the action does: it leaves
        // the supervisor by itself when it ends.
        if ActionScope.machines.contains(ObjectIdentifier(machine)) {
            return await machine.closeForShutdownUnlessPaused() ? .some(nil) : nil
        }
        // Also a machine already stopping (after a failure): its supervisor decides on it first.
        tracking { _ = $0.passivating.insert(ObjectIdentifier(machine)) }
        // Not cancellable: the machine must have ended before it leaves the registry, or the
        // next send would restore a second copy while this one still writes. A paused machine
        // stays, paused: restored, it would run.
        let ended = await machine.shutDownAndAwaitEndUnlessPaused()
        tracking { _ = $0.passivating.remove(ObjectIdentifier(machine)) }
        guard ended else { return nil }
        var newest: UInt64?
        if let journal = machine.durableJournal {
            _ = await journal.waitForWrite(journal.newestWrite)
            newest = journal.newestCompleted
        }
        registry.withLock { _ = $0.core.remove(machine, from: id) }
        return .some(newest.map { (id: durable?.key(id) ?? "\(id)", sequenceNumber: $0) })
    }

    /// Marks `machines` passivated in a store that keeps summaries.
    private func record(_ machines: [(id: String, sequenceNumber: UInt64)]) {
        guard !machines.isEmpty, let store = durable?.durability.store as? any PassivationRecording else { return }
        store.recordPassivated(machines)
    }

    /// Passivates every machine that has written nothing for `idle`, and, if more than `limit`
    /// machines would stay in memory, the least recently active of them too: the memory of a
    /// supervisor whose machines are mostly idle (finished orders, carts left alone) stays
    /// bounded, and each comes back on its next event. A machine at work is not idle: one whose
    /// asynchronous actions run (or wait to retry), or whose state runs tasks or child machines,
    /// which it would stop.
    ///
    /// ```swift
    /// await orders.passivateIdle(longerThan: .seconds(600), keepingAtMost: 100_000)
    /// ```
    ///
    /// - Returns: how many machines were passivated.
    @discardableResult
    public func passivateIdle(longerThan idle: Duration, keepingAtMost limit: Int? = nil) async -> Int {
        guard let durable else { return 0 }
        let now = durable.durability.wallClock.nanosecondsSince1970()
        let threshold = StoredOrigin.nanoseconds(idle)
        // A machine whose asynchronous actions run (waiting to retry one, say) is not idle: a
        // passivation would wait for them. Nor is one whose state's tasks or children run. One
        // whose write failed waits for its restore (or is parked), not for a passivation.
        let active = registry.withLock { registry in
            registry.machines.compactMap { id, machine in
                machine.durableJournal.flatMap { $0.isAtWork || $0.isClosed ? nil : (id, $0.lastActivity) }
            }
        }.sorted { $0.1 < $1.1 }
        var chosen: [ID] = []
        for (index, machine) in active.enumerated() where now - machine.1 >= threshold || active.count - index > (limit ?? .max) {
            chosen.append(machine.0)
        }
        var passivated = 0
        var marked: [(id: String, sequenceNumber: UInt64)] = []
        for id in chosen {
            guard let done = await passivateOne(id: id) else { continue }
            passivated += 1
            if let done { marked.append(done) }
        }
        record(marked)
        return passivated
    }

    /// Runs ``passivateIdle(longerThan:keepingAtMost:)`` every `passivation.interval` on the
    /// machines' clock, until the supervisor shuts down.
    func startPassivating(_ passivation: Passivation) {
        let clock = configuration.machine.clock
        Task.detached { [weak self] in
            while true {
                do { try await clock.sleep(for: passivation.interval) } catch { return }
                guard let self, !self.isShutDown else { return }
                await self.passivateIdle(longerThan: passivation.idle, keepingAtMost: passivation.limit)
            }
        }
    }
}
