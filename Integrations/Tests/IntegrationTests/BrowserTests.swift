import ActorFSM
import ActorFSMDurability
import ActorFSMInspector
import ActorFSMPostgres
import ActorFSMSQLite
import ActorFSMTesting
import Foundation
import Testing

/// Debian's headless Chromium, where it is installed; CI installs it, so there it never skips.
enum Chromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var required: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Runs Chromium headless on `url` with `options`, letting the page's script run for
    /// `budget` of the browser's virtual time, and returns what it printed.
    static func run(_ url: String, options: [String], budget: Int = 8_000) async throws -> String {
        let browser = try #require(path, "Chromium is not installed: apt-get install chromium")
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        // A browser that hangs is killed: the test fails rather than waits for its time limit.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                             "--no-first-run", "--user-data-dir=\(profile.path)", "--virtual-time-budget=\(budget)"]
            + options + [url]
        // What it prints goes to a file, read once it has ended: nothing here blocks on a pipe.
        let printedFile = profile.path + ".out"
        #expect(FileManager.default.createFile(atPath: printedFile, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: printedFile) }
        let output = try #require(FileHandle(forWritingAtPath: printedFile))
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let ended = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            ended.continuation.yield(process.terminationStatus)
            ended.continuation.finish()
        }
        try process.run()
        var statuses = ended.stream.makeAsyncIterator()
        let status = await statuses.next()
        try output.close()
        let printed = try Data(contentsOf: URL(fileURLWithPath: printedFile))
        #expect(status == 0, "Chromium ended with status \(status ?? -1)")
        return String(decoding: printed, as: UTF8.self)
    }
}

@Suite(.timeLimit(.minutes(2)), .enabled(if: Chromium.path != nil || Chromium.required, "Chromium is not installed"))
struct BrowserTests {
    @Test func thePageShowsCountsATimelineAndLiveTransitions() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop"))
        // The feed starts with the first page that asks; what is written after it is live.
        _ = try await server.get("api/changes")
        try await shop.orders.send(to: "o-2", .pay)
        try await shop.orders.send(to: "o-1", .submit)

        let dom = try await Chromium.run(server.base + "#state=payment%20pending&machine=o-4", options: ["--dump-dom"])
        #expect(dom.contains("<body data-ready=\"true\">"))
        #expect(dom.contains("<h1 id=\"title\">Shop</h1>"))
        for (state, count) in [("placed", 0), ("payment pending", 3), ("paid", 1), ("shipped", 1), ("cancelled", 2)] {
            #expect(dom.contains("<tr data-state=\"\(state)\"><td>\(state)</td><td class=\"number count\">\(count)</td></tr>"),
                    "the counts table shows \(count) in \(state)")
        }
        let diagramCount = try #require(try Regex(#"data-state="payment pending">.*?class="count"[^>]*>(\d+)<"#)
            .firstMatch(in: dom))
        #expect(diagramCount.output[1].substring == "3")

        let timeline = try Self.section("timeline", of: dom)
        #expect(timeline.components(separatedBy: "<li ").count - 1 == 4)
        #expect(timeline.contains("#3 completed → shipped"))
        #expect(timeline.contains("send \"ship\""))
        // The data is shown as text: the note's markup is escaped, not rendered.
        #expect(timeline.contains("&lt;b&gt;fragile&lt;"))

        let live = try Self.section("live", of: dom)
        #expect(live.contains("data-machine=\"o-2\""))
        #expect(live.contains("data-machine=\"o-1\""))
        // The address chose the state: a name with a space, sent as it is.
        let machines = try Self.section("machines", of: dom)
        let listed = machines.components(separatedBy: "<tr data-machine=\"").dropFirst().map { $0.prefix(3) }
        #expect(listed.sorted() == ["o-1", "o-3", "o-5"])

        await server.stop()
        reader.close()
        await shop.close()
    }

    @Test func thePageWorksUnderThePathAnApplicationGivesIt() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let server = try await RunningInspector.mounted(Inspector(store: reader, title: "Shop"), at: "ops/inspector")
        let (health, ok) = try await server.get("health")
        #expect(health == 200 && ok == "ok", "the application's own routes still answer")
        let gift = try #require(ShopStore.giftID.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        for path in ["ops/inspector", "ops/inspector/#machine=\(gift)"] {
            let dom = try await Chromium.run(server.base + path, options: ["--dump-dom"])
            #expect(dom.contains("<body data-ready=\"true\">"), "the page at /\(path) loads its data")
            #expect(dom.contains("<tr data-state=\"payment pending\"><td>payment pending</td><td class=\"number count\">3</td></tr>"))
        }
        // An id with markup and URL characters reaches the page as text.
        let dom = try await Chromium.run(server.base + "ops/inspector/#machine=\(gift)", options: ["--dump-dom"])
        #expect(dom.contains("<span id=\"timeline-id\">gift #7/ü &lt;b&gt;&amp;</span>"))
        #expect(try Self.section("timeline", of: dom).contains("#1 completed → cancelled"))
        await server.stop()
        reader.close()
        await shop.close()
    }

    @Test func aScreenshotOfThePageIsSaved() async throws {
        let shop = try await ShopStore()
        let reader = try SQLiteReader(path: shop.path)
        let server = try await RunningInspector(Inspector(store: reader, title: "Shop"))
        let environment = ProcessInfo.processInfo.environment
        let file = environment["INSPECTOR_SCREENSHOT"]
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString).png").path
        _ = try await Chromium.run(server.base + "#machine=o-4", options: ["--window-size=1400,1000", "--screenshot=\(file)"])
        let png = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // The header's width and height (big-endian, after the IHDR tag), and a page with content.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1400 && height == 1000)
        #expect(png.count > 15_000, "a blank page compresses to a few kilobytes; this one is \(png.count) bytes")
        if environment["INSPECTOR_SCREENSHOT"] == nil { try? FileManager.default.removeItem(atPath: file) }

        await server.stop()
        reader.close()
        await shop.close()
    }

    /// The markup of the element with `id`, up to the end of the section or list holding it.
    static func section(_ id: String, of dom: String) throws -> String {
        let start = try #require(dom.range(of: "id=\"\(id)\""), "the page has an element \(id)")
        let rest = dom[start.upperBound...]
        let end = rest.range(of: "</section>")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}

