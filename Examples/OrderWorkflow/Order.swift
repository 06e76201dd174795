import ActorFSM

/// Where an order is.
enum OrderState: Hashable, Sendable, CustomStringConvertible {
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
enum OrderEvent: Hashable, Sendable {
    case submit, paymentSucceeded, paymentDeclined, cancel, picked, handedToCarrier, delivered
}

/// The order workflow's types: a machine per order, named by the order's number, that keeps
/// the order's own data.
enum OrderWorkflow: MachineDefinition {
    typealias State = OrderState
    typealias Event = OrderEvent
    typealias ID = Int
    struct Data: Sendable {
        /// How many times the card was charged for this order.
        var paymentAttempts = 0
    }
}

/// Whether a declined payment may be tried again: the action that reports a decline says so,
/// from the attempts the order's data counts.
enum RetryBudget: MatchingPredicate { case available, exhausted }

/// The order workflow. Actions call the services and report back with follow-up events, so every
/// step, success or failure, goes through the machine. A charge the gateway never answers leaves
/// the order waiting in payment pending until its timeout voids the charge.
func orderSchema(_ services: Services) throws -> Schema<OrderWorkflow> {
    let maxAttempts = services.settings.maxPaymentAttempts

    @Sendable func charge(_ context: TransitionContext<OrderWorkflow>) async throws {
        context.data.paymentAttempts += 1
        let attempt = context.data.paymentAttempts
        switch try await services.payments.charge(order: context.id, attempt: attempt) {
        case .approved:
            try context.tryPost(.paymentSucceeded)
        case .declined:
            try context.tryPost(.paymentDeclined, predicates: PredicateContext(
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
                try context.tryPost(services.customerCancels(order: context.id) ? .cancel : .picked)
            }
            when(.paymentDeclined) {
                matching(RetryBudget.available) | then() | { context in try await charge(context) }
                matching(RetryBudget.exhausted) | then(.paymentFailed)
            }
            when(.cancel) | then(.cancelled)
            after(services.settings.paymentTimeout) | then(.paymentExpired) | { context in
                try await services.payments.void(order: context.id)
            }
        }
        define(.paid) {
            when(.picked) | then(.picking) | { context in
                try await services.warehouse.pick(order: context.id)
                try context.tryPost(.handedToCarrier)
            }
            when(.cancel) | then(.cancelled) | { context in
                try await services.payments.refund(order: context.id)
            }
        }
        define(.picking) {
            when(.handedToCarrier) | then(.shipped) | { context in
                try await services.carrier.deliver(order: context.id)
                try context.tryPost(.delivered)
            }
        }
        define(.shipped) { when(.delivered) | then(.delivered) }
    }
}
