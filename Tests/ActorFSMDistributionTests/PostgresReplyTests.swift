import ActorFSM
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMTesting
import Testing
import PostgresTestSupport
import TestSupport

/// Replies to forwarded sends: the holder writes each in the commit that records its event,
/// and the database keeps it only until the sender has taken it.
@Suite(needsPostgres, .timeLimit(.minutes(2))) struct PostgresReplyTests {
    @Test func eachReplyComesWithItsEntryAndIsRemovedOnceTaken() async throws {
        try await withPostgres(repliesTakenAndRemoved)
    }

    /// The body of the test above, a function: it type-checks faster than a long closure.
    private func repliesTakenAndRemoved(on server: TemporaryPostgres) async throws {
        let first = try PostgresStore(url: server.url, node: "first")
        let mine = try Supervisor(schema: try doorSchema(), durability: doorDurability(first))
        try await mine.activate(id: "a", data: Door.Data())
        let second = try PostgresStore(url: server.url, node: "second")
        let theirs = try Supervisor(schema: try doorSchema(), durability: doorDurability(second))
        var numbers: [UInt64] = []
        for round in 1...20 {
            numbers.append(try await theirs.send(to: "a", round.isMultiple(of: 2) ? .close : .open).sequenceNumber)
        }
        #expect(numbers == Array(1...20))
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_inbox") == 0)
        // The sender took each reply from its notification; its next send removes their rows.
        #expect(try await theirs.send(to: "a", .kick).sequenceNumber == 21)
        #expect(try await first.integer("SELECT count(*) FROM actorfsm_replies") <= 1)
        #expect(await mine.machine(id: "a")?.data.openings == 10)
        await mine.shutdown()
        await theirs.shutdown()
        first.close()
        second.close()
    }
}
