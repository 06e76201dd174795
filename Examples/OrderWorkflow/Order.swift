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

/// The order workflow. Actions call the services and report back with events posted next, so
/// every step, success or failure, goes through the machine, and nothing can fail once a service
/// has answered. A charge the gateway never answers leaves the order waiting in payment pending
/// until its timeout voids the charge. Each charge carries an idempotency key: a charge that a
/// crash interrupted, or that failed and is tried again, carries the same key, and the gateway
/// answers it from its ledger instead of charging the card twice. A declined card is charged
/// again while the order has attempts left (ordered alternatives read the order's data).
func orderSchema(_ services: Services) throws -> Schema<OrderWorkflow> {
    let maxAttempts = services.settings.maxPaymentAttempts
    // A gateway that fails is asked again with the same key, a little later each time.
    let gatewayRetries = RetryPolicy.exponential(initial: .milliseconds(1), maximum: .milliseconds(16), attempts: 8)
    @Sendable func charge(_ context: TransitionContext<OrderWorkflow>) async throws {
        context.data.paymentAttempts += 1
        let attempt = context.data.paymentAttempts
        // The key names the order and the attempt, which the data counts. A crash that interrupts
        // the charge, or a retry after the gateway failed, runs it again with the same data, so
        // the same key; so does a failure that the supervisor's restart tries again with a new
        // event, whose sequence number (and so context.idempotencyKey) differs.
        switch try await services.payments.charge(order: context.id, attempt: attempt, key: "\(context.id)#\(attempt)") {
        case .approved:
            try context.postNext(.paymentSucceeded)
        case .declined:
            try context.postNext(.paymentDeclined)
        case .none:
            break   // no answer: the payment timeout ends the wait
        }
    }

    return try Schema<OrderWorkflow>(
        initial: .placed, final: [.delivered, .cancelled, .paymentFailed, .paymentExpired]
    ) {
        define(.placed) {
            when(.submit) | then(.paymentPending) | retry(gatewayRetries) { context in try await charge(context) }
            when(.cancel) | then(.cancelled)
        }
        define(.paymentPending) {
            when(.paymentSucceeded) | then(.paid) | { context in
                try context.postNext(services.customerCancels(order: context.id) ? .cancel : .picked)
            }
            when(.paymentDeclined) {
                firstOf {
                    condition { (order: OrderWorkflow.Data) in order.paymentAttempts < maxAttempts } | then()
                        | retry(gatewayRetries) { context in try await charge(context) }
                    otherwise() | then(.paymentFailed)
                }
            }
            when(.cancel) | then(.cancelled)
            // A timeout fires once: the void is asked again until the gateway answers, since no
            // later event would move the order on.
            after(services.settings.paymentTimeout) | then(.paymentExpired)
                | retry(.fixed(.milliseconds(2), attempts: .max)) { context in try await services.payments.void(order: context.id) }
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
