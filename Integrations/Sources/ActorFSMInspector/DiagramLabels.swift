/// Where a diagram's transition labels go: each at its arrow's own place, moved up or down a
/// line at a time until it overlaps no label placed before it and no state.
struct DiagramLabels {
    /// One arrow's label: its lines, centred on `x`, the first line's baseline at `y`.
    struct Label {
        var x: Double
        var y: Double
        var lines: [String]

        static let lineHeight = 13.0
        /// The width of a character at the labels' size, on the wide side.
        static let characterWidth = 6.4

        /// The rectangle the label covers, with a little room around it.
        var frame: (left: Double, top: Double, right: Double, bottom: Double) {
            let half = Double(lines.map(\.count).max() ?? 0) * Self.characterWidth / 2 + 3
            return (x - half, y - 11, x + half, y + Double(lines.count - 1) * Self.lineHeight + 4)
        }

        func overlaps(_ other: (left: Double, top: Double, right: Double, bottom: Double)) -> Bool {
            let frame = self.frame
            return frame.left < other.right && other.left < frame.right && frame.top < other.bottom && other.top < frame.bottom
        }
    }

    /// How far a label may move, in lines, each way.
    static let maximumShift = 4

    /// `labels`, in order, each moved to the nearest place (by whole lines, up first) where it
    /// overlaps neither the labels before it nor `boxes`, inside a diagram `height` high; left
    /// where it was if there is none.
    static func place(_ labels: [Label], avoiding boxes: [DiagramLayout.Box], height: Double) -> [Label] {
        let states = boxes.map { (left: $0.x, top: $0.y, right: $0.x + $0.width, bottom: $0.y + $0.height) }
        var placed: [Label] = []
        for label in labels {
            let shifts = [0] + (1...maximumShift).flatMap { [-$0, $0] }
            let candidates = shifts.map { shift in
                var moved = label
                moved.y += Double(shift) * (Label.lineHeight + 1)
                return moved
            }
            let free = candidates.first { candidate in
                let frame = candidate.frame
                guard frame.top >= 0, frame.bottom <= height else { return false }
                return !states.contains(where: candidate.overlaps) && !placed.contains { candidate.overlaps($0.frame) }
            }
            placed.append(free ?? label)
        }
        return placed
    }
}
