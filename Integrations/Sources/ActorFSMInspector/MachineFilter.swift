import ActorFSMDurability
import Foundation
import Hummingbird

/// The machine list's filters as the page sends them: query parameters, checked.
struct MachineFilter {
    var query = MachineQuery()

    /// The filters of `parameters`; a value that does not parse is the caller's error.
    init(_ parameters: Parameters) throws(InspectorError) {
        query.state = Self.value("state", parameters)
        query.fingerprint = Self.value("fingerprint", parameters)
        if let text = Self.value("status", parameters) {
            guard let status = MachineStatus(rawValue: text) else {
                let known = MachineStatus.allCases.map(\.rawValue).joined(separator: ", ")
                throw InspectorError(status: .badRequest, message: "status must be one of \(known), not \(text)")
            }
            query.status = status
        }
        if let version = try Self.number("version", parameters) { query.schemaVersion = version }
        if let limit = try Self.number("limit", parameters) { query.limit = min(max(limit, 1), 1_000) }
        if let seconds = try Self.number("olderThan", parameters) {
            guard seconds <= Self.longestAge else {
                throw InspectorError(status: .badRequest, message: "olderThan is in seconds, at most \(Self.longestAge) (a century)")
            }
            query = query.olderThan(.seconds(seconds))
        }
        if let text = Self.value("after", parameters) { query.after = try Self.cursor(text) }
    }

    /// The filters of a listing's query string (`state=paid&status=running`), percent-encoded
    /// as the page sends them.
    init(queryString text: String) throws(InspectorError) {
        var parameters = Parameters()
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let key = parts.first?.removingPercentEncoding else { continue }
            let value = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" : ""
            parameters.append(key: Substring(key), value: Substring(value))
        }
        try self.init(parameters)
    }

    /// The longest age a listing filters by, in seconds: a century.
    static let longestAge = 3_155_760_000

    /// A cursor as the page carries it: the last transition's milliseconds, a colon, the id.
    static func text(_ cursor: MachineCursor) -> String { "\(cursor.lastTransition):\(cursor.id)" }

    private static func cursor(_ text: String) throws(InspectorError) -> MachineCursor {
        guard let colon = text.firstIndex(of: ":"), let time = Int64(text[..<colon]) else {
            throw InspectorError(status: .badRequest, message: "after must be a cursor the previous page gave, not \(text)")
        }
        return MachineCursor(lastTransition: time, id: String(text[text.index(after: colon)...]))
    }

    private static func value(_ name: String, _ parameters: Parameters) -> String? {
        parameters.get(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    private static func number(_ name: String, _ parameters: Parameters) throws(InspectorError) -> Int? {
        guard let text = value(name, parameters) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw InspectorError(status: .badRequest, message: "\(name) must be a whole number, not \(text)")
        }
        return number
    }
}
