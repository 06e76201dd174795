// Making a supervisor's machines: each gets the shared link to the supervisor and a generation
// of its own, so that a report from a machine already replaced is recognised.

extension Supervisor {
    /// Makes a machine under `id` and registers it. A durable supervisor's machine writes to
    /// the store, and a restarted one resumes from `point`, its predecessor's newest entry.
    func makeMachine(
        id: ID, data: Definition.Data, startingIn state: State?, in registry: inout Registry,
        resuming point: RestorePoint<Definition>? = nil
    ) -> Child {
        let (link, generation) = nextGeneration(&registry)
        let machine: Child
        if let durable {
            let key = durable.key(id)
            let recovery = point.map { Recovery.resuming($0, coding: durable, schema: schema, key: key) }
            machine = Child(schema: schema, id: id, data: data, startingIn: state, settings: settings, link: link,
                            generation: generation, journal: MachineJournal(coding: durable, key: key, restored: point),
                            recovery: recovery)
        } else {
            machine = Child(schema: schema, id: id, data: data, startingIn: state, settings: settings, link: link,
                            generation: generation)
        }
        registry.machines[id] = machine
        return machine
    }

    /// The link every machine shares, and the next machine's generation.
    func nextGeneration(_ registry: inout Registry) -> (ParentLink<Definition>, UInt64) {
        registry.generation += 1
        let link = registry.link ?? ParentLink(
            flags: flags, recorded: { [weak self] in self?.machineRecorded($0) },
            stopped: { [weak self] in self?.machineStopped(id: $0, generation: $1, $2) })
        registry.link = link
        return (link, registry.generation)
    }
}
