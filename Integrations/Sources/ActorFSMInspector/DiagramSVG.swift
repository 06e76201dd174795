import ActorFSM

/// A schema's diagram as SVG, with the number of machines on each state.
///
/// Each state is a `g` of class `state` (and `final`, `initial`, `occupied` where they apply)
/// whose `data-state` attribute holds its name; the count is the text of class `count` in it,
/// which the page's script updates in place.
struct DiagramSVG {
    let text: String

    init(_ description: SchemaDescription, counts: [String: Int]) {
        let layout = DiagramLayout(description)
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="\(Int(layout.width))" height="\(Int(layout.height))" \
            viewBox="0 0 \(Int(layout.width)) \(Int(layout.height))" font-family="system-ui, sans-serif" font-size="12">
            <defs><marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">\
            <path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>

            """
        svg += Self.initialMark(layout.boxes[description.initial])
        let back = layout.backArrows
        let routes = layout.arrows.indices.map { Self.route(layout.arrows[$0], layout: layout, level: back.firstIndex(of: $0)) }
        let labels = DiagramLabels.place(routes.map(\.label), avoiding: layout.boxes, height: layout.height)
        for (route, label) in zip(routes, labels) { svg += Self.arrow(path: route.path, label: label) }
        for (index, state) in description.states.enumerated() {
            svg += Self.state(state, box: layout.boxes[index], count: counts[state.name] ?? 0, isInitial: index == description.initial)
        }
        text = svg + "</svg>\n"
    }

    private static func initialMark(_ box: DiagramLayout.Box) -> String {
        let y = format(box.midY)
        return "<circle cx=\"\(format(box.x - 30))\" cy=\"\(y)\" r=\"5\" fill=\"#333\"/>"
            + "<path d=\"M\(format(box.x - 25)),\(y) L\(format(box.x - 2)),\(y)\" stroke=\"#555\" fill=\"none\" marker-end=\"url(#arrowhead)\"/>\n"
    }

    private static func state(_ state: SchemaDescription.State, box: DiagramLayout.Box, count: Int, isInitial: Bool) -> String {
        var classes = "state"
        if state.isFinal { classes += " final" }
        if isInitial { classes += " initial" }
        if count > 0 { classes += " occupied" }
        let name = escaped(state.name)
        var svg = "<g class=\"\(classes)\" data-state=\"\(name)\">"
        svg += "<rect x=\"\(format(box.x))\" y=\"\(format(box.y))\" width=\"\(format(box.width))\" height=\"\(format(box.height))\" "
            + "rx=\"10\" fill=\"\(count > 0 ? "#e8f1ff" : "#f7f7f7")\" stroke=\"#345\" stroke-width=\"\(state.isFinal ? 3 : 1.2)\"/>"
        svg += "<text x=\"\(format(box.midX))\" y=\"\(format(box.y + 20))\" text-anchor=\"middle\" font-weight=\"600\">\(name)</text>"
        svg += "<text class=\"count\" x=\"\(format(box.midX))\" y=\"\(format(box.y + 38))\" text-anchor=\"middle\" "
            + "fill=\"#0b57d0\">\(count)</text>"
        for (line, note) in state.notes.enumerated() {
            let y = box.y + DiagramLayout.boxHeight + Double(line) * DiagramLayout.noteHeight - 2
            svg += "<text x=\"\(format(box.midX))\" y=\"\(format(y))\" text-anchor=\"middle\" fill=\"#666\" font-size=\"10\">"
                + "\(escaped(note))</text>"
        }
        return svg + "</g>\n"
    }

    /// The path of `arrow`, and where its label goes before any is moved out of another's way.
    static func route(
        _ arrow: DiagramLayout.Arrow, layout: DiagramLayout, level: Int?
    ) -> (path: String, label: DiagramLabels.Label) {
        let source = layout.boxes[arrow.source], target = layout.boxes[arrow.target]
        let lines = shown(arrow.labels)
        let path: String
        let label: (x: Double, y: Double)
        if arrow.source == arrow.target {
            let (left, right, bottom) = (source.midX - 18, source.midX + 18, source.y + source.height)
            path = "M\(format(right)),\(format(bottom)) C\(format(right + 22)),\(format(bottom + 34)) "
                + "\(format(left - 22)),\(format(bottom + 34)) \(format(left)),\(format(bottom + 2))"
            label = (source.midX, bottom + 40)
        } else if let level {
            let top = min(source.y, target.y) - 30 - Double(level) * 22
            path = "M\(format(source.midX + 8)),\(format(source.y)) C\(format(source.midX + 8)),\(format(top)) "
                + "\(format(target.midX - 8)),\(format(top)) \(format(target.midX - 8)),\(format(target.y - 2))"
            let apex = 0.25 * min(source.y, target.y) + 0.75 * top
            label = ((source.midX + target.midX) / 2, apex - 4 - Double(lines.count - 1) * 13)
        } else {
            let (startX, startY) = (source.x + source.width, source.midY)
            let (endX, endY) = (target.x - 2, target.midY)
            let bend = (endX - startX) / 2
            path = "M\(format(startX)),\(format(startY)) C\(format(startX + bend)),\(format(startY)) "
                + "\(format(endX - bend)),\(format(endY)) \(format(endX)),\(format(endY))"
            label = ((startX + endX) / 2, (startY + endY) / 2 - 6 - Double(lines.count - 1) * 13)
        }
        return (path, DiagramLabels.Label(x: label.x, y: label.y, lines: lines))
    }

    private static func arrow(path: String, label: DiagramLabels.Label) -> String {
        var svg = "<g class=\"transition\"><path d=\"\(path)\" stroke=\"#555\" fill=\"none\" marker-end=\"url(#arrowhead)\"/>"
        svg += "<text x=\"\(format(label.x))\" y=\"\(format(label.y))\" text-anchor=\"middle\" fill=\"#222\" font-size=\"11\" "
            + "paint-order=\"stroke\" stroke=\"#fff\" stroke-width=\"3\">"
        for (line, text) in label.lines.enumerated() {
            svg += "<tspan x=\"\(format(label.x))\" dy=\"\(line == 0 ? 0 : 13)\">\(escaped(text))</tspan>"
        }
        return svg + "</text></g>\n"
    }

    /// At most four labels of an arrow; more are counted.
    private static func shown(_ labels: [String]) -> [String] {
        labels.count <= 4 ? labels : Array(labels.prefix(3)) + ["and \(labels.count - 3) more"]
    }

    private static func format(_ value: Double) -> String { String(Int(value.rounded())) }

    /// `text` with the characters XML gives a meaning escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
