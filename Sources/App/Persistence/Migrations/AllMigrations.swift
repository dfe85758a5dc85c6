import FluentKit

extension AppDatabase {
    /// In the order they run. Append only: Fluent records each by name as applied (see Migrations/).
    static let migrations: [any Migration] = [
        CreateProfiles(),
        CreateLibraryEntries(),
        CreateCatalogCache(),
        CreateSearchTables(),
        CreateOffers(),
        SeedDemoOffers(),
        AddAccounts(),
        CreateLoginFailures(),
        CreateAPITokens(),
        AddSessionDetails(),
        CountClicksOnce(),
        CreateClientLimits(),
        CreateSearchHistory(),
        CreateShopSigning(),
        AddRatings(),
        CreateWatches(),
        IndexListFilters(),
        CreateCustomLists(),
        AddWatchDetails(),
        IndexStatistics(),
        IndexListSorts(),
        CreateImports(),
        CreateIdempotencyKeys(),
        CreateLeases(),
        IndexFavoritesByKind(),
        CreateWatchTallies(),
        CreateTitleIndex(),
        CreateCatalogRequests(),
        AddTitleState(),
        HardenCountsAndImports(),
        CreateEpisodes(),
        AddShowStatus(),
    ]
}
