/// What a `send` or a `post` does when the machine is paused (see `Machine.pause(reason:)`).
public enum WhenPaused: Sendable, Equatable {
    /// It throws ``MachineError`` `.paused` at once, as a call that names no choice does.
    case refuse
    /// It waits for the resume, then hands the event over as if the machine had never been
    /// paused; it throws `.stopped` if the machine ends first, and `.cancelled` if the calling
    /// task is cancelled meanwhile.
    case wait
}
