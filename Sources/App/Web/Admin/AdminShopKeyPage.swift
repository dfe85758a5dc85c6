import Foundation

/// A shop's new signing key, shown this once (after the shop is made, or a rotation).
struct AdminShopKeyPage: Page {
    static let template = "admin/shop_key"

    let chrome: Chrome
    let heading: String
    let shopName: String
    let shopID: Int
    let key: String
    let rotated: Bool
    let ordersURL: String
    let backURL = AdminRoute.offers.path

    init(shop: Advertiser, key: String, rotated: Bool) {
        chrome = Chrome("Signing key · Console", tab: nil)
        heading = rotated ? "New signing key" : "Shop saved: its signing key"
        shopName = shop.name
        shopID = shop.id
        self.key = key
        self.rotated = rotated
        ordersURL = APIRoute.shopOrders(shop.id)
    }
}
