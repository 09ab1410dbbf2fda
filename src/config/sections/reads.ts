/** Settings, part of src/config/index.ts: the read models: whale reads, markets, wallet insights, leaderboards. */
import { int, num } from "../settings.js";

export const whaleReads = {
  alertsRefreshSeconds: int(
    "WHALE_ALERTS_REFRESH_SECONDS",
    2,
    "how often an API process adds newly stored fills to its in-memory copy of the last 48 h of smart-whale fills (whale alerts, their summary, recent whale trades)",
    { min: 0 },
  ),
  alertsCachedMb: int(
    "WHALE_ALERTS_CACHED_MB",
    16,
    "MiB of whale-alert answers an API process keeps serialized, each while its feed (the smart copy, or the store's last fill) and the window leave it unchanged",
    { min: 0 },
  ),
  alertsKeptSeconds: int(
    "WHALE_ALERTS_KEPT_SECONDS",
    60,
    "seconds at most a whale-alert answer is kept (sooner when its feed moves or its oldest fill leaves the window); 0: none is kept",
    { min: 0 },
  ),
  historyCachedMb: int(
    "WHALE_HISTORY_CACHED_MB",
    64,
    "MiB of serialized whale history and backtest answers an API process keeps, each while the wallet's statistics row is unchanged (at most WALLET_OVERVIEW_CACHE_SECONDS)",
    { min: 0 },
  ),
  bookRefreshSeconds: int(
    "WHALE_BOOK_REFRESH_SECONDS",
    60,
    "age at which an API process reloads, in the background, its copy of every Smart Money position (whale-matches, missed-opportunities, active-whale-markets; also reloaded when the Deriver rewrites wallet_stats); their answers are kept serialized as long",
    { min: 1 },
  ),
  holdingsRefreshSeconds: int(
    "WHALE_HOLDINGS_REFRESH_SECONDS",
    60,
    "age at which an API process reloads, in the background, its copy of the smart whales' open positions (big positions, conviction clusters, whale flips)",
    { min: 1 },
  ),
} as const;

export const markets = {
  indexRefreshSeconds: int(
    "MARKET_INDEX_REFRESH_SECONDS",
    30,
    "age at which the in-memory market index (search, market lists, market pages) is reloaded from the store in the background",
    { min: 1 },
  ),
  detailCacheSeconds: int(
    "MARKET_DETAIL_CACHE_SECONDS",
    60,
    "cache window of a market page (/api/v2/market/{id}, /api/public/v1/market/{id}): consensus and holder rankings",
    { min: 0 },
  ),
  detailCachedBodies: int("MARKET_DETAIL_CACHED_BODIES", 5_000, "market page answers an API process keeps serialized", {
    min: 0,
  }),
  detailCachedMb: int(
    "MARKET_DETAIL_CACHED_MB",
    64,
    "MiB of market page answers an API process keeps serialized, for each of the two market page routes (v2 and public v1)",
    { min: 0 },
  ),
  searchCacheSeconds: int(
    "MARKET_SEARCH_CACHE_SECONDS",
    10,
    "how long an API process answers a repeated market search from the answer it computed (days_left and the date filters as of then); 0: never",
    { min: 0 },
  ),
  searchCachedAnswers: int(
    "MARKET_SEARCH_CACHED_ANSWERS",
    1_000,
    "distinct market searches whose serialized answers an API process keeps (MARKET_SEARCH_CACHE_SECONDS)",
    { min: 0 },
  ),
  searchCachedMb: int("MARKET_SEARCH_CACHED_MB", 32, "MiB of serialized market search answers an API process keeps", {
    min: 0,
  }),
  qualityMinVolume: num(
    "MARKET_QUALITY_MIN_VOLUME",
    10_000,
    "volume (USD) an open market needs to count as active_quality in category-stats",
    { min: 0 },
  ),
  qualityPriceMin: num(
    "MARKET_QUALITY_PRICE_MIN",
    0.03,
    "YES price below which an open market is extreme (not active_quality)",
    { min: 0, max: 1 },
  ),
  qualityPriceMax: num(
    "MARKET_QUALITY_PRICE_MAX",
    0.97,
    "YES price above which an open market is extreme (not active_quality)",
    { min: 0, max: 1 },
  ),
} as const;

