@testable import ActorFSM
import Testing
import TestSupport

/// Locations the DSL records keep the `#fileID` literal; they must compare, hash and sort like
/// locations made from text.
@Suite struct SourceLocationTests {
    @Test func aLiteralAndTheSameTextAreOneLocation() {
        let literal = SourceLocation("Orders/Checkout.swift", 12)
        let text = SourceLocation(fileID: "Orders/Checkout.swift", line: 12)
        #expect(literal == text)
        #expect(literal.hashValue == text.hashValue)
        #expect(Set([literal, text]).count == 1)
        #expect(literal.description == "Orders/Checkout.swift:12")
        #expect(literal != SourceLocation(fileID: "Orders/Checkout.swift", line: 13))
        #expect(literal != SourceLocation(fileID: "Orders/Checkout.swif", line: 12))
    }

    @Test func locationsSortByFileThenLine() {
        let locations = [
            SourceLocation("B/File.swift", 1), SourceLocation(fileID: "A/File.swift", line: 30),
            SourceLocation("A/File.swift", 4), SourceLocation(fileID: "A/Filename.swift", line: 1),
        ]
        #expect(locations.sorted().map(\.description)
                == ["A/File.swift:4", "A/File.swift:30", "A/Filename.swift:1", "B/File.swift:1"])
    }
}
