import ActorFSM

/// Where an order is.
enum OrderState: String, Codable, Hashable, Sendable, CustomStringConvertible {
    case placed, paymentPending, paid, picking, shipped, delivered, cancelled, paymentFailed, paymentExpired

    var description: String {
        switch self {
        case .placed: "placed"
        case .paymentPending: "payment pending"
        case .paid: "paid"
        case .picking: "picking"
        case .shipped: "shipped"
        case .delivered: "delivered"
        case .cancelled: "cancelled"
        case .paymentFailed: "payment failed"
        case .paymentExpired: "payment expired"
        }
    }

    var isFinal: Bool { [.delivered, .cancelled, .paymentFailed, .paymentExpired].contains(self) }
}

/// What happens to an order.
enum OrderEvent: String, Codable, Hashable, Sendable {
    case submit, paymentSucceeded, paymentDeclined, cancel, picked, handedToCarrier, delivered
}

/// The order workflow's types: a machine per order, named by the order's number, that keeps
/// the order's own data.
enum OrderWorkflow: MachineDefinition {
    typealias State = OrderState
    typealias Event = OrderEvent
    typealias ID = Int
    struct Data: Codable, Sendable {
        /// How many times the card was charged for this order.
        var paymentAttempts = 0
    }
}

/// Whether a declined payment may be tried again: the action that reports a decline says so,
/// from the attempts the order's data counts.
enum RetryBudget: MatchingPredicate { case available, exhausted }

/// The order workflow. Actions call the services and report back with events posted next, so
/// every step, success or failure, goes through the machine, and nothing can fail once a service
/// has answered. A charge the gateway never answers leaves the order waiting in payment pending
/// until its timeout voids the charge. Each charge carries an idempotency key: a charge that a
/// crash interrupted, or a failure made the workflow try again, carries the same key, and the
/// gateway answers it from its ledger instead of charging the card twice.
func orderSchema(_ services: Services) throws -> Schema<OrderWorkflow> {
    let maxAttempts = services.settings.maxPaymentAttempts

    @Sendable func charge(_ context: TransitionContext<OrderWorkflow>) async throws {
        context.data.paymentAttempts += 1
        let attempt = context.data.paymentAttempts
        // The key names the order and the attempt, which the data counts. A crash that interrupts
        // the charge has it run again with the same data, so the same key; so does a failure
        // that the supervisor's restart tries again with a new event, whose sequence number
        // (and so context.idempotencyKey) differs.
        switch try await services.payments.charge(order: context.id, attempt: attempt, key: "\(context.id)#\(attempt)") {
        case .approved:
            try context.postNext(.paymentSucceeded)
        case .declined:
            try context.postNext(.paymentDeclined, predicates: PredicateContext(
                attempt < maxAttempts ? RetryBudget.available : RetryBudget.exhausted))
        case .none:
            break   // no answer: the payment timeout ends the wait
        }
    }

    return try Schema<OrderWorkflow>(
        initial: .placed, final: [.delivered, .cancelled, .paymentFailed, .paymentExpired]
    ) {
        define(.placed) {
            when(.submit) | then(.paymentPending) | { context in try await charge(context) }
            when(.cancel) | then(.cancelled)
        }
        define(.paymentPending) {
            when(.paymentSucceeded) | then(.paid) | { context in
                try context.postNext(services.customerCancels(order: context.id) ? .cancel : .picked)
            }
            when(.paymentDeclined) {
                matching(RetryBudget.available) | then() | { context in try await charge(context) }
                matching(RetryBudget.exhausted) | then(.paymentFailed)
            }
            when(.cancel) | then(.cancelled)
            after(services.settings.paymentTimeout) | then(.paymentExpired) | { context in
                // A timeout fires once: the void is asked again until the gateway answers, since
                // no later event would move the order on.
                try await retrying { try await services.payments.void(order: context.id) }
            }
        }
        define(.paid) {
            when(.picked) | then(.picking) | { context in
                try await services.warehouse.pick(order: context.id)
                try context.postNext(.handedToCarrier)
            }
            when(.cancel) | then(.cancelled) | { context in
                try await services.payments.refund(order: context.id)
            }
        }
        define(.picking) {
            when(.handedToCarrier) | then(.shipped) | { context in
                try await services.carrier.deliver(order: context.id)
                try context.postNext(.delivered)
            }
        }
        define(.shipped) { when(.delivered) | then(.delivered) }
    }
}

/// The event that moves an order on from `state` after its machine was restarted or restored
/// with no event of its own pending: the step whose action failed, or the submission.
func nextStep(for order: Int, in state: OrderState, services: Services) -> OrderEvent? {
    switch state {
    case .placed: services.customerCancelsEarly(order: order) ? .cancel : .submit
    case .paid: services.customerCancels(order: order) ? .cancel : .picked
    case .picking: .handedToCarrier
    default: nil
    }
}

/// Runs `call` until it succeeds, pausing a little between attempts. It gives up only when its
/// task is cancelled (the supervisor stops the order): the step is then interrupted, not failed,
/// and the order runs it again when it is restored.
func retrying(_ call: () async throws -> Void) async throws {
    while true {
        do { return try await call() } catch is CancellationError { throw CancellationError() } catch {
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
