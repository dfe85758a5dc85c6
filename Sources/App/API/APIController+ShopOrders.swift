import Foundation
import OpenAPIRuntime
import PopcornAPI

/// Partner shops reporting orders back: signed over the body's exact bytes (`SignedBody`), not a token.
extension APIController {
    func reportShopOrder(_ input: Operations.ReportShopOrder.Input) async throws -> Operations.ReportShopOrder.Output {
        guard case .json(let body) = input.body else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("Send the order as application/json."))))
        }
        guard let shop = Int(exactly: input.path.shopId), shop > 0 else {
            return .badRequest(.init(body: .applicationProblemJson(.badRequest("shopId must be a shop's id."))))
        }
        let report = ShopOrders.Report(orderID: body.orderId, clickID: body.clickId, totalCents: body.totalCents, currency: body.currency)
        let outcome: ShopOrders.Outcome
        do {
            outcome = try await shopOrders.report(
                report, shop: shop, timestamp: input.headers.popcornSwirlTimestamp, signature: input.headers.popcornSwirlSignature,
                body: SignedBody.bytes)
        } catch {
            logger.error("recording a shop's order failed", metadata: ["shop": "\(shop)", "error": "\(error)"])
            return .serviceUnavailable(.init(body: .applicationProblemJson(.unavailable("The order could not be recorded just now. Try again."))))
        }
        switch outcome {
        case .recorded(let order, let new):
            let answer = Components.Schemas.ShopOrder(
                orderId: order.orderID, clickId: order.clickID.uuidString.lowercased(), offerId: order.offerID, totalCents: order.totalCents,
                currency: order.currency, day: order.day, reportedAt: order.reportedAt)
            return new ? .created(.init(body: .json(answer))) : .ok(.init(body: .json(answer)))
        case .refused(let refusal):
            typealias Problem = Components.Schemas.Problem
            switch refusal {
            case .badSignature, .staleTimestamp:
                return .unauthorized(.init(body: .applicationProblemJson(Problem(.unauthorized, refusal.message))))
            case .differentOrder:
                return .conflict(.init(body: .applicationProblemJson(Problem(.conflict, refusal.message))))
            case .invalid, .unknownClick:
                return .unprocessableContent(.init(body: .applicationProblemJson(Problem(.unprocessableContent, refusal.message))))
            }
        }
    }
}
