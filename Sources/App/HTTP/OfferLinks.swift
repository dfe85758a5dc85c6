import Foundation

/// The links an offer is shown with, on pages and in the API.
extension PlacedOffer {
    /// `/offers/{id}/go?placement=…&title=…`: the tracked click-through.
    var clickURL: String { Route.offerClickLink(offer.id, title: title, placement: placement, listing: listing) }
    var logoURL: String { advertiser.logoURL }
    var imageURL: String { offer.imageID.map(Route.offerImageLink) ?? logoURL }
}

extension Advertiser {
    /// The uploaded or drawn logo; the site's icon for a shop without one.
    var logoURL: String { logoImageID.map(Route.offerImageLink) ?? Route.icon }
}