export const insights = {
  categoryMinSharePct: num(
    "INSIGHTS_CATEGORY_MIN_SHARE_PCT",
    5,
    "volume share (percent) a category needs to count for a wallet (related markets, shared categories)",
    { min: 0, max: 100 },
  ),
  relatedMarketsPerCategory: int(
    "RELATED_MARKETS_PER_CATEGORY",
    5,
    "active markets suggested per category by related-markets",
    { min: 1 },
  ),
  relatedPriceMin: num(
    "RELATED_MARKETS_PRICE_MIN",
    0.03,
    "YES price below which a market counts as extreme (decided) for related-markets",
    { min: 0, max: 1 },
  ),
  relatedPriceMax: num(
    "RELATED_MARKETS_PRICE_MAX",
    0.97,
    "YES price above which a market counts as extreme (decided) for related-markets",
    { min: 0, max: 1 },
  ),
  matchMinWhales: int(
    "WHALE_MATCH_MIN_WHALES",
    3,
    "matched whales on one side for missed-opportunities and active-whale-markets",
    { min: 1 },
  ),
  groupWhalesListed: int(
    "WHALE_GROUP_WHALES_LISTED",
    20,
    "whales listed by name per market of missed-opportunities and active-whale-markets (the largest figures; whale_count counts them all)",
    { min: 1 },
  ),
  similarHighOverlapPct: num(
    "SIMILAR_HIGH_OVERLAP_PCT",
    75,
    "category overlap (percent) labelled 'Very similar' by similar-traders",
    { min: 0, max: 100 },
  ),
  similarMediumOverlapPct: num(
    "SIMILAR_MEDIUM_OVERLAP_PCT",
    50,
    "category overlap (percent) labelled 'Similar' by similar-traders",
    { min: 0, max: 100 },
  ),
  searchMaxResults: int("WALLET_SEARCH_MAX_RESULTS", 20, "results returned by wallet-search", { min: 1, max: 200 }),
  searchIndexMatches: int(
    "WALLET_SEARCH_INDEX_MATCHES",
    5_000,
    'wallets a part of a wallet-search reads from its indexes at most; a part whose indexes name more (a query of one or two letters, "0x") walks wallets by total P&L until it has its matches',
    { min: 0 },
  ),
  searchWalkRows: int(
    "WALLET_SEARCH_WALK_ROWS",
    100_000,
    "wallets such a walk reads at most (in pages, the event loop free between them) before it reads every match instead",
    { min: 1 },
  ),
  searchCacheSeconds: int(
    "WALLET_SEARCH_CACHE_SECONDS",
    30,
    "seconds a search's results are kept per query (lower-cased, trimmed); 0: every search reads the store",
    { min: 0 },
  ),
} as const;

export const boards = {
  leaderboardCacheSeconds: int(
    "LEADERBOARD_CACHE_SECONDS",
    60,
    "cache window of /api/leaderboard's period rankings (7d and 30d move with the clock)",
    { min: 0 },
  ),
  leaderboardCheckSeconds: int(
    "LEADERBOARD_CHECK_SECONDS",
    5,
    "how often an API process looks whether the Deriver rewrote wallet_stats (a rebuild or refresh); only then it reloads its leaderboard table, and a kept wallet overview is computed again",
    { min: 0 },
  ),
  leaderboardCachedPages: int(
    "LEADERBOARD_CACHED_PAGES",
    2_000,
    "distinct leaderboard queries whose serialized answers an API process keeps (until the table is reloaded)",
    { min: 0 },
  ),
  leaderboardCachedMb: int("LEADERBOARD_CACHED_MB", 64, "MiB of serialized leaderboard answers an API process keeps", {
    min: 0,
  }),
  whaleMoveMinUsd: num(
    "HOME_WHALE_MOVE_MIN_USD",
    50_000,
    "smallest smart-whale fill (USD) shown by /home/whale-moves",
    { min: 0 },
  ),
  whaleMoveHours: int("HOME_WHALE_MOVE_HOURS", 6, "window (hours) of /home/whale-moves", { min: 1 }),
  topWhalesDays: int("HOME_TOP_WHALES_DAYS", 7, "window (days) of the realized P&L ranked by /home/top-whales-7d", {
    min: 1,
  }),
  topMoversDays: int("TOP_MOVERS_DAYS", 7, "window (days) of the P&L swing ranked by /api/analytics/top-movers", {
    min: 1,
  }),
  roleMakerShare: num(
    "ROLE_MARKET_MAKER_SHARE",
    0.6,
    "share of volume as resting maker above which role_profile is 'market maker'",
    { min: 0, max: 1 },
  ),
  roleFavouriteAvgEntry: num(
    "ROLE_FAVOURITE_AVG_ENTRY",
    0.8,
    "average entry price at or above which role_profile is 'favourite buyer'",
    { min: 0, max: 1 },
  ),
  roleLongshotAvgEntry: num(
    "ROLE_LONGSHOT_AVG_ENTRY",
    0.25,
    "average entry price at or below which role_profile is 'longshot buyer'",
    { min: 0, max: 1 },
  ),
} as const;
