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

    /// An operator opens the address the inspector printed, retries a failed order with the
    /// timeline's button, then pauses another: the store holds both acts with their reasons.
    @Test func theTimelinesButtonsRetryAFailedOrderAndPauseAnother() async throws {
        let shop = try await ShopStore()
        await shop.stopWriting()
        let reader = try SQLiteReader(path: shop.path)
        let path = shop.path
        let actions = InspectorActions(opening: { try SQLiteStore(path: path) }, closing: { $0.close() })
        let drive = Self.drive.replacing("TOKEN", with: actions.token)
        let server = try await RunningInspector.driven(Inspector(store: reader, title: "Shop", actions: actions), by: drive)
        let page = try BrowserTests.section("out", of: try await Chromium.run(server.base + "drive", options: ["--dump-dom"],
                                                                                budget: 30_000))
        #expect(page.contains("retried o-5\npaused o-2\ntoken kept out of the address"), "the page printed \(page)")
        let retry = try #require(try await reader.history(of: "o-5").last)
        #expect(retry.kind == .intent)
        #expect(retry.operation?.verb == "retry")
        #expect(retry.operation?.reason == "provider back")
        #expect(try await reader.machine("o-2")?.summary.status == .paused)
        #expect(try await reader.history(of: "o-2").last?.operation?.reason == "partner silent")
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// Beside the application that holds the file, an operator signals an order with the
    /// timeline's form, then pauses every order the list's filter selects with the bar below
    /// it, after its count: the application carries out each act where the order runs.
    @Test func theSignalFormAndTheListsBarActThroughTheApplication() async throws {
        let shop = try await ShopStore(requestInterval: .milliseconds(20))
        let reader = try SQLiteReader(path: shop.path)
        let path = shop.path
        let actions = InspectorActions(opening: { try SQLiteStore(path: path) }, closing: { $0.close() },
                                       asking: { try SQLiteRequests(path: path) })
        let drive = Self.driveSignalAndBulk.replacing("TOKEN", with: actions.token)
        let server = try await RunningInspector.driven(Inspector(store: reader, title: "Shop", actions: actions), by: drive)
        let page = try BrowserTests.section("out", of: try await Chromium.run(server.base + "drive", options: ["--dump-dom"],
                                                                                budget: 30_000))
        // Left in `payment pending`: o-3, and o-5, whose payment failed.
        #expect(page.contains("signalled o-2\npause: 2 of 2 machines changed"), "the page printed \(page)")
        #expect(await shop.orders.machine(id: "o-2")?.state == .paid)
        #expect(try await reader.history(of: "o-2").last?.operation?.verb == "signal")
        for id in ["o-3", "o-5"] {
            #expect(try await reader.machine(id)?.summary.status == .paused)
            #expect(try await reader.history(of: id).last?.operation?.reason == "freeze the rest")
        }
        await server.stop()
        reader.close()
        await shop.close()
    }

    /// The frame and helpers the driving pages share, with `STEPS` run once the page loads.
    static let driveFrame = """
        <!doctype html><html><body>
        <iframe id="frame" src="./#machine=MACHINE&token=TOKEN" width="1200" height="900"></iframe>
        <pre id="out"></pre>
        <script>
        const frame = document.getElementById("frame");
        const page = () => frame.contentDocument;
        const log = (text) => { document.getElementById("out").textContent += text + "\\n"; };
        const until = (find) => new Promise((resolve) => {
          const look = () => { const found = find(); if (found) resolve(found); else setTimeout(look, 50); };
          look();
        });
        async function press(verb, machine, reason) {
          const button = await until(() => page().querySelector(
            '#actions[data-machine="' + machine + '"] button[data-verb="' + verb + '"]'));
          page().getElementById("reason").value = reason;
          return button;
        }
        frame.addEventListener("load", async () => {
        STEPS
        }, { once: true });
        </script>
        </body></html>
        """

    /// Signals o-2 with the form, then pauses every order in `payment pending` with the list's bar.
    static let driveSignalAndBulk = driveFrame.replacing("MACHINE", with: "o-2").replacing("STEPS", with: """
          const signal = await press("signal", "o-2", "paid by phone");
          page().getElementById("signal-event").value = "pay";
          signal.click();
          await until(() => page().getElementById("timeline").textContent.includes("signal: paid by phone"));
          log("signalled o-2");
          frame.contentWindow.confirm = () => true;
          await until(() => page().querySelector('#filters select[name="state"] option[value="payment pending"]'));
          page().getElementById("filters").elements.state.value = "payment pending";
          await until(() => page().getElementById("bulk-act"));
          page().getElementById("bulk-verb").value = "pause";
          page().getElementById("bulk-reason").value = "freeze the rest";
          page().getElementById("bulk-act").click();
          await until(() => page().getElementById("bulk-result").textContent.includes("changed")
            || !page().getElementById("error").hidden);
          log(page().getElementById("bulk-result").textContent || page().getElementById("error").textContent);
        """)

    /// Retries o-5, then pauses o-2, with the timeline's buttons.
    static let drive = driveFrame.replacing("MACHINE", with: "o-5").replacing("STEPS", with: """
          (await press("retry", "o-5", "provider back")).click();
          await until(() => page().getElementById("timeline").textContent.includes("retry: provider back"));
          log("retried o-5");
          frame.contentWindow.location.hash = "machine=o-2";
          (await press("pause", "o-2", "partner silent")).click();
          await until(() => page().querySelector("#timeline-summary .status-paused"));
          log("paused o-2");
          log(frame.contentWindow.location.href.includes("token") ? "token left in the address" : "token kept out of the address");
        """)
}
