extension Schema {
    /// The schema as a Graphviz DOT digraph, in the schema's stable order.
    ///
    /// States are labelled with their `description`. A point-shaped start node points at the
    /// initial state. Each flattened transition is an edge labelled with its event, its predicates
    /// (`[Enforcement.weak]`) and `(condition)` if it has one; `then()` and self-transitions are
    /// loops, and inherited transitions appear on every state that adopts them. Entry and exit
    /// actions are counted under the state's name.
    ///
    /// ```swift
    /// print(turnstile.dot(name: "Turnstile"))   // render with `dot -Tsvg`
    /// ```
    public func dot(name: String = "Schema") -> String {
        let model = DiagramModel(self)
        var lines = ["digraph \(DOT.quote(name)) {", "    rankdir=LR;", "    node [shape=box, style=rounded];",
                     "    __start [shape=point, label=\"\"];"]
        for node in model.nodes {
            let label = ([node.label] + node.notes).map(DOT.escape).joined(separator: "\\n")
            lines.append("    \(node.id) [label=\"\(label)\"];")
        }
        lines.append("    __start -> \(model.initial);")
        for edge in model.edges {
            lines.append("    \(edge.from) -> \(edge.to) [label=\"\(DOT.escape(edge.label))\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The schema as a Mermaid `stateDiagram-v2`, which GitHub renders in Markdown.
    ///
    /// The content is that of ``dot(name:)``: a start arrow, one edge per flattened transition
    /// with its event, predicates and condition marker, loops for `then()`, and a note per state
    /// with entry or exit actions.
    public func mermaid() -> String {
        let model = DiagramModel(self)
        var lines = ["stateDiagram-v2"]
        for node in model.nodes { lines.append("    state \"\(Mermaid.escape(node.label))\" as \(node.id)") }
        lines.append("    [*] --> \(model.initial)")
        for edge in model.edges { lines.append("    \(edge.from) --> \(edge.to) : \(Mermaid.escape(edge.label))") }
        for node in model.nodes where !node.notes.isEmpty {
            lines.append("    note right of \(node.id)")
            lines += node.notes.map { "        \(Mermaid.escape($0))" }
            lines.append("    end note")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Escaping for Graphviz DOT strings.
enum DOT {
    static func escape(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }

    static func quote(_ text: String) -> String { "\"\(escape(text))\"" }
}

/// Escaping for Mermaid labels: characters that end a label or a statement become entity codes.
enum Mermaid {
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case ":": escaped += "#58;"
            case ";": escaped += "#59;"
            case "\"": escaped += "#quot;"
            case "\n": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
