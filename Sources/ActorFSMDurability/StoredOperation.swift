import ActorFSM

/// An operator's act on a machine, as its entry records it: the verb, when, and the reason the
/// operator gave.
struct StoredOperation: Equatable, Sendable {
    var verb: OperatorVerb
    /// When, in milliseconds since 1970.
    var time: Int64
    var reason: String

    init(verb: OperatorVerb, time: Int64, reason: String) {
        (self.verb, self.time, self.reason) = (verb, time, reason)
    }

    /// Whether the entry that holds the operation records an event the operator sent or put
    /// back (a signal, a retry), rather than the operator's act alone.
    var recordsItsEvent: Bool { verb == .signal || verb == .retry }

    func write(to writer: inout ByteWriter) {
        writer.byte(verb.rawValue)
        writer.signed(time)
        writer.text(reason)
    }

    init(from reader: inout ByteReader) throws(ByteReader.Truncated) {
        guard let verb = OperatorVerb(rawValue: try reader.byte()) else { throw ByteReader.Truncated() }
        self.verb = verb
        time = try reader.signed()
        reason = try reader.text()
    }
}
