import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Glibc
import Testing
import PostgresTestSupport
import TestSupport

@Suite(needsPostgres, .timeLimit(.minutes(4))) struct PostgresStoreTests {
    @Test func aMachineComesBackFromTheDatabaseAfterTheStoreIsClosed() async throws {
        try await withPostgres { server in
            let store = try PostgresStore(url: server.url)
            let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(store))
            try await door.send(.open)
            try await door.send(.close)
            try await door.send(.open)
            store.close()

            let reopened = try PostgresStore(url: server.url)
            let again = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(reopened))
            #expect(await again.state == .open)
            #expect(await again.data.openings == 2)
            #expect(try await again.send(.close).sequenceNumber == 4)
            #expect(try await reopened.entries(of: "d").map(\.sequenceNumber) == [0, 1, 2, 3, 4])
            #expect(try await reopened.machineIDs() == ["d"])
            reopened.close()
        }
    }

    @Test func storesInTwoNamespacesOfOneDatabaseKeepTheirMachinesApart() async throws {
        try await withPostgres { server in
            let orders = try PostgresStore(url: server.url, node: "orders-node", namespace: "orders")
            let payments = try PostgresStore(url: server.url, node: "payments-node", namespace: "payments")
            let order = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(orders))
            try await order.send(.open)
            // The same id in the other namespace is another machine, with a lease of its own.
            let payment = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(payments))
            #expect(await payment.state == .closed)
            #expect(try await payment.send(.lock).sequenceNumber == 1)
            #expect(try await orders.entries(of: "d").map(\.sequenceNumber) == [0, 1])
            #expect(try await payments.entries(of: "d").map(\.sequenceNumber) == [0, 1])
            let plain = try PostgresStore(url: server.url)
            #expect(try await plain.machineIDs().isEmpty, "the default namespace holds neither")
            #expect(try await orders.integer("SELECT count(*) FROM actorfsm_nodes") == 1)
            orders.close()
            payments.close()
            plain.close()
            let reopened = try PostgresStore(url: server.url, namespace: "payments")
            let again = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(reopened))
            #expect(await again.state == .locked)
            reopened.close()
        }
    }

    @Test func aNamespaceThatIsNotASchemaNameIsRefusedBeforeConnecting() {
        for name in ["Orders", "9lives", "", "a-b", String(repeating: "x", count: 64), "x; DROP TABLE y"] {
            #expect(throws: StoreError.self) { try PostgresStore(url: "postgresql://nowhere.invalid/db", namespace: name) }
        }
    }

    @Test func compactionKeepsTheNewestEntriesAndRecoveryReadsThem() async throws {
        try await withPostgres { server in
            let store = try PostgresStore(url: server.url)
            let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(),
                                         durability: doorDurability(store, compactionInterval: 10))
            for _ in 0..<25 {
                try await door.send(.open)
                try await door.send(.close)
            }
            #expect(try await store.entries(of: "d").map(\.sequenceNumber) == [50])
            store.close()
            let reopened = try PostgresStore(url: server.url)
            let again = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(),
                                          durability: doorDurability(reopened, compactionInterval: 10))
            #expect(await again.data.openings == 25)
            reopened.close()
        }
    }

    @Test func manyMachinesCommitTogetherAndASupervisorRestoresThemAll() async throws {
        try await withPostgres { server in
            let store = try PostgresStore(url: server.url)
            let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(store))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await doors.activate(id: "door-\(index)", data: Door.Data())
                        try await doors.send(to: "door-\(index)", .open)
                        if index.isMultiple(of: 2) { try await doors.send(to: "door-\(index)", .close) }
                    }
                }
                try await group.waitForAll()
            }
            await doors.shutdown()
            store.close()

            let reopened = try PostgresStore(url: server.url)
            let again = try Supervisor(schema: try doorSchema(), durability: doorDurability(reopened))
            #expect(try await again.restoreAll().restored == 200)
            #expect(await again.machine(id: "door-2")?.state == .closed)
            #expect(await again.machine(id: "door-3")?.state == .open)
            #expect(try await reopened.machineIDs().count == 200)
            await again.shutdown()
            reopened.close()
        }
    }

    @Test func aMachineAnotherLiveProcessHoldsIsNotRestoredHere() async throws {
        try await withPostgres(heldByAnotherLiveProcess)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func heldByAnotherLiveProcess(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first")
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(first))
        try await door.send(.open)

        let second = try PostgresStore(url: server.url, node: "second")
        let error = await #expect(throws: MachineError<Door>.self) {
            _ = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(second))
        }?.underlying as? DurabilityError
        #expect(error?.kind == .heldElsewhere)
        #expect(error?.description.contains("another live process holds its lease") == true)
        // The holder goes on writing.
        #expect(try await door.send(.close).sequenceNumber == 2)

        // Once the first closes, its leases are free at once.
        first.close()
        let taken = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(second))
        #expect(await taken.state == .closed)
        #expect(try await taken.send(.open).sequenceNumber == 3)
        second.close()
    }

    @Test func aMachineAskedForButNotRestoredIsLeftFreeForOthers() async throws {
        try await withPostgres { server in
            let first = try PostgresStore(url: server.url, node: "first")
            let asking = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
            // Nothing is stored under "new": the send claims its lease, finds nothing, gives it up.
            let error = await #expect(throws: MachineError<Door>.self) { try await asking.send(to: "new", .open) }
            #expect(error?.kind == .unknownMachine)

            let second = try PostgresStore(url: server.url, node: "second")
            let making = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
            try await making.activate(id: "new", data: Door.Data())
            #expect(try await making.send(to: "new", .open).sequenceNumber == 1)
            await asking.shutdown()
            await making.shutdown()
            first.close()
            second.close()
        }
    }

    @Test func aNodeNeedsANameAndASensibleLeaseDuration() {
        #expect(throws: StoreError.self) { _ = try PostgresStore(url: "host=/nonexistent", node: "") }
        let error = #expect(throws: StoreError.self) {
            _ = try PostgresStore(url: "host=/nonexistent", leaseDuration: .milliseconds(10))
        }
        #expect(error?.description.contains("out of range") == true)
    }

    @Test func aProcessWhoseLeaseWasTakenOverHasItsLateWritesRejected() async throws {
        try await withPostgres(lateWritesAfterTakeover)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func lateWritesAfterTakeover(on server: TemporaryPostgres) async throws {
        let paused = try PostgresStore(url: server.url, node: "paused")
        let stale = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(paused))
        try await stale.send(.open)
        // The process stops renewing (a long pause) and its time runs out.
        paused.pause()
        try await paused.expireNode()

        let successor = try PostgresStore(url: server.url, node: "successor")
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(successor))
        #expect(await door.data.openings == 1)
        try await door.send(.close)

        // The paused process wakes up and writes: rejected, not interleaved.
        let error = await #expect(throws: MachineError<Door>.self) { try await stale.send(.close) }
        #expect(error?.kind == .notDurable)
        let cause = error?.underlying as? StoreError
        #expect(cause?.isFenced == true)
        #expect(cause?.description.contains("taken over by another process") == true)

        try await door.send(.open)
        let entries = try await successor.entries(of: "d")
        #expect(entries.map(\.sequenceNumber) == [0, 1, 2, 3])
        let history = try await doorDurability(successor).history(of: "d", schema: try doorSchema())
        #expect(history.map(\.event) == [nil, .open, .close, .open])
        // The rejected write changed no summary either.
        let problems = await SummaryAudit.disagreements(in: successor)
        #expect(problems.isEmpty, "\(problems)")
        let summary = try await successor.machine("d")
        #expect(summary?.sequenceNumber == 3)
        paused.close()
        successor.close()
    }

    @Test func aSecondLiveProcessWithTheSameNodeNameIsRefused() async throws {
        try await withPostgres { server in
            let first = try PostgresStore(url: server.url, node: "twin")
            let error = #expect(throws: StoreError.self) { try PostgresStore(url: server.url, node: "twin") }
            #expect(error?.message.contains("the node name twin is taken by a live process") == true)
            #expect(error?.message.contains("pid \(getpid()) #") == true)
            // Closed, the first gives the name up at once.
            first.close()
            let second = try PostgresStore(url: server.url, node: "twin")
            second.close()
        }
    }

    @Test func aProcessWhoseNameWasTakenDuringAPauseClaimsAndWritesNothingMore() async throws {
        try await withPostgres(nameTakenDuringAPause)
    }

    /// The body of the test above.
    private func nameTakenDuringAPause(on server: TemporaryPostgres) async throws {
        let paused = try PostgresStore(url: server.url, node: "twin")
        let stale = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(paused))
        try await stale.send(.open)
        paused.pause()
        try await paused.expireNode()

        // Another process takes the name once the first one's life has run out, and the machine.
        let successor = try PostgresStore(url: server.url, node: "twin")
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(successor))
        try await door.send(.close)

        // The paused process wakes up: its renewal finds the name taken, and it neither writes
        // nor takes a lease back under the shared name.
        try await paused.renewNow()
        let late = await #expect(throws: MachineError<Door>.self) { try await stale.send(.close) }
        #expect((late?.underlying as? StoreError)?.message.contains("the node name twin is taken") == true)
        await #expect(throws: (any Error).self) {
            _ = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(paused))
        }
        // Nor does a supervisor on it reach the machine, by claim or by forwarding.
        let stalePeers = try Supervisor(schema: try doorSchema(), durability: doorDurability(paused))
        await #expect(throws: MachineError<Door>.self) { try await stalePeers.send(to: "d", .close) }
        await stalePeers.shutdown()
        try await door.send(.open)
        let history = try await doorDurability(successor).history(of: "d", schema: try doorSchema())
        #expect(history.map(\.event) == [nil, .open, .close, .open])
        #expect(try await successor.integer("SELECT count(*) FROM actorfsm_nodes WHERE node = 'twin' AND expires_at > now()") == 1)
        paused.close()
        successor.close()
    }

    @Test func aProcessFencedOffAMachineCannotMarkItPassivated() async throws {
        try await withPostgres(passivationMarksUnderTheLease)
    }

    /// The body of the test above.
    private func passivationMarksUnderTheLease(on server: TemporaryPostgres) async throws {
        let paused = try PostgresStore(url: server.url, node: "paused")
        let stale = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(paused))
        let kept = try await Machine(schema: try doorSchema(), id: "e", data: Door.Data(), durability: doorDurability(paused))
        try await stale.send(.open)
        try await kept.send(.open)
        paused.pause()
        try await paused.expireNode()
        let successor = try PostgresStore(url: server.url, node: "successor")
        let door = try await Machine(schema: try doorSchema(), id: "d", data: Door.Data(), durability: doorDurability(successor))
        try await door.send(.close)

        // The paused process marks both at their newest entries: only the one it still holds is marked.
        let newest = try #require(try await successor.machine("d")).sequenceNumber
        paused.recordPassivated([(id: "d", sequenceNumber: newest), (id: "e", sequenceNumber: 1)])
        // A read through the paused store's thread runs after the mark.
        _ = try await paused.integer("SELECT 1")
        #expect(try await successor.machine("d")?.summary.status == .running)
        #expect(try await successor.machine("e")?.summary.status == .passivated)
        paused.close()
        successor.close()
    }

    @Test func aWrongAddressSaysWhereItTriedToConnectWithoutThePassword() {
        let error = #expect(throws: StoreError.self) {
            _ = try PostgresStore(url: "postgresql://someone:secret@/nowhere?host=/nonexistent-folder")
        }
        #expect(error?.description.contains("could not connect to PostgreSQL at ") == true)
        #expect(error?.description.contains("user=someone") == true)
        #expect(error?.description.contains("secret") == false)
        let spaced = #expect(throws: StoreError.self) {
            _ = try PostgresStore(url: "host=/nonexistent-folder user=someone password = 'a secret'")
        }
        #expect(spaced?.description.contains("secret") == false)
    }

    /// Processes that start while another writes and forwards find the tables made: they take
    /// no lock on them, so none of them ends in a deadlock with the writer's statements.
    @Test func processesStartingWhileAnotherWritesWaitForNoLock() async throws {
        try await withPostgres(startWhileWriting)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func startWhileWriting(on server: TemporaryPostgres) async throws {
        let writer = try PostgresStore(url: server.url, node: "writer")
        let doors = try Supervisor(schema: try doorSchema(), durability: doorDurability(writer))
        let ids = (0..<50).map { "d\($0)" }
        for id in ids { try await doors.activate(id: id, data: Door.Data()) }
        let writing = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids {
                    group.addTask {
                        for step in 0..<40 { try await doors.send(to: id, step % 2 == 0 ? .open : .close) }
                    }
                }
                try await group.waitForAll()
            }
        }
        for index in 0..<20 {
            let starting = try PostgresStore(url: server.url, node: "starting-\(index)")
            starting.close()
        }
        try await writing.value
        #expect(try await writer.integer("SELECT count(*) FROM actorfsm_journal") == Int64(ids.count * 41))
        await doors.shutdown()
        writer.close()
    }
}
