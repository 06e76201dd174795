import ActorFSM
import ActorFSMDurability
import ActorFSMInspector
import ActorFSMSQLite
import Foundation
import Testing

/// A payment a parent order runs as its child.
enum Charge: MachineDefinition {
    enum State: String, Hashable, Sendable, Codable { case pending, captured }
    enum Event: String, Hashable, Sendable, Codable { case capture }
    typealias ID = String
    typealias Data = Int
}

/// An order whose `paying` state runs its charge as a child machine.
enum ParentOrder: MachineDefinition {
    enum State: String, Hashable, Sendable, Codable { case placed, paying, paid }
    enum Event: String, Hashable, Sendable, Codable { case pay, charged }
    typealias ID = String
    typealias Data = Int
}

/// The inspector's timeline shows an operator's acts, and links a parent to its children.
@Suite(.timeLimit(.minutes(2)), .enabled(if: Chromium.path != nil || Chromium.required, "Chromium is not installed"))
struct BrowserOperatorTests {
    @Test func theTimelineShowsAPauseAndLinksAParentToItsChild() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("operators-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("orders.sqlite").path
        let store = try SQLiteStore(path: path, summaryDelay: .zero)
        let charges = try Supervisor(schema: try Schema<Charge>(initial: .pending, final: [.captured]) {
            define(.pending) { when(.capture) | then(.captured) }
        }, durability: Durability(store: store))
        let orders = try Supervisor(schema: try Schema<ParentOrder>(initial: .placed, final: [.paid]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(in: charges, id: { "charge-\($0.id)" }, data: { $0.data },
                                            done: { _, _ in .charged }, failed: { _ in nil })) {
                when(.charged) | then(.paid)
            }
        }, durability: Durability(store: store))
        for id in ["a", "b"] { try await orders.activate(id: id, data: 5) }
        try await orders.send(to: "a", .pay)
        try await orders.pause("b", reason: "look first")

        let reader = try SQLiteReader(path: path)
        let server = try await RunningInspector(Inspector(store: reader, title: "Orders"))
        let parent = try BrowserTests.section("timeline", of: try await Chromium.run(server.base + "#machine=a", options: ["--dump-dom"]))
        #expect(parent.contains("data-child=\"charge-a\""), "the parent's entry links to its child")
        #expect(parent.contains("href=\"#machine=charge-a\""))
        let paused = try BrowserTests.section("timeline", of: try await Chromium.run(server.base + "#machine=b", options: ["--dump-dom"]))
        #expect(paused.contains("#1 operator → placed"))
        #expect(paused.contains("pause: look first · paused"))

        await server.stop()
        reader.close()
        await orders.shutdown()
        await charges.shutdown()
        store.close()
    }
}
