import ActorFSM
import ActorFSMDurability
import ActorFSMInspector
import ActorFSMSQLite
import Foundation
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct InspectorTests {
    /// The shop's store, read by a reader beside its writer, served by an inspector.
    struct Served {
        let shop: ShopStore
        let reader: SQLiteReader
        let server: RunningInspector

        static func start() async throws -> Served {
            let shop = try await ShopStore()
            let reader = try SQLiteReader(path: shop.path)
            let server = try await RunningInspector(Inspector(store: reader, title: "Shop"))
            return Served(shop: shop, reader: reader, server: server)
        }

        func stop() async {
            await server.stop()
            reader.close()
            await shop.close()
        }
    }

    @Test func theOverviewNamesTheSchemaAndCountsEachState() async throws {
        let served = try await Served.start()
        let overview = try await served.server.json("api/overview")
        #expect(overview["title"] as? String == "Shop")
        let schemas = try #require(overview["schemas"] as? [[String: Any]])
        let names: [String] = schemas.compactMap { $0["name"] as? String }
        #expect(names == ["Shop"])
        let states = try #require(schemas.first?["states"] as? [String])
        #expect(states == ["placed", "payment pending", "cancelled", "paid", "expired", "shipped"])
        let counts = try #require(overview["counts"] as? [[String: Any]])
        var byState: [String: Int] = [:]
        for count in counts { byState[count["state"] as? String ?? "?"] = count["count"] as? Int }
        #expect(byState == ["placed": 1, "payment pending": 3, "shipped": 1, "cancelled": 2])
        await served.stop()
    }

    /// Bound to the loopback address, the inspector answers only to its names: a page of
    /// another site that a DNS rebinding points at 127.0.0.1 is refused.
    @Test func aRequestNamingAnotherHostIsRefused() async throws {
        let served = try await Served.start()
        let port = served.server.port
        #expect(try await served.server.get("", host: "attacker.example").status == 403)
        #expect(try await served.server.get("api/overview", host: "attacker.example:\(port)").status == 403)
        #expect(try await served.server.get("api/overview", host: "127.0.0.1.attacker.example").status == 403)
        #expect(try await served.server.get("api/overview", host: "localhost:\(port)").status == 200)
        #expect(try await served.server.get("api/overview").status == 200)
        await served.stop()
    }

    @Test func theDiagramCarriesTheCountOnEachState() async throws {
        let served = try await Served.start()
        let fingerprint = try #require(try await served.reader.storedSchemas().first?.fingerprint)
        let (status, svg) = try await served.server.get("api/diagram.svg?fingerprint=\(fingerprint)")
        #expect(status == 200)
        #expect(svg.hasPrefix("<svg"))
        let paymentPending = try #require(svg.range(of: "data-state=\"payment pending\">"))
        let count = try #require(svg.range(of: "class=\"count\"", range: paymentPending.upperBound..<svg.endIndex))
        let closing = try #require(svg.range(of: "</text>", range: count.upperBound..<svg.endIndex))
        #expect(svg[count.upperBound..<closing.lowerBound].hasSuffix(">3"))
        #expect(svg.contains("class=\"state final occupied\" data-state=\"shipped\""))
        let (missing, body) = try await served.server.get("api/diagram.svg?fingerprint=0000000000000000")
        #expect(missing == 404)
        #expect(body.contains("no schema with fingerprint 0000000000000000"))
        await served.stop()
    }

    @Test func theListFiltersByStateStatusAndAgeAndPages() async throws {
        let served = try await Served.start()
        let waiting = try await served.server.json("api/machines?state=payment%20pending&status=waiting")
        let waitingIDs = try Self.ids(waiting)
        #expect(waitingIDs.sorted() == ["o-2", "o-3"])
        let failed = try Self.ids(try await served.server.json("api/machines?status=failed"))
        #expect(failed == ["o-5"])
        let idleAnHour = try Self.ids(try await served.server.json("api/machines?olderThan=3600"))
        #expect(idleAnHour.isEmpty)
        let idleAtAll = try Self.ids(try await served.server.json("api/machines?olderThan=0"))
        #expect(idleAtAll.count == 7)
        let fingerprint = try #require(try await served.reader.storedSchemas().first?.fingerprint)
        let ofTheSchema = try Self.ids(try await served.server.json("api/machines?fingerprint=\(fingerprint)&version=1"))
        #expect(ofTheSchema.count == 7)
        let ofAnotherVersion = try Self.ids(try await served.server.json("api/machines?version=2"))
        #expect(ofAnotherVersion.isEmpty)
        let ofAnotherSchema = try Self.ids(try await served.server.json("api/machines?fingerprint=0000000000000000"))
        #expect(ofAnotherSchema.isEmpty)
        let one = try await served.server.json("api/machines?limit=0")
        #expect(try Self.ids(one).count == 1, "a limit below 1 is taken as 1")
        #expect(one["next"] is String)

        var seen: [String] = []
        var path = "api/machines?limit=4"
        while true {
            let page = try await served.server.json(path)
            seen += try Self.ids(page)
            guard let next = page["next"] as? String else { break }
            path = "api/machines?limit=4&after=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? next)
        }
        #expect(seen.sorted() == ["gift #7/ü <b>&", "o-1", "o-2", "o-3", "o-4", "o-5", "o-6"])
        await served.stop()
    }

    @Test func aRequestItCannotAnswerSaysWhy() async throws {
        let served = try await Served.start()
        let (status, body) = try await served.server.get("api/machines?status=stuck")
        #expect(status == 400)
        #expect(body.contains("status must be one of \(MachineStatus.allCases.map(\.rawValue).joined(separator: ", ")), not stuck"))
        let (missing, unknown) = try await served.server.get("api/machine?id=o-99")
        #expect(missing == 404)
        #expect(unknown.contains("no machine o-99"))
        let (bad, cursor) = try await served.server.get("api/machines?after=yesterday")
        #expect(bad == 400)
        #expect(cursor.contains("after must be a cursor"))
        let (age, century) = try await served.server.get("api/machines?olderThan=9300000000000000")
        #expect(age == 400)
        #expect(century.contains("at most 3155760000"))
        let (feed, number) = try await served.server.get("api/changes?after=abc")
        #expect(feed == 400)
        #expect(number.contains("after must be a number, not abc"))
        let (diagram, fingerprint) = try await served.server.get("api/diagram.svg")
        #expect(diagram == 400)
        #expect(fingerprint.contains("no fingerprint parameter"))
        let (unknownStatus, _) = try await served.server.get("api/machines?version=-1")
        #expect(unknownStatus == 400)
        await served.stop()
    }

    @Test func theTimelineHoldsEachEntryWithItsEventStateAndData() async throws {
        let served = try await Served.start()
        let timeline = try await served.server.json("api/machine?id=o-4")
        let machine = try #require(timeline["machine"] as? [String: Any])
        #expect(machine["state"] as? String == "shipped")
        #expect(machine["status"] as? String == "final")
        let history = try #require(timeline["history"] as? [[String: Any]])
        let states: [String] = history.compactMap { $0["state"] as? String }
        #expect(states == ["placed", "payment pending", "paid", "shipped"])
        let events: [String] = history.compactMap { $0["event"] as? String }
        #expect(events == ["\"submit\"", "\"pay\"", "\"ship\""])
        let data = try #require(history.last?["data"] as? String)
        #expect(data.contains("fragile"))

        let encoded = try #require(ShopStore.giftID.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let gift = try await served.server.json("api/machine?id=\(encoded)")
        let giftMachine = try #require(gift["machine"] as? [String: Any])
        #expect(giftMachine["id"] as? String == ShopStore.giftID)

        let failed = try await served.server.json("api/machine?id=o-5")
        let failedHistory = try #require(failed["history"] as? [[String: Any]])
        #expect(failedHistory.last?["outcome"] as? String == "failed")
        await served.stop()
    }

    @Test func theChangeFeedGivesTransitionsWrittenAfterItStarted() async throws {
        let served = try await Served.start()
        let first = try await served.server.json("api/changes")
        let before = try #require(first["newest"] as? Int)
        #expect((first["changes"] as? [Any])?.isEmpty == true)
        try await served.shop.orders.send(to: "o-2", .pay)
        try await served.shop.orders.send(to: "o-1", .submit)
        let changed = try await served.server.json("api/changes?after=\(before)")
        let changes = try #require(changed["changes"] as? [[String: Any]])
        let machines: [[String: Any]] = changes.compactMap { $0["machine"] as? [String: Any] }
        let moves: [String] = machines.map { "\($0["id"] as? String ?? "?") \($0["state"] as? String ?? "?")" }
        #expect(moves == ["o-2 paid", "o-1 payment pending"])
        let after = try #require(changed["newest"] as? Int)
        let again = try await served.server.json("api/changes?after=\(after)")
        #expect((again["changes"] as? [Any])?.isEmpty == true)
        await served.stop()
    }

    @Test func aStoreThatFailsGetsA503AndTheInspectorServesAgainOnceItWorks() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let outage = OutageInspection(reader)
        let server = try await RunningInspector(Inspector(store: outage, title: "Shop"))
        _ = try await server.get("api/changes")
        outage.failing.withLock { $0 = true }
        for path in ["api/overview", "api/machines", "api/machine?id=o-1", "api/changes"] {
            let (status, body) = try await server.get(path)
            #expect(status == 503, "\(path)")
            #expect(body.contains("the store failed: the disk is gone"), "\(path)")
        }
        try await shop.orders.send(to: "o-1", .submit)
        outage.failing.withLock { $0 = false }
        let overview = try await server.json("api/overview")
        #expect((overview["counts"] as? [[String: Any]])?.isEmpty == false)
        let changed = try await server.json("api/changes")
        let machines: [[String: Any]] = (changed["changes"] as? [[String: Any]] ?? []).compactMap { $0["machine"] as? [String: Any] }
        let ids: [String] = machines.compactMap { $0["id"] as? String }
        #expect(ids == ["o-1"], "the change written during the outage is in the feed once it ends")
        await server.stop()
        reader.close()
        await shop.close()
    }

    private static func ids(_ page: [String: Any]) throws -> [String] {
        let machines = try #require(page["machines"] as? [[String: Any]])
        return machines.compactMap { $0["id"] as? String }
    }
}

