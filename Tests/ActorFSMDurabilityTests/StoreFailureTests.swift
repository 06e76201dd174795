import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

/// An in-memory store whose next write can be made to fail, as a full disk or a lost database
/// connection fails one.
final class FailingStore: WrappingStore {
    let kept = InMemoryStore()
    private let failing = Mutex(false)

    var inner: any MachineStore { kept }

    /// Fails the next write handed to the store.
    func failNextWrite() { failing.withLock { $0 = true } }

    func append(_ write: JournalWrite, completion: @escaping @Sendable (StoreError?) -> Void) {
        let fails = failing.withLock { failing in
            defer { failing = false }
            return failing
        }
        guard fails else { return kept.append(write, completion: completion) }
        // Never from within `append`, as the protocol promises.
        Task { completion(StoreError("the disk is full")) }
    }
}

@Suite(.timeLimit(.minutes(3))) struct StoreFailureTests {
    @Test func aSendWhoseWriteFailsThrowsAndTheMachineComesBackFromItsLastDurableState() async throws {
        let store = FailingStore()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        try await doors.activate(id: "a", data: Door.Data())
        try await doors.send(to: "a", .open)

        store.failNextWrite()
        let error = await #expect(throws: MachineError<Door>.self) { try await doors.send(to: "a", .close) }
        #expect(error?.kind == .notDurable)
        #expect(error.flatMap { $0.underlying.map { "\($0)" } }?.contains("the disk is full") == true)

        // The close is not durable: the next event finds the machine as the store has it, open.
        let record = try await doors.send(to: "a", .close)
        #expect(record.source == .open && record.target == .closed && record.sequenceNumber == 2)
        try await doors.send(to: "a", .open)
        let history = try await doorDurability(store).history(of: "a", schema: try doorSchema())
        #expect(history.map(\.event) == [nil, .open, .close, .open])
        #expect(history.map(\.sequenceNumber) == [0, 1, 2, 3])
        #expect(history.last?.data?.openings == 2)
        await doors.shutdown()
    }
}
