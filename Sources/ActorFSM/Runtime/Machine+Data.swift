// A machine's data: the committed value, and the cell its actions change it through.

extension Machine {
    /// The machine's data as the last completed transition left it.
    ///
    /// While an asynchronous action is suspended, this is still the value from before its
    /// transition: what the action writes becomes visible once the transition completes.
    public var data: Definition.Data { committedData }

    /// The cell the actions of the transition in progress read and write the data through,
    /// made the first time an action takes the context.
    @inlinable
    func dataCell() -> DataCell<Definition.Data> {
        if let cell = running.cell { return cell }
        let cell = DataCell(committedData)
        running.cell = cell
        return cell
    }

    /// Ends a transition's work on the data: keeps what its actions wrote, or, if one of them
    /// failed, puts back the value from before the transition. A data type of size zero (`Void`)
    /// has nothing to keep.
    ///
    /// A cell still referenced by a context that outlived its transition (kept by a task the
    /// action started) is let go, so that such a task's late writes reach no later transition.
    @inlinable
    func settleData(failed: Bool) {
        guard MemoryLayout<Definition.Data>.size != 0, let cell = running.cell else { return }
        if failed {
            cell.restore(committedData)
        } else if let changed = cell.takeChange() {
            committedData = changed
            if let extras, !extras.dataSubscribers.isEmpty { extras.dataSubscribers.publish(changed) }
        }
        if !isKnownUniquelyReferenced(&running.cell) { running.cell = nil }
    }
}
