/// A schema reduced to what a diagram draws, in the schema's own stable order: the same schema
/// always gives the same text.
struct DiagramModel {
    struct Node {
        let id: String
        let label: String
        let notes: [String]
    }

    struct Edge {
        let from: String
        let to: String
        let label: String
    }

    let initial: String
    let nodes: [Node]
    let edges: [Edge]

    init<Definition: MachineDefinition>(_ schema: Schema<Definition>) {
        let storage = schema.storage
        let ids = storage.states.indices.map { "s\($0)" }
        initial = ids[Int(storage.initial)]
        nodes = storage.states.indices.map { index in
            var notes: [String] = []
            let entry = storage.actions.entryActions[index].count
            let exit = storage.actions.exitActions[index].count
            if entry > 0 { notes.append("\(entry) entry action\(entry == 1 ? "" : "s")") }
            if exit > 0 { notes.append("\(exit) exit action\(exit == 1 ? "" : "s")") }
            notes += storage.timers.stateTasks[index].compactMap { $0.child?.label }
            return Node(id: ids[index], label: "\(storage.states[index])", notes: notes)
        }
        edges = schema.transitions.map { transition in
            let compiled = transition.compiled
            let requirements = transition.predicates.map(\.description)
            var label = transition.eventDescription
            if !requirements.isEmpty { label += " [\(requirements.joined(separator: ", "))]" }
            switch (transition.alternative, transition.hasCondition) {
            case (let rank?, true): label += " (\(rank + 1). condition)"
            case (let rank?, false): label += " (\(rank + 1). otherwise)"
            case (nil, true): label += " (condition)"
            case (nil, false): break
            }
            if transition.postpones { label += " (postponed)" }
            return Edge(from: ids[Int(compiled.source)], to: ids[Int(compiled.target)], label: label)
        }
    }
}
