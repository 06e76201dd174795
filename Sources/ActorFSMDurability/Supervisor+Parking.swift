import ActorFSM

// Parking: a machine whose store reads but keeps refusing its writes (a full disk) is restored
// a bounded number of times in a row, since each restore processes its interrupted event again;
// then it waits, with nothing run, until the store accepts a write again or it is resumed.

extension Supervisor {
    /// The machines parked after their writes kept failing while the store read: each waits,
    /// with no action run, for the next completed entry the store accepts or
    /// ``resumeParkedMachines()``.
    public var parkedMachines: [ID] {
        guard durable != nil else { return [] }
        return tracking { Array($0.parked) }
    }

    /// Hands the parked machines back to the supervisor's recovery, which restores each (so
    /// each processes its interrupted event again) at its next pass, and starts every machine's
    /// count of restores in a row over: for a store mended while no other machine writes. The
    /// first completed entry the store accepts does the same by itself.
    public func resumeParkedMachines() {
        guard durable != nil else { return }
        registry.withLock { registry in
            guard !registry.isShutDown else { return }
            tracking { tracking in
                tracking.restoresInARow = [:]
                guard !tracking.parked.isEmpty else { return }
                tracking.awaitingStore.formUnion(tracking.parked)
                tracking.parked = []
                startStoreRecovery(&tracking)
            }
        }
    }

    /// Whether machine `id`, whose write failed and whose store reads again, may be restored from
    /// the store now, counting the restore if so. Not if it is parked, nor if it was restored
    /// ``Durability/restoresBeforeParking`` times in a row with no completed entry written since:
    /// then it is parked now, and reported. Either way the supervisor watches for the store's
    /// next completed entry, which starts the counts over and resumes the parked machines.
    func admitsRestoreAfterFailure(_ id: ID) -> Bool {
        guard let durable else { return true }
        let limit = max(1, durable.durability.restoresBeforeParking)
        let parked = tracking { tracking -> Bool? in
            if tracking.parked.contains(id) { return nil }
            let restores = tracking.restoresInARow[id, default: 0]
            guard restores >= limit else {
                tracking.restoresInARow[id] = restores + 1
                return false
            }
            tracking.parked.insert(id)
            return true
        }
        guard let parked else { return false }
        durableSupervision?.writeWatch.arm { [weak self] in self?.resumeParkedMachines() }
        if parked { settings.instrument?.machineParked(id, afterRestores: limit) }
        return !parked
    }

    /// Forgets that machine `id` was parked or restored in a row: it left memory (stopped, say),
    /// and a send now restores it as any machine the store holds.
    func forgetParking(of id: ID) {
        guard durable != nil else { return }
        tracking { tracking in
            tracking.parked.remove(id)
            tracking.restoresInARow[id] = nil
        }
    }
}
