// Child machines, from the child's side: the supervisor keeps each parent's watch under its
// child's id, and hands the child's end over once, when it reaches a final state (durable
// first, for a durable child) or ends for good without one.

import Synchronization

extension Supervisor {
    /// Starts machine `id` as a child that owns `data` (in memory), or links the machine
    /// running or stored under `id` (durable), and keeps `watch` until its end.
    @inlinable
    func startChild(_ id: ID, data: Definition.Data, watch: ChildWatch<Definition>) {
        flags.hasChildMachines.store(true, ordering: .releasing)
        let start = registry.withLock { registry -> ChildStart in
            if registry.isShutDown { return .refused(shutDownError(id, escalated: registry.core.escalation)) }
            if registry.watches[id] != nil { return .refused(MachineError(.duplicateMachine, machineID: id)) }
            registry.watches[id] = watch
            if journaling != nil { return .durable }
            if let running = registry.machines[id] { return .linked(running) }
            _ = makeMachine(id: id, data: data, startingIn: nil, in: &registry)
            return .made
        }
        switch start {
        case .made:
            return
        case .refused(let error):
            // A durable child's supervisor that has ended leaves the parent waiting: restored,
            // the parent links the child again.
            if journaling == nil || error.kind != .stopped { watch.ended(error) }
        case .linked(let machine):
            Task { await self.handOverIfFinal(machine) }
        case .durable:
            guard let journaling else { return }
            Task { await self.linkDurableChild(id, data: data, watch: watch, through: journaling) }
        }
    }

    /// Links durable child `id` (running, restored or new) to `watch`. While the store fails, or
    /// another process holds the child (whose end is then read from the store), it tries again,
    /// at intervals that double from 5 ms up to a second on the supervisor's clock; once the
    /// supervisor ends, the parent is left waiting, to link the child again when it is restored.
    @usableFromInline func linkDurableChild(
        _ id: ID, data: Definition.Data, watch: ChildWatch<Definition>, through journaling: any SupervisorJournaling<Definition>
    ) async {
        var delay = Duration.milliseconds(5)
        while isWatching(id, watch) && !isShutDown {
            do throws(MachineError<Definition>) {
                let child = try await journaling.activate(id, data: data, of: self)
                // The parent let go while the child was being made: its cancellation may have
                // found no child yet, so it is sent again.
                if !watch.isWanted, let cancelling = watch.cancelling {
                    return await deliverCancelling(cancelling, to: id, settled: nil)
                }
                return await handOverIfFinal(child)
            } catch where journaling.isHeldElsewhere(error) {
                // Another process holds the child: its end is read from the store. That process
                // may die before it writes the child's first entry, leaving a lease that no
                // takeover restores, so the child is claimed again between reads.
                if let (state, data) = await journaling.storedEnd(of: id, of: self) {
                    if takeWatch(id, watch) { watch.reached(state, data) }
                    return
                }
                do { try await configuration.machine.clock.sleep(for: delay) } catch { return }
                delay = min(delay * 2, .seconds(1))
            } catch where journaling.isStoreUnavailable(error) {
                do { try await configuration.machine.clock.sleep(for: delay) } catch { return }
                delay = min(delay * 2, .seconds(1))
            } catch where error.kind == .stopped {
                return
            } catch {
                if takeWatch(id, watch) { watch.ended(error) }
                return
            }
        }
    }

    /// What starting a child found.
    @usableFromInline enum ChildStart {
        case made, linked(Machine<Definition>), durable, refused(MachineError<Definition>)
    }

    /// The parent of child `id` left the state, or ended: it no longer waits for the child's
    /// end. A child that has not ended is sent `cancelling`; in memory it then stops, while a
    /// durable one runs on (to a final state, if `cancelling` takes it there). A child in memory
    /// whose end was handed over has stopped by itself.
    ///
    /// - Returns: whether `cancelling` is on its way to a durable child; `settled` is called
    ///   once it has arrived (or cannot).
    @usableFromInline func leaveChild(
        _ id: ID, _ watch: ChildWatch<Definition>, cancelling: Event?, settled: (@Sendable () -> Void)? = nil
    ) -> Bool {
        let (watching, machine) = registry.withLock { registry -> (Bool, Machine<Definition>?) in
            watch.release()
            guard registry.watches[id] === watch else { return (false, nil) }
            registry.watches[id] = nil
            return (true, journaling == nil ? registry.core.removeMachine(at: id) : nil)
        }
        if let machine {
            Task {
                if let cancelling { _ = try? await machine.send(cancelling) }
                await machine.stop()
                // It left the registry at once, so that its id is free for a new child.
                self.publish(.terminated(id: id, .stopped))
            }
            return false
        }
        guard watching, let cancelling else { return false }
        Task { await self.deliverCancelling(cancelling, to: id, settled: settled) }
        return true
    }

