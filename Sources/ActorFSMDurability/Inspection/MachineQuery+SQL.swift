/// A value bound to a parameter of a store's SQL.
package enum SQLValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
}

extension MachineQuery {
    /// The query's `WHERE` clause (empty if nothing filters) and `LIMIT`, over a summary
    /// table's columns (`state`, `status`, `last_transition`, `fingerprint`, `schema_version`,
    /// `machine`), with the values of its parameters, numbered from 1 in the order given.
    ///
    /// - Parameters:
    ///   - parameter: the text of parameter `n`: `?n` for SQLite, `$n` for PostgreSQL.
    ///   - integer: the text of an integer parameter, which PostgreSQL needs cast.
    ///   - machine: the machine column as ordered and compared: in the order of its characters'
    ///     code points, as Swift orders ids (`machine COLLATE "C"` on PostgreSQL, whose default
    ///     collation may follow a language's rules).
    package func sql(
        parameter: (Int) -> String, integer: (String) -> String = { $0 }, machine: String = "machine"
    ) -> (clause: String, values: [SQLValue]) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        func next(_ value: SQLValue) -> String {
            values.append(value)
            let text = parameter(values.count)
            if case .integer = value { return integer(text) }
            return text
        }
        if let state { conditions.append("state = \(next(.text(state)))") }
        if let status { conditions.append("status = \(next(.text(status.rawValue)))") }
        if let lastTransitionBefore { conditions.append("last_transition < \(next(.integer(lastTransitionBefore)))") }
        if let fingerprint { conditions.append("fingerprint = \(next(.text(fingerprint)))") }
        if let schemaVersion { conditions.append("schema_version = \(next(.integer(Int64(schemaVersion))))") }
        if let after {
            let time = next(.integer(after.lastTransition))
            let sameTime = next(.integer(after.lastTransition))
            conditions.append("(last_transition > \(time) OR (last_transition = \(sameTime) AND \(machine) > \(next(.text(after.id)))))")
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (filter + " ORDER BY last_transition, \(machine) LIMIT \(next(.integer(Int64(limit))))", values)
    }
}
