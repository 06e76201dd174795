// What a machine tells its instrument. The hot path checks `settings.isInstrumented` and calls
// these out of line: inlinable, so that they are specialized for the machine's types (generic
// code would look up the record's metadata on every call), and never inlined, so that a machine
// without an instrument carries none of their code.

extension Machine {
    /// Tells the instrument that an event was refused, and returns the error to throw.
    @usableFromInline nonisolated func refusal(_ kind: MachineErrorKind, origin: EventOrigin) -> MachineError<Definition> {
        let error = MachineError<Definition>(kind, machineID: id)
        settings.instrument?.eventRefused(error, origin: origin)
        return error
    }

    /// Tells the instrument that `send` runs an event at once.
    @inlinable @inline(never) nonisolated func reportInlineSend() {
        settings.instrument?.eventAccepted(by: id, origin: .send, queueDepth: 0)
    }

    /// Tells the instrument of a record, and of the failure it carries.
    @inlinable @inline(never) func reportToInstrument(_ record: borrowing Record) {
        guard let instrument = settings.instrument else { return }
        if case .failed(let error) = record.outcome { instrument.actionFailed(record, error: error) }
        instrument.eventProcessed(record)
    }

    /// Tells the instrument that an event joined the inbox, with the inbox's depth.
    @inlinable @inline(never) nonisolated func reportQueued(origin: EventOrigin) {
        guard let instrument = settings.instrument else { return }
        instrument.eventAccepted(by: id, origin: origin, queueDepth: queuedCount)
    }

    /// The calling task's context, captured by the instrument, for an event about to wait in
    /// the inbox; `nil` without an instrument, at the cost of one flag.
    @inlinable nonisolated var callerContext: (any AnyObject & Sendable)? {
        settings.isInstrumented ? settings.instrument?.captureTrace() : nil
    }

    /// Processes a queued event inside the context its sender had: the lookup, its conditions,
    /// its actions and the instrument's `eventProcessed` run in the sender's trace, as those of
    /// an event sent to an idle machine do. Out of line: only events an instrument captured a
    /// trace for get here.
    @inlinable @inline(never) func process(
        _ entry: Entry, in trace: any AnyObject & Sendable, of instrument: any Instrument
    ) async -> Record {
        // The actions' task, made inside, inherits the context: no need to pass the trace on.
        await instrument.withTrace(trace) {
            await process(entry.event, entry.predicates, origin: entry.origin, acceptedAt: entry.acceptedAt,
                          postponements: entry.postponements, scope: entry.senderScope, replying: entry.reply != nil)
        }
    }
}
