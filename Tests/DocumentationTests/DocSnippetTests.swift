import ActorFSM
import ActorFSMDistribution
import ActorFSMDurability
import ActorFSMPostgres
import ActorFSMSQLite
import ActorFSMTesting
import Distributed
import Foundation
import Testing
import TestSupport

// Every ```swift example in a doc comment of the package's sources, verbatim, in a context that
// declares the names it uses: this file compiles only if the examples do, and the first test
// fails if an example is missing here or differs from its doc comment. The second test does the
// same for the examples of README.md (ReadmeTests) and the articles (GuideSnippetTests).

enum DocOrderState: Hashable, Sendable, Codable { case placed, paymentPending, paid, waiting, delivered, cancelled, failed }
enum DocOrderEvent: Hashable, Sendable, Codable { case submit, pay, paid, cancel, declined, retry, remind }

/// The gates of the distributed examples: their states and events cross processes.
enum Gates: MachineDefinition {
    enum State: String, Codable, Hashable, Sendable { case locked, unlocked }
    enum Event: String, Codable, Hashable, Sendable { case coin, pass }
}

/// The orders of the doc examples, numbered.
enum Orders: MachineDefinition {
    typealias State = DocOrderState
    typealias Event = DocOrderEvent
    typealias ID = Int
}

/// The catalogue screen of the doc examples.
enum CatalogueScreen: MachineDefinition {
    typealias State = DocCatalogue
    typealias Event = DocCatalogueEvent
}

enum DocCatalogue: Hashable, Sendable { case loading, showing, showingError }
enum DocCatalogueEvent: CaseKeyed {
    case loaded([String])
    case failed(String)

    enum CaseKey: Hashable, Sendable { case loaded, failed }
    var caseKey: CaseKey {
        switch self {
        case .loaded: .loaded
        case .failed: .failed
        }
    }
}

private let turnstile = try! Schema<Turnstile>(initial: .locked, final: [.alarming]) {
    define(.locked) { when(.coin) | then(.unlocked) }
    define(.unlocked) { when(.pass) | then(.locked) }
}

enum SnippetSyntaxBuilder {
    final class Turnstile: SyntaxBuilder {
        enum State: Hashable { case locked, unlocked }
        enum Event: Hashable { case coin, pass, reset }

        func makeSchema() throws -> Schema<Turnstile> {
            try Schema(initial: .locked) {
                let resetable = SuperState { when(.reset) | then(.locked) }
                define(.locked, adopts: resetable) { when(.coin) | then(.unlocked) }
                define(.unlocked, adopts: resetable) { when(.pass) | then(.locked) }
            }
        }
    }
}

enum SnippetCaseKeyed {
    enum Event: CaseKeyed {
        case coin(cents: Int)
        case pass

        enum CaseKey: Hashable, Sendable { case coin, pass }

        var caseKey: CaseKey {
            switch self {
            case .coin: .coin
            case .pass: .pass
            }
        }
    }
}

typealias OrderState = DocOrderState

/// An order's data, for the machine data examples.
struct Purchase: Sendable, Codable {
    var amount: Int
    var attempts: Int
    var lastError: String? = nil
}

/// The orders of the durability examples: named by text, each owning its `Purchase`.
enum StoredOrders: MachineDefinition {
    typealias State = DocOrderState
    typealias Event = DocOrderEvent
    typealias Data = Purchase
}

/// What an older release stored as an order's data, for the migration example.
struct PurchaseV1: Decodable {
    var amount: Int
}

extension Purchase {
    init(_ old: PurchaseV1) { self.init(amount: old.amount, attempts: 0) }
}

/// A payment service that takes idempotency keys, for the durability examples.
struct DocPayments: Sendable {
    func charge(order: String, idempotencyKey: String) async throws {}
}

/// A catalogue screen's data, for the `update` examples.
struct Catalogue: Sendable {
    var page = 0
    var items: [String] = []
}

/// What a catalogue screen hears, for the `update` examples.
enum CatalogueEvent: CaseKeyed {
    case next
    case loaded([String])

