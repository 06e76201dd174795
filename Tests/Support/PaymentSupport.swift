import ActorFSM
import ActorFSMDurability
import ActorFSMTesting

// Payments whose actions call an outside service, shared by the durability tests and the
// PostgreSQL restart tests: the service, holds its calls wait at, and what a supervisor says
// about its store.

/// The outside service: remembers the idempotency key of every call, duplicates included.
package actor ChargeGateway {
    package init() {}
    package private(set) var keys: [String] = []
    private var calls: [CheckedContinuation<Void, Never>] = []

    package func charge(_ key: String) {
        keys.append(key)
        for call in calls { call.resume() }
        calls = []
    }

    /// Returns once the gateway has been called `count` times.
    package func waitForCalls(_ count: Int) async {
        while keys.count < count { await withCheckedContinuation { calls.append($0) } }
    }
}

/// A gate an action waits at until a test opens it.
package actor ActionGate {
    package init() {}
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package func pass() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    package func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}

/// A hold an action waits at until a test opens it, or until the action's task is cancelled
/// (it then throws `CancellationError`, as a well-behaved call to an outside service does).
package final class CancellableHold: Sendable {
    package init() {}
    private struct State {
        var isOpen = false
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var next = 0
    }
    private let state = Locked(State())

    package func pass() async throws {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume = state.withLock { state -> Bool in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resume { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A payment that charges on submission and expires if the charge is not confirmed in 30 s.
package enum Charge: MachineDefinition {
    package enum State: String, Codable, Hashable, Sendable { case placed, charging, paid, expired }
    package enum Event: String, Codable, Hashable, Sendable { case submit, confirm }
    package typealias ID = String
    package struct Data: Codable, Sendable, Equatable {
        package var charges = 0
        package init(charges: Int = 0) { self.charges = charges }
    }
}

package func chargeSchema(through gateway: ChargeGateway) throws -> Schema<Charge> {
    try Schema<Charge>(initial: .placed, final: [.paid, .expired]) {
        define(.placed) {
            when(.submit) | then(.charging) | { context in
                await gateway.charge(context.idempotencyKey)
                context.data.charges += 1
            }
        }
        define(.charging) {
            when(.confirm) | then(.paid)
            after(.seconds(30)) | then(.expired)
        }
    }
}

/// What a supervisor tells its instrument about its store, as a stream of lines.
package final class StoreWatch: Instrument {
    package let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    package init() { (lines, continuation) = AsyncStream.makeStream() }

    package func storeUnavailable<ID: Hashable & Sendable>(for id: ID, error: any Error, retryingIn delay: Duration?) {
        continuation.yield("unavailable \(id)")
    }

    package func machineRestoredFromStore<ID: Hashable & Sendable>(_ id: ID) {
        continuation.yield("restored \(id)")
    }

    package func machineRestarted<ID: Hashable & Sendable>(_ id: ID, after error: any Error) {
        continuation.yield("restarted \(id)")
    }

    package func machineParked<ID: Hashable & Sendable>(_ id: ID, afterRestores restores: Int) {
        continuation.yield("parked \(id) after \(restores)")
    }
}

extension AsyncStream<String>.Iterator {
    /// Skips lines until one equal to `line`; whether it came before the stream ended.
    package mutating func skip(to line: String) async -> Bool {
        while let next = await next() { if next == line { return true } }
        return false
    }
}
