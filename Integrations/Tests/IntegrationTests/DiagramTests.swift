import ActorFSM
@testable import ActorFSMInspector
import Testing

@Suite struct DiagramTests {
    @Test func namesFromTheStoreAreEscapedInTheDiagram() {
        let hostile = "<img src=x onerror=\"alert(1)\">&"
        let description = SchemaDescription(
            name: "Hostile", initial: 0,
            states: [SchemaDescription.State(name: hostile, notes: ["<script>note</script>"]), SchemaDescription.State(name: "done", isFinal: true)],
            transitions: [SchemaDescription.Transition(source: 0, target: 1, label: "go [\"<b>\"]")])
        let svg = DiagramSVG(description, counts: [hostile: 2]).text
        #expect(!svg.contains("<img") && !svg.contains("<script>") && !svg.contains("<b>"))
        #expect(svg.contains("data-state=\"&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;\""))
        #expect(svg.contains("&lt;script&gt;note&lt;/script&gt;"))
        #expect(svg.contains("go [&quot;&lt;b&gt;&quot;]"))
    }

    @Test func oddButValidSchemasAreDrawn() {
        let lonely = SchemaDescription(name: "One", initial: 0, states: [SchemaDescription.State(name: "only")], transitions: [])
        #expect(DiagramSVG(lonely, counts: [:]).text.contains("data-state=\"only\""))
        let looping = SchemaDescription(
            name: "Loops", initial: 1,
            states: [SchemaDescription.State(name: "unreached"), SchemaDescription.State(name: "start")],
            transitions: [SchemaDescription.Transition(source: 1, target: 1, label: "again"),
                          SchemaDescription.Transition(source: 0, target: 1, label: "in")])
        let layout = DiagramLayout(looping)
        #expect(layout.boxes.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.width <= layout.width })
        #expect(DiagramSVG(looping, counts: ["start": 1]).text.contains(">again</tspan>"))
    }

    /// The order example's schema, as its store describes it: several arrows leave one state.
    static let orders = SchemaDescription(
        name: "OrderWorkflow", initial: 0,
        states: ["placed", "payment pending", "paid", "shipping", "delivered", "cancelled", "payment failed", "payment expired"]
            .map { SchemaDescription.State(name: $0, isFinal: ["delivered", "cancelled", "payment failed", "payment expired"].contains($0)) },
        transitions: [(0, 1, "submit"), (0, 5, "cancel"), (1, 2, "paymentSucceeded"), (1, 6, "paymentDeclined"),
                      (1, 7, "paymentTimedOut"), (1, 5, "cancel"), (2, 3, "ship"), (2, 5, "cancel"), (3, 4, "delivered")]
            .map { SchemaDescription.Transition(source: $0.0, target: $0.1, label: $0.2) })

    @Test func transitionLabelsOverlapNeitherEachOtherNorStates() {
        let layout = DiagramLayout(Self.orders)
        let back = layout.backArrows
        let routes = layout.arrows.indices.map { DiagramSVG.route(layout.arrows[$0], layout: layout, level: back.firstIndex(of: $0)) }
        let labels = DiagramLabels.place(routes.map(\.label), avoiding: layout.boxes, height: layout.height)
        for (index, label) in labels.enumerated() {
            for other in labels[..<index] {
                #expect(!label.overlaps(other.frame), "\(label.lines) overlaps \(other.lines)")
            }
            let states = layout.boxes.map { (left: $0.x, top: $0.y, right: $0.x + $0.width, bottom: $0.y + $0.height) }
            #expect(!states.contains(where: label.overlaps), "\(label.lines) overlaps a state")
        }
        // Before they were moved, some did overlap: the test shows the placement at work.
        let unmoved = routes.map(\.label)
        let clashes = unmoved.indices.contains { index in unmoved[..<index].contains { unmoved[index].overlaps($0.frame) } }
        #expect(clashes)
    }

    @Test func aDamagedDescriptionIsNotDrawn() {
        let empty = SchemaDescription(name: "Empty", initial: 0, states: [], transitions: [])
        #expect(DiagramLayout.damage(in: empty) == "it has no state")
        let astray = SchemaDescription(name: "Astray", initial: 3, states: [SchemaDescription.State(name: "a")], transitions: [])
        #expect(DiagramLayout.damage(in: astray) == "its initial state 3 is not one of its states")
        let dangling = SchemaDescription(
            name: "Dangling", initial: 0, states: [SchemaDescription.State(name: "a")],
            transitions: [SchemaDescription.Transition(source: 0, target: 5, label: "go")])
        #expect(DiagramLayout.damage(in: dangling) == "its transition go joins states it does not have")
    }
}
