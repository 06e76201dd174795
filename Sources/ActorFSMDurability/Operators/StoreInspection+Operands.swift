// The machines an operator's verb acts on when a query names them rather than an id.

extension StoreInspection {
    /// Every machine `query` selects that `verb` can change (see
    /// ``OperatorReport/selected``), in the listing's order, read a page of 1,000 at a time:
    /// what an act on the query would touch. The query's `limit` and `after` are ignored: every
    /// page is read.
    public func machines(
        matching query: MachineQuery, changeableBy verb: OperatorRequest.Verb
    ) async throws(StoreError) -> [StoredMachine] {
        var page = query
        (page.limit, page.after) = (1_000, nil)
        var selected: [StoredMachine] = []
        while true {
            let found = try await machines(page)
            selected += found.machines.filter { verb.changes($0.summary.status) }
            guard let next = found.next else { return selected }
            page.after = next
        }
    }
}

extension OperatorRequest.Verb {
    /// Whether the verb can change a machine whose summary's status is `status`.
    package func changes(_ status: MachineStatus) -> Bool {
        switch self {
        case .pause, .signal: ![.final, .cancelled, .purged, .paused].contains(status)
        case .resume: status == .paused
        case .cancel: ![.final, .cancelled, .purged].contains(status)
        case .retry: status == .failed
        }
    }
}