    /// Sends the durable child stored under `key` its `cancelling` event, for a restored parent
    /// that had left the state before the child had it.
    @usableFromInline func cancelChild(key: String, cancelling: Event?, settled: @escaping @Sendable () -> Void) {
        guard let cancelling, let id = journaling?.id(forKey: key) else { return settled() }
        Task { await self.deliverCancelling(cancelling, to: id, settled: settled) }
    }

    /// Sends `cancelling` to durable child `id` wherever it is, and calls `settled` once it has
    /// had it, or cannot: not when the store failed or the supervisor stops, so that the
    /// parent's entries keep the cancellation for its next restore.
    func deliverCancelling(_ cancelling: Event, to id: ID, settled: (@Sendable () -> Void)?) async {
        do {
            _ = try await send(to: id, cancelling)
        } catch where error.kind == .notDurable || error.kind == .stopped || error.kind == .paused {
            // A paused child has not had it: the parent's entries keep it, to send it again.
            return
        } catch {}
        settled?()
    }

    /// The parent of durable child `id` ended while in the state: the child runs on, and the
    /// parent, restored, links it again.
    @usableFromInline func unlinkChild(_ id: ID, _ watch: ChildWatch<Definition>) {
        registry.withLock { registry in
            watch.release()
            if registry.watches[id] === watch { registry.watches[id] = nil }
        }
    }

    /// Whether `watch` still waits for child `id`.
    func isWatching(_ id: ID, _ watch: ChildWatch<Definition>) -> Bool {
        registry.withLock { $0.watches[id] === watch }
    }

    /// Takes `watch` out of the registry if it is still there: whoever takes it hands the end over.
    func takeWatch(_ id: ID, _ watch: ChildWatch<Definition>) -> Bool {
        registry.withLock { registry in
            guard registry.watches[id] === watch else { return false }
            registry.watches[id] = nil
            return true
        }
    }

    /// Hands `machine`'s end over now if it is already in a final state: linked after it got
    /// there, it will not report it.
    @usableFromInline func handOverIfFinal(_ machine: Machine<Definition>) async {
        let state = await machine.state
        guard schema.finalStates.contains(state) else { return }
        childReachedFinal(machine, state, data: await machine.data)
    }

    /// Called by `machine` when it completed a transition into the final `state`: its parent,
    /// if it has one, hears of it once; a durable child's once its entry is durable.
    ///
    /// - Returns: whether `machine` is a child in memory whose end was handed over, which then
    ///   stops.
    @discardableResult
    func childReachedFinal(_ machine: Machine<Definition>, _ state: State, data: Definition.Data) -> Bool {
        let id = machine.id
        let taken = registry.withLock { registry -> ChildWatch<Definition>? in
            guard registry.machines[id] === machine, let watch = registry.watches.removeValue(forKey: id) else { return nil }
            // In memory it leaves at once, so that a new child can take its id.
            if machine.journal == nil { _ = registry.core.remove(machine, from: id) }
            return watch
        }
        guard let watch = taken else { return false }
        guard let journal = machine.journal else {
            watch.reached(state, data)
            publish(.terminated(id: id, .stopped))
            return true
        }
        let index = journal.newestWrite
        Task {
            if await journal.waitForWrite(index) == nil { return watch.reached(state, data) }
            // Not durable: the child comes back from the store as it was before the transition,
            // and reaches its final state again, for its parent if it still waits. One that let
            // go meanwhile found nothing to cancel: it is cancelled now.
            let cancel = self.registry.withLock { registry -> Bool in
                guard watch.isWanted else { return true }
                if registry.watches[id] == nil { registry.watches[id] = watch }
                return false
            }
            if cancel, let cancelling = watch.cancelling { await self.deliverCancelling(cancelling, to: id, settled: nil) }
        }
        return false
    }

    /// Machine `id` ended without reaching a final state: its parent, if it has one, hears of
    /// it if that is for good. A durable child that stops, is passivated, whose store failed
    /// (`livesOnInStore`) or whose supervisor escalates or ends (likewise) lives on in the
    /// store, so its parent keeps waiting (and links it again once restored); in memory, the
    /// escalated child's parent hears of its failure.
    func childEnded(_ id: ID, _ termination: MachineTermination, livesOnInStore: Bool) {
        guard flags.hasChildMachines.load(ordering: .acquiring) else { return }
        let error: any Error
        switch termination {
        case .failed(let failure) where journaling == nil || !livesOnInStore:
            error = failure
        case .failed, .shutDown, .stopped:
            guard journaling == nil else { return }
            error = ChildMachineEnded(machine: "\(id)", termination: termination.description)
        }
        guard let watch = registry.withLock({ $0.watches.removeValue(forKey: id) }) else { return }
        watch.ended(error)
    }

    /// The supervisor ended: the parents of its children in memory hear that they ended.
    /// Durable children live on in the store.
    func endChildren() {
        guard flags.hasChildMachines.load(ordering: .acquiring), journaling == nil else { return }
        let watches = registry.withLock { registry in
            defer { registry.watches = [:] }
            return registry.watches
        }
        for (id, watch) in watches {
            watch.ended(ChildMachineEnded(machine: "\(id)", termination: "its supervisor shut down"))
        }
    }
}
