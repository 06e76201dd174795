import ActorFSMDurability
import Foundation

/// Times, ages and tables as the commands print them.
enum TextFormat {
    /// `2026-11-27T03:10:00.123Z` for milliseconds since 1970.
    static func time(_ milliseconds: Int64) -> String {
        // 0: an entry written before entries carried their time.
        guard milliseconds > 0 else { return "unknown" }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
            .formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// How long ago `milliseconds` was: `42s`, `3m`, `5h`, `2d`.
    static func age(_ milliseconds: Int64, now: Int64) -> String {
        let seconds = max(0, (now - milliseconds) / 1_000)
        switch seconds {
        case ..<120: return "\(seconds)s"
        case ..<7_200: return "\(seconds / 60)m"
        case ..<172_800: return "\(seconds / 3_600)h"
        default: return "\(seconds / 86_400)d"
        }
    }

    /// A duration as `12ms`, `42s`, `3m`, `5h` or `2d`.
    static func duration(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds < 1_000 ? "\(milliseconds)ms" : age(0, now: milliseconds)
    }

    /// Now, in milliseconds since 1970.
    static func now() -> Int64 {
        SystemWallClock().nanosecondsSince1970() / 1_000_000
    }

    /// `rows` under `header`, each column as wide as its widest cell.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// `value` as JSON, keys sorted.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