    enum CaseKey: Hashable, Sendable { case next, loaded }
    var caseKey: CaseKey {
        switch self {
        case .next: .next
        case .loaded: .loaded
        }
    }
}

/// A catalogue screen that owns its `Catalogue`.
enum CatalogueBrowser: MachineDefinition {
    enum State: Hashable, Sendable { case loading, showing }
    typealias Event = CatalogueEvent
    typealias Data = Catalogue
}

/// The orders of the doc examples, each owning its `Order`.
enum PaidOrders: MachineDefinition {
    typealias State = DocOrderState
    typealias Event = DocOrderEvent
    typealias ID = Int
    typealias Data = Purchase
}

final class FailureLog: Instrument {
    func actionFailed<D>(_ record: TransitionRecord<D>, error: any Error) {
        print("\(record.machineID): \(error)")
    }
}
let configuration = MachineConfiguration<OrderState>(instrument: FailureLog())

@Suite struct DocSnippetTests {
    /// The package root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every ```swift block of the doc comments of the library modules:
    /// where it is, and its lines without their indentation.
    static func docExamples() throws -> [(place: String, lines: [String])] {
        var examples: [(String, [String])] = []
        for folder in ["Sources/ActorFSM", "Sources/ActorFSMDurability", "Sources/ActorFSMDistribution", "Sources/ActorFSMTesting",
                       "Sources/ActorFSMSQLite", "Sources/ActorFSMPostgres"] {
            let base = root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files.sorted(by: { $0.path < $1.path }) {
                var block: [String]?
                for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n",
                                                                                         omittingEmptySubsequences: false).enumerated() {
                    let text = line.trimmingCharacters(in: .whitespaces)
                    guard text.hasPrefix("///") else { block = nil; continue }
                    let body = text.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    if body == "```swift" && block == nil { block = []; continue }
                    if body == "```", let lines = block {
                        let path = file.path.replacingOccurrences(of: root.path + "/", with: "")
                        examples.append(("\(path):\(number)", lines))
                        block = nil
                        continue
                    }
                    block?.append(body)
                }
            }
        }
        return examples
    }

    /// Every ```swift block of README.md, Docs/*.md and the articles of the modules' DocC
    /// catalogs, except those right after a line that starts with `<!-- not compiled`.
    static func guideExamples() throws -> [(place: String, lines: [String])] {
        let sources = root.appendingPathComponent("Sources")
        let catalogs = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil)
            .map { $0.appendingPathComponent($0.lastPathComponent + ".docc") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        var pages: [URL] = []
        for folder in [root.appendingPathComponent("Docs")] + catalogs {
            pages += try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "md" }
        }
        pages.sort { $0.path < $1.path }
        var examples: [(String, [String])] = []
        for page in [root.appendingPathComponent("README.md")] + pages {
            var block: [String]?
            var previous = ""
            for (number, line) in try String(contentsOf: page, encoding: .utf8).split(separator: "\n",
                                                                                    omittingEmptySubsequences: false).enumerated() {
                let text = String(line)
                defer { previous = text }
                if block == nil {
                    if text == "```swift" && !previous.hasPrefix("<!-- not compiled") { block = [] }
                    continue
                }
                if text == "```" {
                    let path = page.path.replacingOccurrences(of: root.path + "/", with: "")
                    examples.append(("\(path):\(number)", block ?? []))
                    block = nil
                    continue
                }
                block?.append(text.trimmingCharacters(in: .whitespaces))
            }
        }
        return examples
    }

    /// The lines of a test file, without their indentation.
    static func lines(of file: String) throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(file)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `example`'s lines, blank and `import` lines aside, appear in `file` in a row.
    static func contains(_ file: [String], _ example: [String]) -> Bool {
        let lines = example.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
        return file.indices.contains { start in
            var position = start
            for line in lines {
                while position < file.count && file[position].isEmpty { position += 1 }
                guard position < file.count, file[position] == line else { return false }
                position += 1
            }
            return true
        }
    }

    @Test func everyDocCommentExampleIsCompiledInThisFile() throws {
        let here = try Self.lines(of: "DocSnippetTests.swift")
        let examples = try Self.docExamples()
        #expect(examples.count >= 25, "the doc comments' examples were found")
        for example in examples {
            #expect(Self.contains(here, example.lines),
                    "the example at \(example.place) is not in DocSnippetTests.swift, verbatim")
        }
    }

    @Test func everyExampleOfTheGuidesIsCompiledInGuideSnippetTests() throws {
        let files = [try Self.lines(of: "GuideSnippetTests.swift"), try Self.lines(of: "ReadmeTests.swift")]
        let examples = try Self.guideExamples()
        #expect(examples.count >= 25, "the guides' examples were found")
        for example in examples {
            #expect(files.contains { Self.contains($0, example.lines) },
                    "the example at \(example.place) is not in GuideSnippetTests.swift or ReadmeTests.swift, verbatim")
        }
    }

    // MARK: - The examples, in their contexts

    func freeFunctions(resetable: SuperState<Turnstile>, s1: SuperState<Turnstile>) throws {
        _ = try Schema<Turnstile>(initial: .locked) {
            define(.locked, adopts: resetable, onEntry: [lock]) {
                when(.coin) | then(.unlocked)
            }
        }
        _ = try Schema<Orders>(initial: .paymentPending) {
            define(.paymentPending) {
                when(.paid) | then(.paid)
                after(.seconds(30)) | then(.cancelled) | refund
            }
        }
        _ = try Schema<Turnstile>(initial: .locked) {
            define(.locked, adopts: s1) {
                override { when(.coin) | then(.locked) | beGrumpy }
            }
        }
    }

    func defineWithSuperState() throws {
        _ = try Schema<Turnstile>(initial: .locked) {
            let resetable = SuperState<Turnstile> { when(.reset) | then(.locked) }
            define(.alarming, adopts: resetable, onEntry: [alarmOn], onExit: [alarmOff])
        }
    }

    func syntaxAliases() throws {
        typealias d = Syntax.Define<Turnstile>
        typealias w = Syntax.When<Turnstile>
        typealias t = Syntax.Then<Turnstile>

        let schema = try Schema<Turnstile>(initial: .locked) {
            d(.locked)   { w(.coin) | t(.unlocked) | unlock }
            d(.unlocked) { w(.pass) | t(.locked)   | lock }
        }
        _ = schema
    }

    func diagrams() {
        print(turnstile.dot(name: "Turnstile"))   // render with `dot -Tsvg`
    }

    func purging(store: SQLiteStore) async throws {
        let report = try await store.purge(MachineQuery().olderThan(.seconds(30 * 86_400)))
        print("purged \(report.purged) machines")
    }

    func waitingOutAPause(order: Machine<StoredOrders>) async throws {
        let record = try await order.send(.paid, whenPaused: .wait)
        _ = record
    }

    func actingOnAQuery(store: SQLiteStore) async throws {
        let failed = MachineQuery(status: .failed).olderThan(.seconds(600))
        let preview = try await store.act(.retry, on: failed, reason: "the provider is back", dryRun: true)
        print("\(preview.selected) machines to retry")
    }

    func actingOnAQuery(orders: Supervisor<StoredOrders>) async throws {
        let failed = MachineQuery(status: .failed)
        let preview = try await orders.act(.retry, on: failed, reason: "deployed the fix", dryRun: true)
        print("\(preview.selected) orders to retry: \(preview.firstIDs)")
        let report = try await orders.act(.retry, on: failed, reason: "deployed the fix")
        for failure in report.failures { print(failure.machine, failure.reason) }
    }

    func inspection(store: SQLiteStore) async throws {
        for count in try await store.stateCounts() { print(count.state, count.count) }
        let stuck = try await store.machines(MachineQuery(state: "paymentPending").olderThan(.seconds(3600)))
        let story = try await store.history(of: "o-1042")
        _ = (stuck, story)
    }

    func machineQuery(store: SQLiteStore) async throws {
        let stuck = try await store.machines(MachineQuery(state: "paymentPending").olderThan(.seconds(3600)))
        for machine in stuck.machines { print(machine.id, machine.summary.status) }
    }

    func postgresReader() async throws {
        let store = try PostgresReader(url: "postgresql://orders@db.internal/orders", namespace: "orders")
        for count in try await store.stateCounts() { print(count.state, count.count) }
    }

    func changeFollower(store: SQLiteReader) async throws {
        var follower = ChangeFollower(store: store)
        while true {
            for machine in try await follower.next() { print(machine.id, machine.summary.state) }
            try await Task.sleep(for: .seconds(1))
        }
    }

    func summaryAudit(store: SQLiteStore) async {
        let problems = await SummaryAudit.disagreements(in: store)
        #expect(problems.isEmpty, "\(problems)")
    }

    func sqliteReader() async throws {
        let store = try SQLiteReader(path: "orders.sqlite")
        for count in try await store.stateCounts() { print(count.state, count.count) }
    }

    func sqliteRequests(now: Int64) async throws {
        let requests = try SQLiteRequests(path: "orders.sqlite")
        let number = try await requests.submit(OperatorRequest(machine: "1042", schema: "OrderWorkflow", verb: .pause,
                                                               reason: "the address needs a check", time: now))
        _ = number
    }

    func askARequest() async throws {
        let requests = try SQLiteRequests(path: "orders.sqlite")
        let asked = OperatorRequest(machine: "1042", schema: "OrderWorkflow", verb: .pause,
                                    reason: "the address needs a check", time: 1_700_000_000_000)
        if case .answered(succeeded: false, let why) = try await requests.ask(asked, waitingAtMost: .seconds(30)) {
            print("refused: \(why)")
        }
    }

    func schemaDescription() {
        let description = SchemaDescription(turnstile, name: "Turnstile")
        print(description.dot(counts: ["locked": 12, "unlocked": 3]))
    }

    func subscription(machine: Machine<NumberedTurnstile>) async {
        let records = await machine.records()
        for await record in records { print(record) }
        print("dropped:", records.droppedCount)
    }

    func failurePolicy(orders: Schema<Orders>) {
        let machine = Machine(schema: orders, id: 42, configuration: .init(failurePolicy: .enter(.failed)))
        _ = machine
    }

    func machine() async throws {
        let gate = Machine(schema: turnstile, id: "gate-7")
        let record = try await gate.send(.coin)
        print(record.target)                          // unlocked
        try await gate.send(.pass, predicates: Enforcement.weak)
    }

    func machineError(machine: Machine<NumberedTurnstile>) async {
        do {
            try await machine.send(.coin)
        } catch {
            if error.kind == .actionFailed, let record = error.record {
                print("machine \(error.machineID) stayed \(record.target): \(error.underlying!)")
            }
        }
    }

    func schemas() throws {
        let turnstile = try Schema<Turnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | unlock
                when(.pass) | then(.locked)   | alarm
            }
            define(.unlocked) {
                when(.coin) | then(.unlocked) | thankyou
                when(.pass) | then(.locked)   | lock
            }
        }
        typealias OrderState = DocOrderState
        typealias OrderEvent = DocOrderEvent
        let order = try Schema<Orders>(initial: .placed, final: [.delivered, .cancelled]) {
            define(.placed) { when(.cancel) | then(.cancelled) }
        }
        _ = (turnstile, order)
    }

    func resolve(schema: Schema<Turnstile>) {
        switch schema.resolve(.pass, in: .locked, predicates: PredicateContext(Enforcement.weak)) {
        case .transition(let transition): print("to", transition.target)
        case .conditionFalse(let transition): print("blocked by a condition at", transition.location)
        case .unhandled(let reason): print(reason)
        }
        if case .unhandled(let reason) = schema.resolve(.pass, in: .locked), reason.kind == .missingPredicate {
            print(reason) // "no Enforcement predicate given; the transitions for this event depend on it"
        }
        let rushHour = PredicateContext(Enforcement.weak, Reward.positive)
        let resolution = schema.resolve(.pass, in: .locked, predicates: rushHour)
        _ = resolution
    }

    func schemaError() {
        do {
            _ = try Schema<Turnstile>(initial: .locked) { define(.locked) { when(.coin) | then(.unlocked) } }
        } catch {
            for diagnostic in error.diagnostics where diagnostic.kind == .logicalClash {
                print(diagnostic.locations)
            }
        }
    }

    func supervisor(orderSchema: Schema<Orders>) async throws {
        typealias OrderState = DocOrderState
        typealias OrderEvent = DocOrderEvent
        let orders = Supervisor<Orders>(schema: orderSchema)
        try orders.spawn(id: 42)
        try await orders.send(to: 42, .pay)
        for await report in orders.reports() { print(report) }
        await orders.shutdown()
    }

    func actions() throws {
        _ = try Schema<Turnstile>(initial: .locked) {
            define(.alarming, onEntry: [alarmOn], onExit: [alarmOff]) {
                when(.reset) | then(.locked) | alarmOff & lock
                when(.coin)  | then(.unlocked) | Actions { context in audit(context.eventDescription) }
            }
        }
    }

    func entryExitPolicy() throws {
        let schema = try Schema<Turnstile>(initial: .locked, entryExitPolicy: .executeAlways) {
            define(.locked) { when(.coin) | then(.locked) }
        }
        _ = schema
    }

    func matchingPredicates() throws {
        enum Enforcement: MatchingPredicate { case weak, strong }

        let schema = try Schema<Turnstile>(initial: .locked, final: [.alarming]) {
            define(.locked) {
                matching(Enforcement.weak)   | when(.pass) | then(.locked)
                matching(Enforcement.strong) | when(.pass) | then(.alarming)
            }
        }
        _ = schema
    }

    func scheduledEvent(machine: Machine<Orders>) throws {
        let reminder = try machine.schedule(.remind, after: .seconds(60))
        reminder.cancel()
    }

    func stateTask(catalogue: some DocCataloguePages) throws {
        _ = try Schema<CatalogueScreen>(initial: .loading) {
            define(.loading, running: StateTask {
                .loaded(try await catalogue.page(3))
            } onError: { error in
                .failed("\(error)")
            }) {
                when(.loaded) | then(.showing)
                when(.failed) | then(.showingError)
            }
            define(.showing) { when(.failed) | then(.showingError) }
            define(.showingError) { when(.loaded) | then(.showing) }
        }
    }

    func transitionContexts() throws {
        _ = try Schema<Turnstile>(initial: .locked) {
            define(.locked) {
                when(.coin) | then(.unlocked) | { (context: TransitionContext<Turnstile>) in
                    print("\(context.eventDescription) moved \(context.source) to \(context.target)")
                }
            }
        }
        _ = try Schema<Orders>(initial: .placed) {
            define(.placed) {
                when(.declined) | then(.waiting) | { context in try context.schedule(.retry, after: .seconds(5)) }
            }
        }
        _ = try Schema<Orders>(initial: .paid) {
            define(.paid) {
                when(.paid) | then(.paid) | { (context: TransitionContext<Orders>) in
                    try await warehouse.ship(order: context.id)
                }
            }
        }
        _ = try Schema<Orders>(initial: .paid, final: [.delivered]) {
            define(.paid) {
                retry(.fixed(.seconds(1), attempts: 3)) {
                    when(.paid) | then(.delivered) | { context in try await warehouse.ship(order: context.id) }
                }
            }
        }
    }

    func machineDefinition() throws {
        enum Turnstile: MachineDefinition {
            enum State: Hashable, Sendable { case locked, unlocked }
            enum Event: Hashable, Sendable { case coin, pass }
            typealias ID = Int
        }

        let schema = try Schema<Turnstile>(initial: .locked) {
            define(.locked) { when(.coin) | then(.unlocked) | { context in print("gate", context.id + 1) } }
            define(.unlocked) { when(.pass) | then(.locked) }
        }
        let gate = Machine(schema: schema, id: 7)
        _ = gate
    }

    func machineData(orders: Schema<PaidOrders>) throws {
        let order = Machine(schema: orders, id: 1042, data: Purchase(amount: 99, attempts: 0))
        _ = order
        _ = try Schema<PaidOrders>(initial: .placed) {
            define(.placed) {
                when(.declined) | then(.waiting) | { context in context.data.attempts += 1 }
                when(.retry) | then(.placed) | { context in
                    context.updateData { $0.attempts += 1; $0.lastError = nil }
                }
            }
        }
        _ = try Schema<PaidOrders>(initial: .placed) {
            define(.placed) {
                condition { (order: Purchase) in order.attempts < 3 } | when(.declined) | then(.paymentPending)
            }
        }
        _ = try Schema<PaidOrders>(initial: .paymentPending, final: [.failed]) {
            define(.paymentPending) {
                when(.declined) {
                    firstOf {
                        condition { (order: Purchase) in order.attempts < 3 } | then(.paymentPending) | update { $0.attempts += 1 }
                        otherwise() | then(.failed)
                    }
                }
            }
        }
        _ = try Schema<PaidOrders>(initial: .paymentPending, final: [.failed]) {
            define(.paymentPending) {
                firstOf {
                    condition { (order: Purchase) in order.attempts < 3 } | when(.declined) | then(.paymentPending)
                    otherwise() | when(.declined) | then(.failed)
                }
            }
        }
    }

    func dataUpdates() throws {
        _ = try Schema<CatalogueBrowser>(initial: .showing) {
            define(.showing) {
                when(.next) | then(.loading) | update { $0.page += 1 }
            }
            define(.loading) {
                when(.loaded) | then(.showing) | update { (screen: inout Catalogue, event: CatalogueEvent) in
                    if case .loaded(let items) = event { screen.items = items }
                }
            }
        }
    }

    func transitionFunction() throws {
        let counter = try Schema<Counter>(initial: .one, final: [.three]) { state, event in
            switch (state, event) {
            case (.one, .increment): .two
            case (.two, .increment): .three
            case (.two, .decrement): .one
            default: nil
            }
        }
        _ = counter
    }

    func postNext() throws {
        enum Charge: MachineDefinition {
            enum State: Hashable, Sendable { case charging, authorizing }
            enum Event: Hashable, Sendable { case authorize }
        }
        _ = try Schema<Charge>(initial: .charging, final: [.authorizing]) {
            define(.charging, onEntry: Actions { context in try context.postNext(.authorize) }) {
                when(.authorize) | then(.authorizing)
            }
        }
    }

    func postponing() throws {
        enum Shipment: MachineDefinition {
            enum State: Hashable, Sendable { case packing, ready }
            enum Event: Hashable, Sendable { case ship, packed }
        }
        _ = try Schema<Shipment>(initial: .packing, final: [.ready]) {
            define(.packing) {
                when(.ship) | postpone()              // shipping waits until packing is over
                when(.packed) | then(.ready)
            }
        }
    }

    func durability(orders: Schema<StoredOrders>, orderSchema: Schema<StoredOrders>, payments: DocPayments) async throws {
        let store = try SQLiteStore(path: "orders.sqlite")
        let order = try await Machine(schema: orders, id: "o-1042", data: Purchase(amount: 99, attempts: 0),
                                      durability: Durability(store: store))
        try await order.send(.submit)   // returns once the transition is durable

        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
        try await orders.restoreAll()
        try await orders.activate(id: "o-1042", data: Purchase(amount: 99, attempts: 0))

        let summary = try await orders.restoreAll()
        for failure in summary.failures { print("not restored: \(failure)") }
        try await readBack(orders: orders)

        let migration = SchemaMigration<StoredOrders>(
            state: { stored in
                switch try stored.decode(as: String.self) {
                case "awaitingPayment": .paymentPending
                default: nil
                }
            },
            data: { stored in Purchase(try stored.decode(as: PurchaseV1.self)) })
        _ = migration

        _ = try Schema<StoredOrders>(initial: .placed) {
            define(.placed) {
                when(.submit) | then(.paymentPending) | { context in
                    try await payments.charge(order: context.id, idempotencyKey: context.idempotencyKey)
                }
            }
        }
        _ = try Schema<StoredOrders>(initial: .placed) {
            define(.placed) {
                when(.submit) | then(.paymentPending) | retry(.exponential(initial: .milliseconds(100), maximum: .seconds(5), attempts: 5)) { context in
                    try await payments.charge(order: context.id, idempotencyKey: context.idempotencyKey)
                }
            }
        }
        let charging = RetryPolicy.exponential(initial: .milliseconds(100), maximum: .seconds(5), attempts: 5)
        _ = charging
    }

    func compatibility(orders: Supervisor<StoredOrders>) async throws {
        let report = try await orders.compatibility()
        for problem in report.problems { print(problem) }
    }

    func exportedDescription(orderSchema: Schema<StoredOrders>, durability: Durability<StoredOrders>) throws {
        let file = try StoredSchema(schema: orderSchema, durability: durability).json()
        _ = file
    }

    func replay(productionCopy: SQLiteStore, ordersV2: Schema<StoredOrders>, migration: SchemaMigration<StoredOrders>) async throws {
        let histories = try await StoredHistory.read(from: productionCopy, matching: MachineQuery(limit: 1_000))
        let replay = try Replay(histories, through: ordersV2, migration: migration, schemaVersion: 2)
        #expect(replay.divergences.isEmpty, "\(replay.divergences)")
    }

    func readBack(orders: Supervisor<StoredOrders>) async throws {
        let order = try await orders.restore(id: "o-1042")   // throws .unknownMachine if never made
        _ = order
    }

    func passivation(orderSchema: Schema<StoredOrders>, store: SQLiteStore) async throws {
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store),
                                    passivation: Passivation(afterIdle: .seconds(600), keepingAtMost: 100_000))
        await orders.passivateIdle(longerThan: .seconds(600), keepingAtMost: 100_000)
    }

    func history(orders: Schema<StoredOrders>, store: SQLiteStore) async throws {
        for entry in try await Durability(store: store).history(of: "o-1042", schema: orders) {
            print(entry.sequenceNumber, entry.kind, entry.state.map { "\($0)" } ?? "-")
        }
    }

    func inMemoryStore(orders: Schema<StoredOrders>) async throws {
        let store = InMemoryStore()
        let order = try await Machine(schema: orders, id: "o-7", data: Purchase(amount: 5, attempts: 0),
                                      durability: Durability(store: store))
        try await order.send(.pay)
        let restarted = store.crash()   // what a process that dies now leaves behind
        let again = try await Machine(schema: orders, id: "o-7", data: Purchase(amount: 5, attempts: 0),
                                      durability: Durability(store: restarted))
        _ = again
    }

    func sqliteStore(orderSchema: Schema<StoredOrders>) throws {
        let store = try SQLiteStore(path: "orders.sqlite")
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
        _ = orders
    }

    func distributedMachine(gates: Schema<Gates>) async throws {
        let system = LocalTestingDistributedActorSystem()   // or a cluster's system
        let gate = DistributedMachine(serving: Machine(schema: gates, id: "gate-7"), actorSystem: system)
        let remote = try DistributedMachine<Gates, LocalTestingDistributedActorSystem>.resolve(id: gate.id, using: system)
        let record = try await remote.send(.pass, predicates: PredicateContext(Enforcement.weak))
        _ = record
    }

    func distributedSupervisor(orderSchema: Schema<Orders>, system: LocalTestingDistributedActorSystem) async throws {
        let orders = DistributedSupervisor(serving: Supervisor(schema: orderSchema), actorSystem: system)
        let remote = try DistributedSupervisor<Orders, LocalTestingDistributedActorSystem>.resolve(id: orders.id, using: system)
        try await remote.send(to: 42, .pay)
    }

    func postgresStore(orderSchema: Schema<StoredOrders>) throws {
        let store = try PostgresStore(url: "postgresql://orders@db.internal/orders")
        let orders = try Supervisor(schema: orderSchema, durability: Durability(store: store))
        _ = orders
    }

    func postgresNamespaces(paymentSchema: Schema<StoredOrders>) throws {
        let paymentStore = try PostgresStore(url: "postgresql://orders@db.internal/orders", namespace: "payments")
        let payments = try Supervisor(schema: paymentSchema, durability: Durability(store: paymentStore))
        _ = payments
    }

    func temporaryPostgres() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let store = try PostgresStore(url: server.url)
        _ = store
    }

    func childProcess() throws {
        let worker = try ChildProcess(arguments: [ChildProcess.currentExecutable, "--worker"]) { line in
            print("worker said:", line ?? "(ended)")
        }
        worker.send("quit")
        worker.wait()
    }

    func childMachines() throws {
        enum Payment: MachineDefinition {
            enum State: Hashable, Sendable { case authorizing, captured, declined, voided }
            enum Event: Hashable, Sendable { case capture, decline, cancel }
            struct Data: Sendable { var amount: Int }
        }
        enum Shop: MachineDefinition {
            enum State: Hashable, Sendable { case placed, paying, shipped, cancelled }
            enum Event: Hashable, Sendable { case pay, paid, declined }
            struct Data: Sendable { var amount: Int }
        }
        let paymentSchema = try Schema<Payment>(initial: .authorizing, final: [.captured, .declined, .voided]) {
            define(.authorizing) {
                when(.capture) | then(.captured)
                when(.decline) | then(.declined)
                when(.cancel) | then(.voided)
            }
        }

        let payments = Supervisor(schema: paymentSchema)
        let orders = try Schema<Shop>(initial: .placed, final: [.shipped, .cancelled]) {
            define(.placed) { when(.pay) | then(.paying) }
            define(.paying, running: .child(in: payments, id: { "pay-\($0.id)" }, data: { Payment.Data(amount: $0.data.amount) },
                                            cancelling: .cancel,
                                            done: { state, _ in state == .captured ? .paid : .declined },
                                            failed: { _ in .declined })) {
                when(.paid) | then(.shipped)
                when(.declined) | then(.cancelled)
            }
        }
        _ = orders
    }

    func replayRunningActions(
        histories: [StoredHistory], ordersWithDoubles: Schema<StoredOrders>, migration: SchemaMigration<StoredOrders>
    ) async throws {
        let replay = try await Replay(histories, through: ordersWithDoubles, migration: migration, schemaVersion: 2,
                                      runningActions: true)
        #expect(replay.divergences.isEmpty, "\(replay.divergences)")
    }

    func generatedPaths() async throws {
        let paths = GeneratedPaths(turnstile)
        let coverage = try await paths.run { path, clock in
            Machine(schema: turnstile, id: "gate-\(path.index)", configuration: MachineConfiguration(clock: clock))
        } checking: { machine, record in
            #expect(record.outcome.isTransitioned)
        }
        #expect(coverage.uncovered.isEmpty, "\(coverage)")
    }

    func manualClock(payment: Schema<Orders>) async {
        let clock = ManualClock()
        let machine = Machine(schema: payment, id: 1, configuration: MachineConfiguration(clock: clock))
        var records = await machine.records().makeAsyncIterator()
        clock.advance(by: .seconds(30))
        let timedOut = await records.next()   // origin: .timeout(after: .seconds(30))
        _ = timedOut
    }
}

/// The store of the conformance example: a SQLite file in a folder of its own.
typealias MyStore = SQLiteStore

/// A new file's path in the temporary folder, for the conformance example.
func temporaryPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).sqlite").path
}

/// The conformance example, run as a test.
@Suite struct DocStoreConformanceExample {
    @Test func myStoreKeepsTheContract() async throws {
        let conformance = StoreConformance(makeStore: { try MyStore(path: temporaryPath()) })
        try await conformance.verify()
    }
}

/// A catalogue that serves pages, for the state task example.
protocol DocCataloguePages: Sendable {
    func page(_ number: Int) async throws -> [String]
}
