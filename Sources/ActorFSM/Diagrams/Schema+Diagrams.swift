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
        SchemaDescription(self).dot(name: name)
    }

    /// The schema as a Mermaid `stateDiagram-v2`, which GitHub renders in Markdown.
    ///
    /// The content is that of ``dot(name:)``: a start arrow, one edge per flattened transition
    /// with its event, predicates and condition marker, loops for `then()`, and a note per state
    /// with entry or exit actions.
    public func mermaid() -> String {
        SchemaDescription(self).mermaid()
    }
}

extension SchemaDescription {
    /// The schema as a Graphviz DOT digraph, as ``Schema/dot(name:)`` draws it, with the number
    /// of machines in each state of `counts` (keyed by state name) under that state's name.
    ///
    /// - Parameters:
    ///   - name: the graph's name; the definition's name by default.
    ///   - counts: how many machines are in each state; states not in it show no count.
    public func dot(name: String? = nil, counts: [String: Int] = [:]) -> String {
        var lines = ["digraph \(DOT.quote(name ?? self.name)) {", "    rankdir=LR;", "    node [shape=box, style=rounded];",
                     "    __start [shape=point, label=\"\"];"]
        for (index, state) in states.enumerated() {
            var parts = [state.name] + state.notes
            if let count = counts[state.name] { parts.append(Self.machines(count)) }
            lines.append("    s\(index) [label=\"\(parts.map(DOT.escape).joined(separator: "\\n"))\"];")
        }
        lines.append("    __start -> s\(initial);")
        for edge in transitions {
            lines.append("    s\(edge.source) -> s\(edge.target) [label=\"\(DOT.escape(edge.label))\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The schema as a Mermaid `stateDiagram-v2`, as ``Schema/mermaid()`` draws it, with the
    /// number of machines in each state of `counts` (keyed by state name) after its name.
    ///
    /// - Parameter counts: how many machines are in each state; states not in it show no count.
    public func mermaid(counts: [String: Int] = [:]) -> String {
        var lines = ["stateDiagram-v2"]
        for (index, state) in states.enumerated() {
            let label = counts[state.name].map { "\(state.name) (\(Self.machines($0)))" } ?? state.name
            lines.append("    state \"\(Mermaid.escape(label))\" as s\(index)")
        }
        lines.append("    [*] --> s\(initial)")
        for edge in transitions { lines.append("    s\(edge.source) --> s\(edge.target) : \(Mermaid.escape(edge.label))") }
        for (index, state) in states.enumerated() where !state.notes.isEmpty {
            lines.append("    note right of s\(index)")
            lines += state.notes.map { "        \(Mermaid.escape($0))" }
            lines.append("    end note")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func machines(_ count: Int) -> String {
        "\(count) machine\(count == 1 ? "" : "s")"
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
