/// What an operator does to a machine, recorded in a durable machine's history with when and
/// why.
@usableFromInline
package enum OperatorVerb: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// The machine takes no event until it is resumed.
    case pause = 1
    /// A paused machine runs again.
    case resume = 2
    /// The machine is cancelled: sent its cancelling event, or ended for good.
    case cancel = 3
    /// A failed event is processed again, from the entry before it, under its number.
    case retry = 4
    /// An event is sent to the machine for an operator: its entry records the operator's act.
    case signal = 5

    /// The verb's name, as histories print it.
    @usableFromInline package var description: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .cancel: "cancel"
        case .retry: "retry"
        case .signal: "signal"
        }
    }
}
