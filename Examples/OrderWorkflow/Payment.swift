import ActorFSM

/// Where an order's payment is.
enum PaymentState: String, Codable, Hashable, Sendable {
    case requested, authorizing, approved, declined, expired, voided
}

/// What happens to a payment.
enum PaymentEvent: String, Codable, Hashable, Sendable {
    case charge, approved, declined, void
}

/// A payment: a child machine of its order, named `payment-` and the order's number.
enum PaymentWorkflow: MachineDefinition {
    typealias State = PaymentState
    typealias Event = PaymentEvent
    typealias ID = String
    struct Data: Codable, Sendable {
        /// The order it pays for.
        var order: Int
        /// How many times the card was charged.
        var attempts = 0
    }
}

/// The payment workflow. Its first state's task asks for the charge, so a payment restored or
/// restarted there charges by itself. Each charge carries an idempotency key naming the order
/// and the attempt: a charge that a crash interrupted, or that failed and is tried again,
/// carries the same key, and the gateway answers it from its ledger instead of charging the card
/// twice. A gateway that fails is asked again with the same key, a little later each time; a
/// declined card is charged again while attempts are left (ordered alternatives read the data);
/// a charge the gateway never answers leaves the payment waiting until its timeout voids it.
func paymentSchema(_ services: Services) throws -> Schema<PaymentWorkflow> {
    let maxAttempts = services.settings.maxPaymentAttempts
    let gatewayRetries = RetryPolicy.exponential(initial: .milliseconds(1), maximum: .milliseconds(16), attempts: 8)
    // The void is asked again until the gateway answers: no later event would move the payment on.
    let untilAnswered = RetryPolicy.fixed(.milliseconds(2), attempts: .max)
    @Sendable func charge(_ context: TransitionContext<PaymentWorkflow>) async throws {
        context.data.attempts += 1
        let order = context.data.order
        let attempt = context.data.attempts
        switch try await services.payments.charge(order: order, attempt: attempt, key: "\(order)#\(attempt)") {
        case .approved: try context.postNext(.approved)
        case .declined: try context.postNext(.declined)
        case .none: break   // no answer: the payment timeout ends the wait
        }
    }

    return try Schema<PaymentWorkflow>(initial: .requested, final: [.approved, .declined, .expired, .voided]) {
        define(.requested, running: StateTask { .charge }) {
            when(.charge) | then(.authorizing) | retry(gatewayRetries) { context in try await charge(context) }
            when(.void) | then(.voided)
        }
        define(.authorizing) {
            when(.approved) | then(.approved)
            when(.declined) {
                firstOf {
                    condition { (payment: PaymentWorkflow.Data) in payment.attempts < maxAttempts } | then()
                        | retry(gatewayRetries) { context in try await charge(context) }
                    otherwise() | then(.declined)
                }
            }
            when(.void) | then(.voided) | retry(untilAnswered) { context in try await services.payments.void(order: context.data.order) }
            after(services.settings.paymentTimeout) | then(.expired)
                | retry(untilAnswered) { context in try await services.payments.void(order: context.data.order) }
        }
    }
}