/// A store's inspection that fails while `failing` is set, as a store in an outage does, and
/// counts the reads of its counts.
final class OutageInspection: StoreInspection {
    let inspected: any StoreInspection
    let failing = Mutex(false)
    let countReads = Mutex(0)

    init(_ inspected: any StoreInspection) { self.inspected = inspected }

    private func check() throws(StoreError) {
        if failing.withLock({ $0 }) { throw StoreError("the disk is gone") }
    }

    func storedSchemas() async throws(StoreError) -> [StoredSchema] {
        try check()
        return try await inspected.storedSchemas()
    }

    func stateCounts() async throws(StoreError) -> [StateCount] {
        try check()
        countReads.withLock { $0 += 1 }
        return try await inspected.stateCounts()
    }

    func machines(_ query: MachineQuery) async throws(StoreError) -> MachinePage {
        try check()
        return try await inspected.machines(query)
    }

    func machine(_ id: String) async throws(StoreError) -> StoredMachine? {
        try check()
        return try await inspected.machine(id)
    }

    func changes(after change: Int64, limit: Int) async throws(StoreError) -> [StoredMachine] {
        try check()
        return try await inspected.changes(after: change, limit: limit)
    }

    func entries(of machine: String) async throws(StoreError) -> [JournalEntry] {
        try check()
        return try await inspected.entries(of: machine)
    }
}
