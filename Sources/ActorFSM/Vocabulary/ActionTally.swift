/// What a transition's actions came to: how many completed, and how many times a retry policy
/// tried one again.
@usableFromInline
package struct ActionTally: Sendable {
    /// The actions that ran to completion (exit, transition and entry actions).
    @usableFromInline package var completed: Int
    /// The attempts made after a first one threw, over all the transition's actions.
    @usableFromInline package var retries: Int

    @inlinable
    package init(completed: Int = 0, retries: Int = 0) {
        self.completed = completed
        self.retries = retries
    }
}
