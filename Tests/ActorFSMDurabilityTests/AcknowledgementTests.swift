import ActorFSM
import ActorFSMDurability
import ActorFSMTesting
import Synchronization
import Testing
import TestSupport

// Three minutes: these tests make thousands of hops between tasks, and under the thread
// sanitizer each hop waits behind the load tests' queued jobs on the same two threads.
@Suite(.timeLimit(.minutes(6))) struct AcknowledgementTests {
    @Test func aDurableSendReturnsOnlyOnceItsTransitionIsCommitted() async throws {
        let store = InMemoryStore()
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
        var records = await door.records().makeAsyncIterator()
        store.holdCommits()
        let answered = Atomic<Bool>(false)
        let sending = Task {
            try await door.send(.open)
            answered.store(true, ordering: .releasing)
        }
        #expect(await records.next()?.target == .open)   // processed in memory
        let answeredEarly = answered.load(ordering: .acquiring)
        #expect(!answeredEarly)   // but not durable, so not answered
        store.releaseCommits()
        try await sending.value
        #expect(try await store.entries(of: "d").map(\.sequenceNumber) == [0, 1])
    }

    @Test func fireAndForgetAnswersAtOnceWithinItsWindow() async throws {
        let store = InMemoryStore()
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(),
                                     durability: doorDurability(store, acknowledgement: .fireAndForget(window: 2)))
        var records = await door.records().makeAsyncIterator()
        _ = try await store.entries(of: "d")   // returns once the creation entry is committed
        store.holdCommits()
        try await door.send(.open)
        try await door.send(.close)
        let answered = Atomic<Bool>(false)
        let third = Task {
            try await door.send(.open)
            answered.store(true, ordering: .releasing)
        }
        for _ in 0..<3 { _ = await records.next() }
        let answeredEarly = answered.load(ordering: .acquiring)
        #expect(!answeredEarly)   // two writes in flight: the window is full
        store.releaseCommits()
        try await third.value
        #expect(await door.data.openings == 2)
    }

    @Test func aStoreThatFailsTurnsSendsIntoNotDurableErrors() async throws {
        let store = InMemoryStore()
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
        _ = store.crash()
        let error = await #expect(throws: MachineError<Door>.self) { try await door.send(.open) }
        #expect(error?.kind == .notDurable)
        #expect(error?.record?.target == .open)
        #expect(error?.underlying is StoreError)
    }

    @Test func concurrentTransitionsOfManyMachinesShareCommits() async throws {
        let store = InMemoryStore(commitDelay: .milliseconds(20))
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        for id in 0..<50 { try await doors.activate(id: "\(id)", data: Door.Data()) }
        let commitsBefore = store.commitCount
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<50 { group.addTask { try await doors.send(to: "\(id)", .open) } }
            try await group.waitForAll()
        }
        #expect(try await store.machineIDs().count == 50)
        let commits = store.commitCount - commitsBefore
        #expect(commits < 10, "50 writes took \(commits) commits")
        await doors.shutdown()
    }

    @Test func machinesInMemoryKeepWorkingWhileTheDiskIsStuck() async throws {
        let store = InMemoryStore()
        store.holdCommits()
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
        let waiting = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 0..<100 {
                    group.addTask {
                        try await doors.activate(id: "\(id)", data: Door.Data())
                        try await doors.send(to: "\(id)", .open)
                    }
                }
                try await group.waitForAll()
            }
        }
        let counter = Machine(schema: try doorSchema(), id: "in memory", data: Door.Data())
        for _ in 0..<5_000 {
            try await counter.send(.open)
            try await counter.send(.close)
        }
        #expect(await counter.data.openings == 5_000)
        store.releaseCommits()
        try await waiting.value
        await doors.shutdown()
    }
}
