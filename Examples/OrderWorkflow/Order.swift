import ActorFSM

/// Where an order is.
enum OrderState: String, Codable, Hashable, Sendable, CustomStringConvertible {
    case placed, paymentPending, paid, shipping, delivered, cancelled, paymentFailed, paymentExpired

    var description: String {
        switch self {
        case .placed: "placed"
        case .paymentPending: "payment pending"
        case .paid: "paid"
        case .shipping: "shipping"
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
    case submit, paymentSucceeded, paymentDeclined, paymentTimedOut, cancel, ship, delivered
}

/// The order workflow's types: a machine per order, named by the order's number.
enum OrderWorkflow: MachineDefinition {
    typealias State = OrderState
    typealias Event = OrderEvent
    typealias ID = Int
    struct Data: Codable, Sendable {}
}

/// The order workflow. It drives itself: the payment and the shipment are child machines,
/// each started when the order enters its state, whose ends come back as the order's events;
/// a paid order decides by a state task whether the customer cancels or it ships, and a
/// refund is tried until the gateway answers. Restored after a crash or restarted after a
/// failure, an order goes on by itself from wherever it was; only the submission, which starts
/// the workflow, comes from outside.
func orderSchema(
    _ services: Services, payments: Supervisor<PaymentWorkflow>, shipments: Supervisor<ShipmentWorkflow>
) throws -> Schema<OrderWorkflow> {
    try Schema<OrderWorkflow>(initial: .placed, final: [.delivered, .cancelled, .paymentFailed, .paymentExpired]) {
        define(.placed) {
            when(.submit) | then(.paymentPending)
            when(.cancel) | then(.cancelled)
        }
        define(.paymentPending, running: .child(
            in: payments, id: { "payment-\($0.id)" }, data: { PaymentWorkflow.Data(order: $0.id) }, cancelling: .void,
            done: { state, _ in
                switch state {
                case .approved: .paymentSucceeded
                case .declined: .paymentDeclined
                case .expired, .voided: .paymentTimedOut
                case .requested, .authorizing: nil
                }
            },
            failed: { _ in .paymentDeclined })) {
            when(.paymentSucceeded) | then(.paid)
            when(.paymentDeclined) | then(.paymentFailed)
            when(.paymentTimedOut) | then(.paymentExpired)
            when(.cancel) | then(.cancelled)
        }
        define(.paid, running: StateTask { context in services.customerCancels(order: context.id) ? .cancel : .ship }) {
            when(.ship) | then(.shipping)
            when(.cancel) | then(.cancelled) | retry(.fixed(.milliseconds(2), attempts: .max)) { context in
                try await services.payments.refund(order: context.id)
            }
        }
        define(.shipping, running: .child(
            in: shipments, id: { "shipment-\($0.id)" }, data: { ShipmentWorkflow.Data(order: $0.id) },
            done: { _, _ in .delivered }, failed: { _ in nil })) {
            when(.delivered) | then(.delivered)
        }
    }
}

/// The event that starts an order still placed: its submission, or a cancellation for the
/// customers who change their mind first. Every later step the workflow takes by itself.
func firstStep(for order: Int, services: Services) -> OrderEvent {
    services.customerCancelsEarly(order: order) ? .cancel : .submit
}
