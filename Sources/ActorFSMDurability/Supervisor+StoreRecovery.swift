import ActorFSM

// A durable supervisor outlives an outage of its store: a machine whose write failed is
// restored from what the store holds once the store works again, without waiting for an event.

extension Supervisor {
    /// The journal of machine `id` for `key`, resuming from `recovery`, which tells the
    /// supervisor when a write fails.
    func journal(
        for id: ID, key: String, coding: DurableCoding<Definition>, recovery: Recovery<Definition>?
    ) -> MachineJournal<Definition> {
        MachineJournal(coding: coding, key: key, recovery: recovery, writeWatch: durableSupervision?.writeWatch,
                       onFailure: { [weak self] wroteBefore in
            // Told where the write failed, possibly under the registry's lock (a creation entry
            // written as the machine is registered): the supervisor hears of it from a task.
            guard let self else { return }
            Task { self.storeFailed(id: id, wroteBefore: wroteBefore) }
        })
    }

    /// A write of machine `id` failed: its state in memory is ahead of the store. It goes on in
    /// memory (its senders are told `.notDurable`) until the store answers again; then it is
    /// replaced by what the store holds. Not an action failure: no restart is counted.
    ///
    /// - Parameter wroteBefore: whether a completed entry of the machine was written since it
    ///   was made or restored (an intent does not count): then its restores in a row start over.
    func storeFailed(id: ID, wroteBefore: Bool) {
        registry.withLock { registry in
            guard !registry.isShutDown else { return }
            tracking { tracking in
                if wroteBefore { tracking.restoresInARow[id] = nil }
                tracking.awaitingStore.insert(id)
                startStoreRecovery(&tracking)
            }
        }
    }

    /// Starts the task that restores the machines awaiting the store, unless it runs.
    func startStoreRecovery(_ tracking: inout DurableSupervision<Definition>.Tracking) {
        guard tracking.storeRecovery == nil else { return }
        tracking.storeRecovery = Task.detached { [weak self] in await self?.restoreAfterOutage() }
    }

    /// Restores, in turn, every machine whose store failed, waiting longer after each pass that
    /// leaves any (from ``StoreRetry/initial`` doubling up to ``StoreRetry/maximum``, on the
    /// machines' clock), until none is left or the supervisor shuts down. A machine restored
    /// whose writes fail again is back in the set, and waits the longer delay: the wait starts
    /// over only once every machine writes again.
    func restoreAfterOutage() async {
        let clock = configuration.machine.clock
        var delay = StoreRetry.initial
        while true {
            let waiting = registry.withLock { registry -> [ID]? in
                tracking { tracking in
                    guard !registry.isShutDown, !tracking.awaitingStore.isEmpty else {
                        tracking.storeRecovery = nil
                        return nil
                    }
                    return Array(tracking.awaitingStore)
                }
            }
            guard let waiting else { return }
            for id in waiting {
                // Out of the set before the restore: a write of the restored machine that fails
                // puts it back.
                tracking { _ = $0.awaitingStore.remove(id) }
                do {
                    if try await restoreAfterStoreFailure(id: id) { settings.instrument?.machineRestoredFromStore(id) }
                } catch let error where Self.isLastWord(error) {
                    // Another process holds the machine now, or its entries cannot be read:
                    // trying again changes nothing.
                    settings.instrument?.storeUnavailable(for: id, error: error, retryingIn: nil)
                } catch {
                    registry.withLock { registry in
                        if !registry.isShutDown { tracking { _ = $0.awaitingStore.insert(id) } }
                    }
                    settings.instrument?.storeUnavailable(for: id, error: error, retryingIn: delay)
                    break
                }
            }
            guard tracking({ !$0.awaitingStore.isEmpty }) else { continue }
            do { try await clock.sleep(for: delay) } catch { return }
            delay = min(delay * 2, StoreRetry.maximum)
        }
    }

    /// Replaces machine `id`, if its journal has failed, with what the store holds, once the
    /// store answers: until then the machine goes on in memory.
    ///
    /// - Returns: whether it restored the machine (not if a send restored it first, the store
    ///   holds it in a final state, or it is parked; see ``admitsRestoreAfterFailure(_:)``).
    private func restoreAfterStoreFailure(id: ID) async throws -> Bool {
        guard let durable else { return false }
        if let stale = machine(id: id) {
            guard stale.durableJournal?.isClosed == true else { return false }
            if let failure = await storeRefuses(id, coding: durable) {
                throw DurabilityError(.storeFailed, machine: durable.key(id), detail: failure.message)
            }
            guard admitsRestoreAfterFailure(id) else { return false }
            await stale.stop()
            await stale.awaitEnd(cancellable: false)
            // The supervisor shut down meanwhile: the machine ended with it, and stays so.
            if isShutDown { return false }
            registry.withLock { _ = $0.core.remove(stale, from: id) }
        }
        return try await restore(id: id, data: nil, skippingFinal: true) != nil
    }

    /// The store's error if it does not answer a read of machine `id` yet; `nil` once it does.
    func storeRefuses(_ id: ID, coding: DurableCoding<Definition>) async -> StoreError? {
        do {
            _ = try await coding.durability.store.latestEntries(of: coding.key(id), count: 1)
            return nil
        } catch {
            return error
        }
    }

    /// Whether `error` will not go away by trying again.
    private static func isLastWord(_ error: any Error) -> Bool {
        let durability = (error as? MachineError<Definition>)?.underlying as? DurabilityError ?? error as? DurabilityError
        guard let kind = durability?.kind else { return false }
        return kind != .storeFailed
    }
}

/// How long a durable supervisor waits before it asks its store again after the store refused
/// to restore a machine whose write failed.
enum StoreRetry {
    /// The wait after the first refusal.
    static var initial: Duration { .milliseconds(100) }
    /// The longest wait: each refusal doubles the wait up to this.
    static var maximum: Duration { .seconds(5) }
}
