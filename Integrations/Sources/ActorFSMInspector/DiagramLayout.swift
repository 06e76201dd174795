import ActorFSM

/// Where a schema's diagram puts its states and arrows: states in columns by how many
/// transitions from the initial state they are, left to right; arrows merged per pair of
/// states, their labels stacked.
struct DiagramLayout {
    /// A state's box.
    struct Box {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
        var column: Int

        var midX: Double { x + width / 2 }
        var midY: Double { y + height / 2 }
    }

    /// The transitions from one state to another (or to itself), as one arrow.
    struct Arrow {
        var source: Int
        var target: Int
        var labels: [String]
    }

    static let characterWidth = 7.2
    static let boxHeight = 50.0
    static let noteHeight = 14.0
    static let rowGap = 36.0
    static let margin = 24.0

    var boxes: [Box]
    var arrows: [Arrow]
    var width: Double
    var height: Double

    /// What keeps `description` from being drawn, if anything: a description read from a
    /// store is not checked when it is decoded.
    static func damage(in description: SchemaDescription) -> String? {
        let states = description.states.indices
        if states.isEmpty { return "it has no state" }
        if !states.contains(description.initial) { return "its initial state \(description.initial) is not one of its states" }
        if let transition = description.transitions.first(where: { !states.contains($0.source) || !states.contains($0.target) }) {
            return "its transition \(transition.label) joins states it does not have"
        }
        return nil
    }

    /// The layout of `description`, which ``damage(in:)`` finds nothing wrong with.
    init(_ description: SchemaDescription) {
        arrows = Self.arrows(of: description)
        let (columns, order) = Self.columns(of: description)
        boxes = description.states.indices.map { index in
            let state = description.states[index]
            let longest = ([state.name] + state.notes).map(\.count).max() ?? 0
            let height = Self.boxHeight + Double(state.notes.count) * Self.noteHeight
            return Box(x: 0, y: 0, width: max(110, Double(longest) * Self.characterWidth + 28), height: height, column: columns[index])
        }
        (width, height) = (0, 0)
        place(order: order)
    }

    /// Puts each column's boxes one under another, and the columns far enough apart for the
    /// labels of the arrows that leave them.
    private mutating func place(order: [Int]) {
        let columnCount = (boxes.map(\.column).max() ?? 0) + 1
        var x = Self.margin + 20
        for column in 0..<columnCount {
            let members = order.filter { boxes[$0].column == column }
            let columnWidth = members.map { boxes[$0].width }.max() ?? 0
            var y = Self.margin + topRoom
            for index in members {
                boxes[index].x = x + (columnWidth - boxes[index].width) / 2
                boxes[index].y = y
                y += boxes[index].height + Self.rowGap
            }
            height = max(height, y)
            x += columnWidth + gap(after: column)
        }
        width = x
        height += bottomRoom
    }

    /// The room above the boxes for arrows that go back to an earlier column or stay in one.
    var topRoom: Double {
        let back = backArrows
        let lines = back.map { min(arrows[$0].labels.count, 4) }.max() ?? 0
        return back.isEmpty ? 0 : Double(back.count) * 22 + 30 + Double(lines) * 13
    }

    /// The room below the boxes for the labels of arrows a state sends to itself.
    var bottomRoom: Double {
        let lines = arrows.filter { $0.source == $0.target }.map(\.labels.count).max() ?? 0
        return lines == 0 ? Self.margin : Double(lines) * 13 + 40
    }

    /// Arrows drawn over the top: those that close a cycle, to an earlier column.
    var backArrows: [Int] {
        arrows.indices.filter { index in
            let arrow = arrows[index]
            return arrow.source != arrow.target && boxes[arrow.target].column <= boxes[arrow.source].column
        }
    }

    private func gap(after column: Int) -> Double {
        let labels = arrows.filter { boxes[$0.source].column == column && boxes[$0.target].column > column }.flatMap(\.labels)
        let longest = labels.map(\.count).max() ?? 0
        return min(max(90, Double(longest) * Self.characterWidth * 0.8 + 40), 300)
    }

    /// Each state's column and the order states are placed in.
    ///
    /// A depth-first walk from the initial state (then from any state it does not reach) finds
    /// the transitions that close a cycle; without them the transitions form no cycle, and
    /// each state goes one column after the furthest of the states that lead to it, so that
    /// the other arrows all point right. Within a column, states come in the order the walk
    /// reached them.
    private static func columns(of description: SchemaDescription) -> (columns: [Int], order: [Int]) {
        let count = description.states.count
        var successors = [[Int]](repeating: [], count: count)
        for transition in description.transitions where transition.source != transition.target
            && !successors[transition.source].contains(transition.target) {
            successors[transition.source].append(transition.target)
        }
        var walk = Walk(successors: successors)
        let roots = [description.initial] + Array(0..<count)
        for root in roots where description.states.indices.contains(root) { walk.visit(root) }
        var columns = [Int](repeating: 0, count: count)
        for state in walk.finished.reversed() {
            for target in successors[state] where !walk.closesCycle(state, target) {
                columns[target] = max(columns[target], columns[state] + 1)
            }
        }
        let order = walk.reached.sorted { (columns[$0], walk.rank[$0]) < (columns[$1], walk.rank[$1]) }
        return (columns, order)
    }

    /// A depth-first walk over the states: the order it reaches and finishes them, and which
    /// transitions lead back to a state still being walked.
    private struct Walk {
        let successors: [[Int]]
        var reached: [Int] = []
        var rank: [Int]
        var finished: [Int] = []
        var onPath: [Bool]
        var backward: Set<[Int]> = []

        init(successors: [[Int]]) {
            self.successors = successors
            rank = Array(repeating: -1, count: successors.count)
            onPath = Array(repeating: false, count: successors.count)
        }

        func closesCycle(_ source: Int, _ target: Int) -> Bool { backward.contains([source, target]) }

        mutating func visit(_ state: Int) {
            guard rank[state] < 0 else { return }
            rank[state] = reached.count
            reached.append(state)
            onPath[state] = true
            for target in successors[state] {
                if onPath[target] { backward.insert([state, target]) } else { visit(target) }
            }
            onPath[state] = false
            finished.append(state)
        }
    }

    private static func arrows(of description: SchemaDescription) -> [Arrow] {
        var arrows: [Arrow] = []
        for transition in description.transitions {
            if let index = arrows.firstIndex(where: { $0.source == transition.source && $0.target == transition.target }) {
                if !arrows[index].labels.contains(transition.label) { arrows[index].labels.append(transition.label) }
            } else {
                arrows.append(Arrow(source: transition.source, target: transition.target, labels: [transition.label]))
            }
        }
        return arrows
    }
}
