import ActorFSM
import ActorFSMDistribution
@_spi(Stores) import ActorFSMDurability

/// Calls of one kind (claims, reads of entries) that share a trip to the database: a call made
/// while another of its kind waits for the store's thread joins it, and one statement answers
/// them all. A thousand restores at once cost a few statements, not a thousand.
///
/// A call sees every write completed before it was made (a write queued meanwhile may come
/// after it).
final class CoalescedCalls<Input: Sendable, Output: Sendable>: Sendable {
    typealias Thread = StoreThread<StoreOperation<PostgresDatabase>>
    typealias Waiter = CheckedContinuation<Result<Output, StoreError>, Never>

    private struct Pending {
        var calls: [(input: Input, waiter: Waiter)] = []
        var isQueued = false
    }

    private let pending = Locked(Pending())
    private let thread: Thread
    private let closed: @Sendable () -> StoreError
    private let answer: @Sendable (PostgresDatabase, [Input]) throws(StoreError) -> [Output]

    /// - Parameter answer: on the store's thread, the output of each input, in order.
    init(
        thread: Thread, closed: @escaping @Sendable () -> StoreError,
        answer: @escaping @Sendable (PostgresDatabase, [Input]) throws(StoreError) -> [Output]
    ) {
        self.thread = thread
        self.closed = closed
        self.answer = answer
    }

    /// The output for `input`, answered together with the calls made meanwhile.
    func call(_ input: Input) async throws(StoreError) -> Output {
        let result = await withCheckedContinuation { (waiter: Waiter) in
            let queuing = pending.withLock { pending -> Bool in
                pending.calls.append((input, waiter))
                defer { pending.isQueued = true }
                return !pending.isQueued
            }
            guard queuing, !thread.submit(.run({ [self] database in answerAll(database) })) else { return }
            for call in takeAll() { call.waiter.resume(returning: .failure(closed())) }
        }
        return try result.get()
    }

    private func takeAll() -> [(input: Input, waiter: Waiter)] {
        pending.withLock { pending in
            defer { (pending.calls, pending.isQueued) = ([], false) }
            return pending.calls
        }
    }

    /// On the store's thread: answers every call waiting.
    private func answerAll(_ database: PostgresDatabase) {
        let calls = takeAll()
        guard !calls.isEmpty else { return }
        do throws(StoreError) {
            let outputs = try answer(database, calls.map(\.input))
            for (call, output) in zip(calls, outputs) { call.waiter.resume(returning: .success(output)) }
        } catch {
            for call in calls { call.waiter.resume(returning: .failure(error)) }
        }
    }
}
