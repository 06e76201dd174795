import ActorFSMDurability

/// A store that hands every operation to `inner`, for tests that change one or two of them (a
/// write that fails, a claim refused) and keep the rest.
package protocol WrappingStore: MachineStore {
    /// The store that does the work.
    var inner: any MachineStore { get }
}

extension WrappingStore {
    package var codec: any DurableCodec { inner.codec }

    package func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        inner.append(write, completion: completion)
    }

    package func latestEntries(of machine: String, count: Int) async throws(StoreError) -> [JournalEntry] {
        try await inner.latestEntries(of: machine, count: count)
    }

    package func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try await inner.entries(of: machine)
    }

    package func machineIDs() async throws(StoreError) -> [String] {
        try await inner.machineIDs()
    }

    package func claim(_ machines: [String]) async throws(StoreError) -> [String] {
        try await inner.claim(machines)
    }

    package func release(_ machines: [String]) async {
        await inner.release(machines)
    }
}
