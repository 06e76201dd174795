import ActorFSM
import ExampleSchemas
import Foundation
import Testing
import TestSupport

/// A state whose description needs escaping in both formats.
enum Quoted: Hashable, Sendable, CustomStringConvertible {
    case plain, tricky
    var description: String { self == .plain ? "plain" : "say \"hi\": now; \\ done" }
}

/// A table whose state names need escaping.
enum QuotedTable: MachineDefinition {
    typealias State = Quoted
    typealias Event = Turnstile.Event
}

@Suite struct DiagramTests {
    /// The expected output, kept in Tests/ActorFSMTests/Diagrams/Golden.
    func golden(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
        return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func theTurnstileDrawsAsItsGoldenMermaidDiagram() throws {
        #expect(try TurnstileExample.schema().mermaid() == golden("turnstile.mmd"))
    }

    @Test func theTurnstileDrawsAsItsGoldenDOTDiagram() throws {
        #expect(try TurnstileExample.schema().dot(name: "Turnstile") == golden("turnstile.dot"))
    }

    @Test func conditionsOrAlternativesAndOddLabelsAreDrawnAndEscaped() throws {
        let schema = try Schema<QuotedTable>(initial: .plain, final: [.tricky]) {
            define(.plain) {
                matching(Enforcement.weak, or: Enforcement.strong, and: Reward.positive) | when(.coin) | then(.tricky)
                condition { true } | when(.pass) | then()
            }
        }
        #expect(schema.mermaid() == (try golden("escaping.mmd")))
        #expect(schema.dot() == (try golden("escaping.dot")))
    }

    @Test func theSameSchemaAlwaysGivesTheSameText() throws {
        let first = try TurnstileExample.schema()
        let second = try TurnstileExample.schema()
        #expect(first.mermaid() == second.mermaid())
        #expect(first.dot() == second.dot())
    }
}
