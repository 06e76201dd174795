import ActorFSM
import ActorFSMDurability
import ActorFSMInspector
import ActorFSMSQLite
import Foundation
import Hummingbird
import Testing

// The inspector's examples in the Operations article of ActorFSMDurability and in Inspector's documentation, verbatim,
// where the compiler checks them against Hummingbird; the tests below check each is here.

enum InspectorGuideExamples {
    static func servedAlone() async throws {
        let inspector = Inspector(store: try SQLiteReader(path: "orders.sqlite"), title: "Orders")
        try await inspector.application(port: 8080).runService()
    }

    static func mounted(_ inspector: Inspector) -> some ApplicationProtocol {
        let router = Router()
        inspector.addRoutes(to: router.group("ops/inspector"))
        let application = Application(router: router, configuration: ApplicationConfiguration(address: .hostname("0.0.0.0", port: 8080)))
        return application
    }

    static func actingThroughTheSupervisor(_ orders: Supervisor<Shop>, reader: SQLiteReader, token: String) -> Inspector {
        let actions = InspectorActions(token: token, supervisor: orders)
        let inspector = Inspector(store: reader, title: "Orders", actions: actions)
        return inspector
    }

    static func actingThroughTheStore() throws -> Inspector {
        let actions = InspectorActions(opening: { try SQLiteStore(path: "orders.sqlite") }, closing: { $0.close() },
                                       asking: { try SQLiteRequests(path: "orders.sqlite") })
        print("Actions: http://127.0.0.1:8080/#token=\(actions.token)")
        let inspector = Inspector(store: try SQLiteReader(path: "orders.sqlite"), title: "Orders", actions: actions)
        return inspector
    }
}

@Suite struct InspectorGuideTests {
    @Test func everyExampleOfTheGuideMarkedAsHeldHereIsHereVerbatim() throws {
        let examples = try GuideBlocks.examples(in: "Sources/ActorFSMDurability/ActorFSMDurability.docc/Operations.md", heldBy: "InspectorGuideTests.swift")
        #expect(examples.count == 3)
        for example in examples {
            #expect(try GuideBlocks.file(#filePath, holds: example),
                    "an example of Operations.md is not in InspectorGuideTests.swift: \(example.first ?? "")")
        }
    }

    @Test func everyExampleOfTheInspectorsDocumentationIsHereVerbatim() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ActorFSMInspector")
        var examples: [[String]] = []
        var block: [String]?
        let text = try ["Inspector.swift", "InspectorActions.swift"]
            .map { try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
        for line in text.split(separator: "\n").map(String.init) {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("///") else { continue }
            let comment = String(text.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            if block == nil {
                if comment == "```swift" { block = [] }
            } else if comment == "```" {
                examples.append(block ?? [])
                block = nil
            } else if !comment.isEmpty {
                block?.append(comment)
            }
        }
        #expect(examples.count == 3)
        for example in examples {
            #expect(try GuideBlocks.file(#filePath, holds: example),
                    "an example of Inspector's documentation is not in InspectorGuideTests.swift: \(example.first ?? "")")
        }
    }
}
