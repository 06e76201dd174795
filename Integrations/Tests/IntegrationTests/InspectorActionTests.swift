import ActorFSM
import ActorFSMDurability
import ActorFSMInspector
import ActorFSMSQLite
import Foundation
import Synchronization
import Testing

/// The inspector's operator actions: off unless given, and taken only from a request that
/// carries the token, comes from the inspector's own page and sends JSON.
@Suite(.timeLimit(.minutes(2))) struct InspectorActionTests {
    static let token = "a-token-for-the-tests-0123456789"

    /// The acts a test's actions were asked to carry out.
    final class Acts: Sendable {
        let done = Mutex<[String]>([])

        func actions() -> InspectorActions {
            InspectorActions(token: InspectorActionTests.token) { act in
                self.done.withLock { $0.append("\(act.verb.rawValue) \(act.machine): \(act.reason)") }
            }
        }
    }

    static func act(_ verb: String, _ machine: String, reason: String = "checking") -> String {
        "{\"verb\": \"\(verb)\", \"machine\": \"\(machine)\", \"reason\": \"\(reason)\"}"
    }

    static func headers(token: String? = token, origin: String? = nil, type: String = "application/json") -> [String: String] {
        var headers = ["Content-Type": type]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let origin { headers["Origin"] = origin }
        return headers
    }

    @Test func anInspectorWithoutActionsHasNoEndpointThatWrites() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop"))
        let answer = try await server.post("api/act", body: Self.act("pause", "o-2"), headers: Self.headers())
        #expect([404, 405].contains(answer.status))
        #expect(try await server.json("api/overview")["actions"] as? Bool == false)
        #expect(try await reader.machine("o-2")?.summary.status == .waiting)
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// An act on a filter counts first (a dry run changes nothing), then acts on each machine
    /// the filter selects that the verb can change, and reports.
    @Test func anActOnAFilterCountsFirstThenActsOnEachMachine() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let acts = Acts()
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: acts.actions()))
        let expected = try await reader.machines(matching: MachineQuery(status: .waiting), changeableBy: .pause).map(\.id)
        #expect(!expected.isEmpty)
        let body = { (dryRun: Bool) in
            "{\"verb\": \"pause\", \"filter\": \"status=waiting\", \"reason\": \"freeze\", \"dryRun\": \(dryRun)}"
        }
        let preview = try await server.post("api/act", body: body(true), headers: Self.headers())
        #expect(preview.status == 200, "\(preview.body)")
        let counted = try JSONSerialization.jsonObject(with: Data(preview.body.utf8)) as? [String: Any]
        let report = counted?["report"] as? [String: Any]
        #expect(report?["selected"] as? Int == expected.count && report?["dryRun"] as? Bool == true)
        #expect(acts.done.withLock { $0 }.isEmpty, "a dry run changes nothing")

        let done = try await server.post("api/act", body: body(false), headers: Self.headers())
        #expect(done.status == 200, "\(done.body)")
        #expect(acts.done.withLock { $0 } == expected.map { "pause \($0): freeze" })
        let bad = try await server.post("api/act", body: "{\"verb\": \"pause\", \"filter\": \"status=sleepy\", \"reason\": \"x\"}",
                                        headers: Self.headers())
        #expect(bad.status == 400)
        await server.stop()
        reader.close()
        await shop.close()
    }

    @Test func anActWithoutTheTokenFromAnotherOriginOrNotInJSONIsRefused() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let acts = Acts()
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: acts.actions()))
        let body = Self.act("pause", "o-2")
        let own = "http://127.0.0.1:\(server.port)"

        let anonymous = try await server.post("api/act", body: body, headers: Self.headers(token: nil, origin: own))
        #expect(anonymous.status == 401)
        #expect(anonymous.body.contains("Authorization: Bearer TOKEN"))
        let wrong = try await server.post("api/act", body: body, headers: Self.headers(token: String(Self.token.dropLast()) + "x"))
        #expect(wrong.status == 401)
        // A browser sends its cookies with another site's form; a token in a cookie counts for nothing.
        var cookie = Self.headers(token: nil)
        cookie["Cookie"] = "token=\(Self.token)"
        #expect(try await server.post("api/act", body: body, headers: cookie).status == 401)
        // Another site's page with the token (stolen or guessed) is refused for its origin.
        let foreign = try await server.post("api/act", body: body, headers: Self.headers(origin: "http://attacker.example"))
        #expect(foreign.status == 403)
        #expect(foreign.body.contains("attacker.example may not act"))
        let form = try await server.post("api/act", body: "verb=pause&machine=o-2",
                                         headers: Self.headers(type: "application/x-www-form-urlencoded"))
        #expect(form.status == 415)
        #expect(try await server.post("api/act", body: "{}", headers: Self.headers()).status == 400)
        #expect(try await server.post("api/act", body: Self.act("pause", "o-404"), headers: Self.headers()).status == 404)
        #expect(acts.done.withLock { $0 } == [])

        let accepted = try await server.post("api/act", body: body, headers: Self.headers(origin: own))
        #expect(accepted.status == 200)
        #expect(acts.done.withLock { $0 } == ["pause o-2: checking"])
        #expect(try await server.json("api/overview")["actions"] as? Bool == true)
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// A foreign `Host` (a DNS rebinding) is refused before the act's own checks.
    @Test func anActNamingAnotherHostIsRefused() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let acts = Acts()
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: acts.actions()))
        var headers = Self.headers()
        headers["Host"] = "attacker.example:\(server.port)"
        #expect(try await server.post("api/act", body: Self.act("pause", "o-2"), headers: headers).status == 403)
        #expect(acts.done.withLock { $0 } == [])
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// Acts written into a store no process runs: each is in the machine's history with its
    /// reason, and one the store refuses is answered with 409 and the store's reason.
    @Test func actsOnAStoreNoProcessRunsAreWrittenWithTheirReasons() async throws {
        let shop = try await ShopStore()
        await shop.stopWriting()
        let reader = try SQLiteReader(path: shop.path)
        let path = shop.path
        let actions = InspectorActions(token: Self.token, opening: { try SQLiteStore(path: path) }, closing: { $0.close() })
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: actions))

        let paused = try await server.post("api/act", body: Self.act("pause", "o-2", reason: "partner silent"), headers: Self.headers())
        #expect(paused.status == 200)
        #expect(paused.body.contains("\"status\":\"paused\""))
        #expect(try await reader.history(of: "o-2").last?.operation?.reason == "partner silent")
        let retried = try await server.post("api/act", body: Self.act("retry", "o-5", reason: "jam cleared"), headers: Self.headers())
        #expect(retried.status == 200)
        let retry = try #require(try await reader.history(of: "o-5").last)
        #expect(retry.kind == .intent)
        #expect(retry.operation?.reason == "jam cleared")
        #expect(try await server.post("api/act", body: Self.act("cancel", "o-3"), headers: Self.headers()).status == 200)
        #expect(try await reader.machine("o-3")?.summary.status == .cancelled)

        let refused = try await server.post("api/act", body: Self.act("retry", "o-1"), headers: Self.headers())
        #expect(refused.status == 409)
        #expect(refused.body.contains("did not fail"))
        let final = try await server.post("api/act", body: Self.act("pause", "o-4"), headers: Self.headers())
        #expect(final.status == 409)
        #expect(final.body.contains("final state"))
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// While the application holds the SQLite file, an act through the store is refused and
    /// changes nothing: the application's own actions (its supervisor) are the way.
    @Test func anActOnAFileTheApplicationHoldsIsAConflictThatChangesNothing() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let path = shop.path
        let actions = InspectorActions(token: Self.token, opening: { try SQLiteStore(path: path) }, closing: { $0.close() })
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: actions))
        let refused = try await server.post("api/act", body: Self.act("pause", "o-2"), headers: Self.headers())
        #expect(refused.status == 409)
        #expect(refused.body.contains("act through it"))
        #expect(try await reader.machine("o-2")?.summary.status == .waiting)
        // Without a queue to the application, a signal is refused at once, and the file is not held.
        let signal = #"{"verb": "signal", "machine": "o-2", "event": "pay", "reason": "paid by phone"}"#
        let unasked = try await server.post("api/act", body: signal, headers: Self.headers())
        #expect(unasked.status == 409 && unasked.body.contains("asking:"))
        #expect(await shop.orders.machine(id: "o-2")?.state == .paymentPending)
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// Beside the application that holds the SQLite file, acts given a queue are asked of the
    /// application, which carries them out where the machines run; a signal's event is decoded
    /// there, and one it cannot read is a conflict that changes nothing.
    @Test func anActOnAFileTheApplicationHoldsIsAskedOfTheApplication() async throws {
        let shop = try await ShopStore(requestInterval: .milliseconds(20))
        let reader = try SQLiteReader(path: shop.path)
        let path = shop.path
        let actions = InspectorActions(token: Self.token, opening: { try SQLiteStore(path: path) }, closing: { $0.close() },
                                       asking: { try SQLiteRequests(path: path) })
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: actions))
        let paused = try await server.post("api/act", body: Self.act("pause", "o-2", reason: "fraud review"), headers: Self.headers())
        #expect(paused.status == 200)
        #expect(paused.body.contains("\"status\":\"paused\""))
        #expect(await shop.orders.machine(id: "o-2")?.isPaused == true)
        #expect(try await server.post("api/act", body: Self.act("resume", "o-2"), headers: Self.headers()).status == 200)

        let signal = #"{"verb": "signal", "machine": "o-2", "event": "pay", "reason": "paid by phone"}"#
        let signalled = try await server.post("api/act", body: signal, headers: Self.headers())
        #expect(signalled.status == 200)
        #expect(await shop.orders.machine(id: "o-2")?.state == .paid)
        #expect(try await reader.history(of: "o-2").last?.operation?.reason == "paid by phone")
        let unknown = #"{"verb": "signal", "machine": "o-2", "event": "refund", "payload": "5", "reason": "by hand"}"#
        let refused = try await server.post("api/act", body: unknown, headers: Self.headers())
        #expect(refused.status == 409)
        #expect(refused.body.contains("is named refund with payload 5"))
        #expect(await shop.orders.machine(id: "o-2")?.state == .paid)
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// A signal names its event, and its payload is JSON: otherwise 400, before anything moves.
    @Test func aSignalWithoutAnEventOrWithAPayloadThatIsNotJSONIsABadRequest() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let acts = Acts()
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: acts.actions()))
        let nameless = try await server.post("api/act", body: #"{"verb": "signal", "machine": "o-2", "reason": "x"}"#,
                                             headers: Self.headers())
        #expect(nameless.status == 400)
        #expect(nameless.body.contains("names its"))
        let garbled = #"{"verb": "signal", "machine": "o-2", "event": "pay", "payload": "{amount: 5", "reason": "x"}"#
        let notJSON = try await server.post("api/act", body: garbled, headers: Self.headers())
        #expect(notJSON.status == 400)
        #expect(notJSON.body.contains("is not"))
        #expect(acts.done.withLock { $0 } == [])
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// An application that serves the inspector acts through its supervisor, on the machines it runs.
    @Test func anApplicationsSupervisorCarriesOutTheActsOnMachinesItRuns() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let orders = shop.orders
        let actions = InspectorActions(token: Self.token, supervisor: orders)
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop", actions: actions))
        let paused = try await server.post("api/act", body: Self.act("pause", "o-2", reason: "look first"), headers: Self.headers())
        #expect(paused.status == 200)
        do {
            try await orders.send(to: "o-2", .pay)
            Issue.record("a machine the inspector paused took an event")
        } catch {
            #expect(error.kind == .paused)
        }
        #expect(try await server.post("api/act", body: Self.act("resume", "o-2"), headers: Self.headers()).status == 200)
        let signal = #"{"verb": "signal", "machine": "o-2", "event": "pay", "reason": "paid by phone"}"#
        #expect(try await server.post("api/act", body: signal, headers: Self.headers()).status == 200)
        #expect(await orders.machine(id: "o-2")?.state == .paid)
        #expect(try await reader.history(of: "o-2").compactMap(\.operation?.reason) == ["look first", "checking", "paid by phone"])
        let late = try await server.post("api/act", body: Self.act("retry", "o-2"), headers: Self.headers())
        #expect(late.status == 409)
        #expect(late.body.contains("nothing to retry"))
        await server.stop()
        reader.close()
        await shop.close()
    }
}