extension BrowserTests {
    @Test(.enabled(if: TemporaryPostgres.unavailableReason == nil || Chromium.required, "PostgreSQL cannot start here"))
    func thePageShowsAPostgreSQLStore() async throws {
        let server = try await offThePool { try TemporaryPostgres.start() }
        // The inspector reads beside the writer: with no delay, it sees each summary at its commit.
        let store = try PostgresStore(url: server.url, summaryDelay: .zero)
        let shop = try await ShopStore(store: store) { store.close() }
        let reader = try PostgresReader(url: server.url)
        let inspector = try await RunningInspector(Inspector(store: reader, title: "Shop on PostgreSQL"))
        _ = try await inspector.get("api/changes")
        try await shop.orders.send(to: "o-3", .cancel)

        let dom = try await Chromium.run(inspector.base + "#machine=o-5", options: ["--dump-dom"])
        #expect(dom.contains("<body data-ready=\"true\">"))
        for (state, count) in [("payment pending", 2), ("shipped", 1), ("cancelled", 3)] {
            #expect(dom.contains("<tr data-state=\"\(state)\"><td>\(state)</td><td class=\"number count\">\(count)</td></tr>"),
                    "the counts table shows \(count) in \(state)")
        }
        let timeline = try Self.section("timeline", of: dom)
        #expect(timeline.contains("#2 completed → payment pending (failed)"))
        #expect(try Self.section("live", of: dom).contains("data-machine=\"o-3\""))

        await inspector.stop()
        reader.close()
        await shop.close()
        try await offThePool { server.stop() }
    }
}

extension BrowserTests {
    @Test func aStoreNoSchemaHasWrittenToSaysSo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("inspector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("empty.sqlite").path
        let store = try SQLiteStore(path: path)
        let reader = try SQLiteReader(path: path)
        let server = try await RunningInspector(Inspector(store: reader, title: "Empty"))
        let dom = try await Chromium.run(server.base, options: ["--dump-dom"])
        #expect(dom.contains("<body data-ready=\"true\">"))
        #expect(dom.contains("No schema has written to this store yet."))
        await server.stop()
        reader.close()
        store.close()
        try? FileManager.default.removeItem(at: folder)
    }
}
