/// The machines whose actions are running in the current task (and its child tasks), innermost
/// last. `send` consults it to refuse a send that would wait for itself.
@usableFromInline
package enum ActionScope {
    @usableFromInline @TaskLocal static package var machines: [ObjectIdentifier] = []
}
