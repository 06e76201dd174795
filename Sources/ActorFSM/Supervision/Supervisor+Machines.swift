// Making a supervisor's machines: each gets the shared link to the supervisor and a generation
// of its own, so that a report from a machine already replaced is recognised.

extension Supervisor {
    /// Makes a machine under `id` and registers it. A durable supervisor's machine writes to
    /// the store, and a restarted one resumes from its `predecessor`'s newest entry. (A class
    /// reference, not the entry: the spawn path, not specialized for the machine's types, then
    /// passes a null pointer rather than a generic value whose layout it must look up.)
    @inlinable func makeMachine(
        id: ID, data: Definition.Data, startingIn state: State?, in registry: inout Registry,
        resuming predecessor: (any MachineJournaling<Definition>)? = nil
    ) -> Machine<Definition> {
        make(id: id, data: data, startingIn: state, in: &registry,
             journal: journaling?.journal(for: id, resuming: predecessor, of: self))
    }

    /// Makes a machine under `id` that writes to `journal` (and resumes from its resumption,
    /// if it has one), and registers it: how a durable supervisor brings back a machine its
    /// store holds.
    package func makeMachine(
        id: ID, data: Definition.Data, in registry: inout Registry, journal: any MachineJournaling<Definition>
    ) -> Machine<Definition> {
        make(id: id, data: data, startingIn: nil, in: &registry, journal: journal)
    }

    @inlinable func make(
        id: ID, data: Definition.Data, startingIn state: State?, in registry: inout Registry,
        journal: (any MachineJournaling<Definition>)?
    ) -> Machine<Definition> {
        let link = sharedLink(&registry)
        let machine = Machine<Definition>(schema: schema, id: id, data: data, startingIn: state, settings: settings, link: link,
                            generation: registry.core.nextGeneration(), journal: journal)
        registry.core.register(machine, as: id)
        return machine
    }

    /// The link every machine shares, made with the first machine.
    @usableFromInline func sharedLink(_ registry: inout Registry) -> ParentLink<Definition> {
        let link = registry.link ?? ParentLink(
            flags: flags, recorded: { [weak self] in self?.machineRecorded($0) },
            stopped: { [weak self] in self?.machineStopped(id: $0, generation: $1, $2) },
            reachedFinal: { [weak self] in self?.childReachedFinal($0, $1, data: $2) ?? false })
        registry.link = link
        return link
    }
}
