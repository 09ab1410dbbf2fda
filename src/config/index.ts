/**
 * The one configuration of Pelagic. Every setting, URL and threshold of docs/METRICS.md lives here,
 * read from the environment (`PORT=9000`) or from a flag (`--port 9000`); flags win.
 */
import { join, resolve } from "node:path";
import {
  ConfigError,
  bool,
  date,
  int,
  listSettings,
  num,
  oneOf,
  optionalStr,
  optionalUrl,
  proxyTrust,
  redactUrl,
  resolveTree,
  str,
  url,
  type Resolved,
} from "./settings.js";
import { checkRetrySchedule, checkWebhookKey } from "./isw-settings.js";

export { ConfigError, redactUrl };

const HTTP = ["http:", "https:"];

export const settings = {
  server: {
    port: int("PORT", 8080, "HTTP port", { min: 0, max: 65535 }),
    host: str("HOST", "127.0.0.1", "HTTP bind address"),
    role: oneOf(
      "ROLE",
      "all",
      ["all", "api", "ingest"] as const,
      "all: API and ingest in one process; api or ingest for the scaled mode",
    ),
    logLevel: oneOf(
      "LOG_LEVEL",
      "info",
      ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const,
      "pino log level",
    ),
    trustProxy: proxyTrust(
      "TRUST_PROXY",
      "proxies in front of the service whose X-Forwarded-For names the client: false (none), a hop count (e.g. 1 behind one load balancer), or their addresses/CIDR ranges, comma-separated",
    ),
    requestTimeoutMs: int(
      "HTTP_REQUEST_TIMEOUT_MS",
      10_000,
      "time a client has to send a whole request (headers and body) before it is answered 408 and closed",
      { min: 100, max: 600_000 },
    ),
    connectionTimeoutMs: int(
      "HTTP_CONNECTION_TIMEOUT_MS",
      120_000,
      "a connection idle this long (no bytes either way) is closed; streams send keepalives well within it",
      { min: 1_000, max: 3_600_000 },
    ),
    keepAliveTimeoutMs: int(
      "HTTP_KEEP_ALIVE_TIMEOUT_MS",
      10_000,
      "an idle keep-alive connection between two requests is closed after this long",
      { min: 100, max: 600_000 },
    ),
    bodyLimitBytes: int(
      "HTTP_BODY_LIMIT_BYTES",
      16_384,
      "largest request body accepted (413 beyond): the largest legitimate one, a 50-wallet batch of names, is a few KiB",
      { min: 1_024, max: 10_485_760 },
    ),
    shutdownGraceMs: int("SHUTDOWN_GRACE_MS", 10_000, "how long SIGTERM waits for in-flight requests", { min: 0 }),
    slowRequestMs: int(
      "SLOW_REQUEST_MS",
      1_000,
      "requests slower than this are logged at warn; the others at debug (access log)",
      { min: 0 },
    ),
    metrics: oneOf(
      "METRICS",
      "local",
      ["local", "open", "off"] as const,
      "who may read /metrics (Prometheus text format): local (the local host only; others get 404), open (any client, within its rate limit: put it behind your network's own rules), off (404 to all)",
    ),
    webDir: str(
      "WEB_DIR",
      "",
      "folder of the built web dashboard served under /; empty: the package's web/dist (built by npm install)",
    ),
    roundNumbers: bool(
      "ROUND_NUMBERS",
      true,
      "write USD in cents, percents and ratios to 2 decimals, prices to 4, one fill's amounts and shares to 6 (src/api/rounding.ts); false: as computed",
    ),
    gzipMinBytes: int(
      "GZIP_MIN_BYTES",
      1_024,
      "answers kept serialized (leaderboards, market pages, overviews) this large or larger are sent gzip-compressed to clients that accept it; 0: never",
      { min: 0 },
    ),
  },
  store: {
    dataDir: str("DATA_DIR", "./data", "folder of the SQLite file and other local state"),
    databaseUrl: optionalUrl("DATABASE_URL", "postgres:// URL selects PostgreSQL; absent selects SQLite in DATA_DIR", [
      "postgres:",
      "postgresql:",
    ]),
    databaseReadUrl: optionalUrl(
      "DATABASE_READ_URL",
      "postgres:// URL of a streaming replica of DATABASE_URL: processes that serve the API read from it (the ingest writes to DATABASE_URL); keys, AI analyses, webhooks and lookups, which the API writes and reads back at once, stay on DATABASE_URL; absent: everything on DATABASE_URL",
      ["postgres:", "postgresql:"],
    ),
    poolSize: int("DATABASE_POOL_SIZE", 10, "PostgreSQL connection pool size", { min: 1, max: 200 }),
    sqliteCacheMb: int(
      "SQLITE_CACHE_MB",
      256,
      "SQLite page cache in MiB (bulk ingest into the indexed fills table is fastest when its indexes stay cached)",
      { min: 2 },
    ),
    sqliteSortThreads: int(
      "SQLITE_SORT_THREADS",
      2,
      "helper threads SQLite may start for one large sort, such as an index build (sorted runs in parallel: measured 1.5x on the fills' indexes); 0: none",
      { min: 0, max: 8 },
    ),
  },
  platform: {
    redisUrl: optionalUrl(
      "REDIS_URL",
      "redis:// URL selects Redis for cache, rate limits, presence and pub/sub; absent selects in-process backends",
      ["redis:", "rediss:"],
    ),
    redisPrefix: str("REDIS_PREFIX", "pelagic:", "prefix of every Redis key"),
    cacheMaxEntries: int("CACHE_MAX_ENTRIES", 50_000, "entries kept by the in-process cache", { min: 100 }),
    cacheStaleSeconds: int("CACHE_STALE_SECONDS", 86_400, "how long an expired entry is kept as last-known-good", {
      min: 0,
    }),
    cacheMaxMb: int(
      "CACHE_MAX_MB",
      64,
      "MiB the in-process cache keeps, counting each entry's key and JSON length; the least recently used entries go first past it",
      { min: 1 },
    ),
    cacheNotFoundSeconds: int(
      "CACHE_NOT_FOUND_SECONDS",
      30,
      "how long a cached 'not found' (an unknown wallet's overview) is believed, in memory and in Redis; never kept as last-known-good; 0: not cached",
      { min: 0 },
    ),
  },
  venue: {
    gammaUrl: url("VENUE_GAMMA_URL", "https://gamma-api.polymarket.com", "Gamma API (markets, events)", HTTP),
    dataApiUrl: url(
      "VENUE_DATA_API_URL",
      "https://data-api.polymarket.com",
      "Data API (trades, activity, positions)",
      HTTP,
    ),
    pnlUrl: url("VENUE_PNL_URL", "https://user-pnl-api.polymarket.com", "user P&L curve", HTTP),
    rtdsUrl: url("VENUE_RTDS_URL", "wss://ws-live-data.polymarket.com", "real-time data service websocket", [
      "ws:",
      "wss:",
    ]),
    rpcUrl: optionalUrl("VENUE_RPC_URL", "Polygon JSON-RPC; absent means fills come from the Data API /trades", HTTP),
    rpcRequestsPerSecond: int(
      "VENUE_RPC_REQUESTS_PER_SECOND",
      25,
      "JSON-RPC requests per second (HTTP requests; a batch of block headers is one); providers' limits differ by plan",
      { min: 1 },
    ),
    marketUrl: url("VENUE_MARKET_URL", "https://polymarket.com", "public site, for /api/v2/pm redirects", HTTP),
    v2CutoverDate: date("VENUE_V2_CUTOVER_DATE", "2026-04-28", "date of the V1 to V2 exchange cutover"),
    requestTimeoutMs: int("VENUE_TIMEOUT_MS", 10_000, "timeout of one venue request", { min: 100 }),
    liveTimeoutMs: int("VENUE_LIVE_TIMEOUT_MS", 2_500, "timeout of a live venue read on a request path, before a 502", {
      min: 100,
    }),
  },
  isw: {
    arcgisUrl: url(
      "ISW_ARCGIS_URL",
      "https://services5.arcgis.com/SaBe5HMtmnbqSWlu/arcgis/rest/services",
      "ArcGIS REST services root of the ISW layers",
      HTTP,
    ),
    fastProbeSeconds: int("ISW_FAST_PROBE_SECONDS", 5, "probe interval inside the busy window", { min: 1 }),
    slowProbeSeconds: int("ISW_SLOW_PROBE_SECONDS", 30, "probe interval outside the busy window", { min: 1 }),
    busyWindowStartHour: int("ISW_BUSY_START_HOUR_UTC", 13, "busy window start (UTC hour)", { min: 0, max: 23 }),
    busyWindowEndHour: int("ISW_BUSY_END_HOUR_UTC", 19, "busy window end (UTC hour)", { min: 0, max: 24 }),
    criticalCoverage: num("ISW_ENTIRETY_COVERAGE", 0.98, "coverage that counts as all of a polygon captured", {
      min: 0,
      max: 1,
    }),
    highDistanceM: num("ISW_HIGH_DISTANCE_M", 1_000, "HIGH threat within this distance", { min: 0 }),
    highCoverage: num("ISW_HIGH_COVERAGE", 0.5, "HIGH threat at this coverage (entirety)", { min: 0, max: 1 }),
    mediumDistanceM: num("ISW_MEDIUM_DISTANCE_M", 3_000, "MEDIUM threat within this distance", { min: 0 }),
    mediumCoverage: num("ISW_MEDIUM_COVERAGE", 0.2, "MEDIUM threat at this coverage", { min: 0, max: 1 }),
    lowDistanceM: num("ISW_LOW_DISTANCE_M", 10_000, "LOW threat within this distance", { min: 0 }),
    webhookAllowLoopback: bool("ISW_WEBHOOK_ALLOW_LOOPBACK", false, "allow webhook URLs on loopback (tests only)"),
    monitor: bool(
      "ISW_MONITOR",
      true,
      "run the territory probe and the webhook dispatcher in the process that ingests (role all with INGEST=true, or role ingest)",
    ),
    controlLayer: str(
      "ISW_CONTROL_LAYER",
      "VIEW_RussiaCoTinUkraine_V3/FeatureServer/49",
      "assessed Russian control layer: a path under ISW_ARCGIS_URL, or a full URL",
    ),
    advanceLayer: str(
      "ISW_ADVANCE_LAYER",
      "AssessedRussianAdvanceInUkraine_V2_view/FeatureServer/0",
      "assessed Russian advance layer: a path under ISW_ARCGIS_URL, or a full URL",
    ),
    gainsLayer: str(
      "ISW_GAINS_LAYER",
      "Assessed_Russian_Gains_in_the_Past_24_Hours_view/FeatureServer/0",
      "gains of the past 24 h (no edit dates: fetched and hashed at most every ISW_SLOW_PROBE_SECONDS); empty: not probed",
    ),
    infiltrationLayer: str(
      "ISW_INFILTRATION_LAYER",
      "View_AssessedRussianInfiltrationAreasinUkraine_V4/FeatureServer/0",
      "infiltration areas, counted for enter subscriptions only; empty: not probed",
    ),
    citiesFile: optionalStr(
      "ISW_CITIES_FILE",
      "JSON file of the monitored cities and their subscriptions (format in README), replacing the built-in list of the venue's territory markets",
    ),
    bufferAdvanceM: num(
      "ISW_BUFFER_ADVANCE_M",
      200,
      "buffer of a single (point) subscription that names none: the point counts as shaded when shading comes this close",
      { min: 0 },
    ),
    confirmAfterHours: num(
      "ISW_CONFIRM_AFTER_HOURS",
      12,
      "a capture is confirmed by the first map that still shows it after its control and advance layers were both edited again, once this long has passed since the capture (the next full daily update, not a same-day correction)",
      { min: 0 },
    ),
    probeBackoffMaxSeconds: int(
      "ISW_PROBE_BACKOFF_MAX_SECONDS",
      600,
      "longest pause of the probe after the layers' server throttled or failed (the pause doubles from the probe interval)",
      { min: 1 },
    ),
    statusCacheSeconds: int(
      "ISW_STATUS_CACHE_SECONDS",
      45,
      "cache window of /isw/status (an API process answers from the last good answer while the store fails)",
      { min: 0 },
    ),
    webhookKey: optionalStr(
      "ISW_WEBHOOK_KEY",
      "base64 of 32 bytes: the key that encrypts webhook secrets in the store; unset: the key file webhook-secrets.key in DATA_DIR, created on first use (scaled mode: set it on every process)",
    ),
    webhookTimeoutSeconds: int(
      "ISW_WEBHOOK_TIMEOUT_SECONDS",
      15,
      "a delivery succeeds only with a 2xx answer within this long",
      { min: 1, max: 120 },
    ),
    webhookRetrySchedule: str(
      "ISW_WEBHOOK_RETRY_SCHEDULE",
      "0,5,300,1800,7200,18000,36000,36000",
      "seconds before each delivery attempt, the first included (each later one with up to 10% jitter, and never before a Retry-After)",
    ),
    webhookConcurrency: int("ISW_WEBHOOK_CONCURRENCY", 4, "webhook deliveries sent at once", { min: 1, max: 64 }),
    webhooksPerAccount: int("ISW_WEBHOOKS_PER_ACCOUNT", 10, "webhook URLs one account may register", {
      min: 1,
      max: 1_000,
    }),
  },
  ledger: {
    profitFactorCap: num("PROFIT_FACTOR_CAP", 99.99, "cap of profit_factor", { min: 1 }),
    closedPositionsCompleteness: num(
      "CLOSED_POSITIONS_COMPLETENESS",
      0.95,
      "share of expected closed positions the venue cache must hold to use its counts",
      { min: 0, max: 1 },
    ),
    holdWindowDays: int("HOLD_WINDOW_DAYS", 90, "median hold looks at positions closed in this many days", { min: 1 }),
    holdMinPositions: int("HOLD_MIN_POSITIONS", 3, "median hold needs at least this many positions", { min: 1 }),
    rankMinResolvedMarkets: int("RANK_MIN_RESOLVED_MARKETS", 10, "resolved markets to be ranked", { min: 0 }),
  },
  farmer: {
    favouriteMinAvgBuyPrice: num(
      "FARMER_FAVOURITE_AVG_BUY_PRICE",
      0.95,
      "volume-weighted average buy price above which a wallet farms favourites",
      { min: 0, max: 1 },
    ),
    botMinFills: int("FARMER_BOT_MIN_FILLS", 500_000, "fill count above which small fills mark a reward/volume bot", {
      min: 1,
    }),
    botMaxAvgFillUsd: num("FARMER_BOT_MAX_AVG_FILL_USD", 20, "average fill under which a high-count wallet is a bot", {
      min: 0,
    }),
    twoSidedMarketShare: num("FARMER_TWO_SIDED_MARKET_SHARE", 0.4, "share of markets held on both sides at once", {
      min: 0,
      max: 1,
    }),
    twoSidedMinBalance: num(
      "FARMER_TWO_SIDED_MIN_BALANCE",
      0.4,
      "a market counts as held on both sides when, at some moment, the smaller side held at least this share of the larger side's shares (an order filled now and then on the other side is no two-sided position)",
      { min: 0, max: 1 },
    ),
    twoSidedMinMarkets: int(
      "FARMER_TWO_SIDED_MIN_MARKETS",
      10,
      "markets held before either two-sided measure can mark a wallet (one hedged market is not farming)",
      { min: 1 },
    ),
    splitMergeVolumeShare: num(
      "FARMER_SPLIT_MERGE_VOLUME_SHARE",
      0.6,
      "the wallet's own splits and merges (collateral into both outcomes and back) as a share of its fill volume that, with near-zero P&L, marks two-sided farming",
      { min: 0 },
    ),
    nearZeroPnlShare: num("FARMER_NEAR_ZERO_PNL_SHARE", 0.005, "|P&L| under this share of volume is near zero", {
      min: 0,
      max: 1,
    }),
    washRingVolumeShare: num(
      "FARMER_WASH_RING_VOLUME_SHARE",
      0.2,
      "share of volume against a small ring that marks wash trading",
      { min: 0, max: 1 },
    ),
    washRingMaxCounterparties: int(
      "FARMER_WASH_RING_MAX_COUNTERPARTIES",
      5,
      "largest ring of counterparties counted as 'small'",
      { min: 1 },
    ),
  },
  smart: {
    minResolvedMarkets: int("SMART_MIN_RESOLVED_MARKETS", 10, "resolved markets for Smart Money", { min: 0 }),
    minWinRate: num("SMART_MIN_WIN_RATE", 55, "win rate (percent) for Smart Money", { min: 0, max: 100 }),
    skillMinResolvedMarkets: int("SKILL_MIN_RESOLVED_MARKETS", 30, "resolved markets for the skill badge", { min: 0 }),
    skillMinZ: num("SKILL_MIN_Z", 2.33, "edge z-score for the skill badge (one-sided 1%)"),
    skillMaxEventPnlShare: num(
      "SKILL_MAX_EVENT_PNL_SHARE",
      0.5,
      "largest share of P&L one event may hold for the skill badge",
      { min: 0, max: 1 },
    ),
  },
  whales: {
    consensusMinUsd: num("CONSENSUS_MIN_USD", 100, "net position at cost to stand on a market's team", { min: 0 }),
    flipMinSwingUsd: num("FLIP_MIN_SWING_USD", 200_000, "swing of a whale flip", { min: 0 }),
    clusterMinWhales: int("CLUSTER_MIN_WHALES", 3, "smart wallets aligned for a conviction cluster", { min: 1 }),
    clusterMinMarkets: int("CLUSTER_MIN_MARKETS", 2, "markets of one event for a conviction cluster", { min: 1 }),
    alertSummaryMinUsd: num(
      "WHALE_ALERT_SUMMARY_MIN_USD",
      1_000,
      "smallest smart-whale fill (USD) the whale-alerts summary counts",
      { min: 0 },
    ),
    bigPositionMinUsd: num(
      "BIG_POSITION_MIN_USD",
      500_000,
      "cost basis (USD) from which a whale's position is a big position: the big-positions list's default min_usd and its summary's floor",
      { min: 0 },
    ),
  },
  whaleReads: {
    alertsRefreshSeconds: int(
      "WHALE_ALERTS_REFRESH_SECONDS",
      2,
      "how often an API process adds newly stored fills to its in-memory copy of the last 48 h of smart-whale fills (whale alerts, their summary, recent whale trades)",
      { min: 0 },
    ),
    alertsCachedMb: int(
      "WHALE_ALERTS_CACHED_MB",
      16,
      "MiB of whale-alert answers an API process keeps serialized for the clock second they were computed in: the same query again within that second is not computed again",
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
  },
  markets: {
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
    detailCachedBodies: int(
      "MARKET_DETAIL_CACHED_BODIES",
      5_000,
      "market page answers an API process keeps serialized",
      { min: 0 },
    ),
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
  },
  insights: {
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
  },
  boards: {
    leaderboardCacheSeconds: int(
      "LEADERBOARD_CACHE_SECONDS",
      60,
      "cache window of /api/leaderboard's period rankings (7d and 30d move with the clock)",
      { min: 0 },
    ),
    leaderboardCheckSeconds: int(
      "LEADERBOARD_CHECK_SECONDS",
      5,
      "how often an API process looks whether the Deriver rewrote wallet_stats (a rebuild or refresh); only then it reloads its leaderboard table",
      { min: 0 },
    ),
    leaderboardCachedPages: int(
      "LEADERBOARD_CACHED_PAGES",
      2_000,
      "distinct leaderboard queries whose serialized answers an API process keeps (until the table is reloaded)",
      { min: 0 },
    ),
    leaderboardCachedMb: int(
      "LEADERBOARD_CACHED_MB",
      64,
      "MiB of serialized leaderboard answers an API process keeps",
      { min: 0 },
    ),
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
  },
  derive: {
    refreshSeconds: int(
      "DERIVE_REFRESH_SECONDS",
      60,
      "interval of the ledger's refresh: rankings, market stats, venue syncs, resolutions, re-derived wallets",
      { min: 1 },
    ),
    washRefreshSeconds: int(
      "DERIVE_WASH_REFRESH_SECONDS",
      900,
      "a trading wallet's wash-ring share is recomputed from its fills at most this often",
      { min: 0 },
    ),
    hourlyPointsDays: int("PNL_HOURLY_DAYS", 8, "hourly P&L points are written and kept for this many days", {
      min: 2,
    }),
    snapshotDays: int(
      "POSITION_SNAPSHOT_DAYS",
      35,
      "daily position snapshots are written and kept for this many days",
      { min: 2 },
    ),
  },
  limits: {
    premiumPerMinute: int("RATE_PREMIUM_PER_MINUTE", 600, "Premium requests per key per sliding minute", { min: 1 }),
    freePerMinute: int("RATE_FREE_PER_MINUTE", 200, "Free requests per client IP per sliding minute", { min: 1 }),
    liveViewsPerMinute: int(
      "RATE_LIVE_VIEWS_PER_MINUTE",
      10,
      "overviews with view=signer or view=union that each client may have computed live from the venue per sliding minute (answers cached for WALLET_OVERVIEW_CACHE_SECONDS are free): the venue's request budget is shared by every user",
      { min: 1, max: 10_000 },
    ),
    heavyReadCost: int(
      "RATE_HEAVY_READ_COST",
      5,
      "requests of the budget an expensive wallet read costs (whale-matches, missed-opportunities, active-whale-markets, last-moves): a page that scans a busy wallet's history should not cost what a cached overview does",
      { min: 1, max: 100 },
    ),
    sseConnectionsPerKey: int(
      "SSE_CONNECTIONS_PER_KEY",
      5,
      "concurrent live-stream connections per key, SSE and WebSocket together",
      { min: 1 },
    ),
    walletPresenceSeconds: int("PRESENCE_WALLET_SECONDS", 90, "a wallet page ping keeps a session this long", {
      min: 1,
    }),
    homePresenceSeconds: int("PRESENCE_HOME_SECONDS", 30, "a home page ping keeps a session this long", { min: 1 }),
  },
  wallet: {
    overviewCacheSeconds: int(
      "WALLET_OVERVIEW_CACHE_SECONDS",
      60,
      "cache window of a wallet overview read from stored data",
      { min: 1 },
    ),
    overviewCachedBodies: int(
      "WALLET_OVERVIEW_CACHED_BODIES",
      20_000,
      "proxy-view overview answers an API process keeps serialized (within the overview window)",
      { min: 0 },
    ),
    insightsCachedMb: int(
      "WALLET_INSIGHTS_CACHED_MB",
      32,
      "MiB of serialized wallet insight answers an API process keeps (whale matches and the per-wallet insights)",
      { min: 0 },
    ),
    overviewCachedMb: int(
      "WALLET_OVERVIEW_CACHED_MB",
      32,
      "MiB of serialized proxy-view overview answers an API process keeps, for each of the v2 and public v1 overview routes",
      { min: 0 },
    ),
    heavyWalletTrades: int(
      "WALLET_HEAVY_TRADES",
      250_000,
      "fills from which a wallet counts as very heavy: a cold public v1 overview answers 202 and computes in the background",
      { min: 1 },
    ),
    degradedInFlightRequests: int(
      "DEGRADED_IN_FLIGHT_REQUESTS",
      256,
      "wallet requests in flight in one process above which overviews drop their secondary counters (degraded)",
      { min: 0 },
    ),
    degradedEventLoopDelayMs: int(
      "DEGRADED_EVENT_LOOP_DELAY_MS",
      0,
      "event-loop delay (p99 over the last seconds) above which overviews are degraded; 0: off (in role all, ingest batches delay the loop without any API load)",
      { min: 0 },
    ),
  },
  live: {
    settlementHoldMs: int(
      "LIVE_SETTLEMENT_HOLD_MS",
      700,
      "hold of the raw relay while a transaction's fills are grouped",
      { min: 0 },
    ),
    keepaliveSeconds: int("LIVE_KEEPALIVE_SECONDS", 15, "SSE keepalive comment interval", { min: 1 }),
    reconnectAttempts: int("LIVE_RECONNECT_ATTEMPTS", 5, "upstream reconnect attempts before an error event", {
      min: 0,
    }),
    reconnectBaseMs: int(
      "LIVE_RECONNECT_BASE_MS",
      500,
      "delay before the first upstream reconnect attempt; each next one waits twice as long (500: 0.5, 1, 2, 4, 8 s)",
      { min: 1, max: 60_000 },
    ),
    slotLeaseSeconds: int(
      "LIVE_SLOT_LEASE_SECONDS",
      60,
      "lease of a live stream's slot (SSE_CONNECTIONS_PER_KEY), renewed every third of it while the stream is open: a process killed without a goodbye holds its streams' slots this long at most",
      { min: 3, max: 3_600 },
    ),
    clientBufferBytes: int(
      "LIVE_CLIENT_BUFFER_BYTES",
      262_144,
      "bytes a stream may have queued for a client that reads too slowly before it is disconnected (a few hundred events): a slow reader costs the server at most this",
      { min: 1_024 },
    ),
  },
  ai: {
    baseUrl: optionalUrl(
      "AI_MODEL_BASE_URL",
      "OpenAI-compatible chat-completions endpoint that writes AI analyses (its /v1 root: a local Ollama or llama.cpp server works the same); unset: the deterministic report written from the statistics",
      HTTP,
    ),
    model: optionalStr("AI_MODEL", "model name sent to AI_MODEL_BASE_URL (required with it)"),
    apiKey: optionalStr(
      "AI_MODEL_API_KEY",
      "bearer key of AI_MODEL_BASE_URL (a secret: never logged nor served; unset: no Authorization header)",
    ),
    timeoutMs: int(
      "AI_MODEL_TIMEOUT_MS",
      60_000,
      "time one model answer may take before the attempt counts as failed (a generation's lease lasts this plus 30 s)",
      { min: 100, max: 600_000 },
    ),
    maxTokens: int("AI_MODEL_MAX_TOKENS", 1_500, "largest answer asked of the model (max_tokens)", {
      min: 100,
      max: 32_000,
    }),
    temperature: num("AI_MODEL_TEMPERATURE", 0.2, "sampling temperature asked of the model", { min: 0, max: 2 }),
    concurrency: int(
      "AI_ANALYSIS_CONCURRENCY",
      2,
      "generations one API process runs at once (each API process works the queue)",
      { min: 1, max: 64 },
    ),
    freshHours: int(
      "AI_ANALYSIS_FRESH_HOURS",
      24,
      "age under which a saved analysis is reused: the generate call returns it unchanged unless force=true; an older one is still served, and regenerated",
      { min: 1 },
    ),
    retryAfterSeconds: int(
      "AI_ANALYSIS_RETRY_AFTER_SECONDS",
      60,
      "retry_after_seconds of a pending reply (longer while a failed generation waits for its retry)",
      { min: 1, max: 3_600 },
    ),
    retrySeconds: int(
      "AI_ANALYSIS_RETRY_SECONDS",
      30,
      "pause before retrying a failed generation; doubles with each failure",
      { min: 1 },
    ),
    retryMaxSeconds: int("AI_ANALYSIS_RETRY_MAX_SECONDS", 600, "longest pause before retrying a failed generation", {
      min: 1,
    }),
    maxAttempts: int(
      "AI_ANALYSIS_MAX_ATTEMPTS",
      5,
      "failed attempts after which a queued generation is dropped (the next read queues it again)",
      { min: 1, max: 100 },
    ),
    maxQueued: int(
      "AI_ANALYSIS_MAX_QUEUED",
      1_000,
      "queued generations across all processes beyond which a new one is refused (503)",
      { min: 1 },
    ),
    queuedPerMinute: int(
      "RATE_AI_ANALYSES_PER_MINUTE",
      10,
      "new AI analyses each client may queue per sliding minute (reading a saved or pending one is free): each one is a model call",
      { min: 1, max: 10_000 },
    ),
    pollSeconds: int(
      "AI_ANALYSIS_POLL_SECONDS",
      5,
      "how often an API process looks for queued generations it can take (its own requests wake it at once)",
      { min: 1, max: 3_600 },
    ),
    recentDays: int("AI_ANALYSIS_RECENT_DAYS", 7, "window (days) of the recent changes an analysis reports", {
      min: 1,
      max: 30,
    }),
  },
  drilldowns: {
    whaleTradesTimeoutMs: int(
      "WHALE_TRADES_TIMEOUT_MS",
      20_000,
      "time a market whale-trades read may take (its statements together) before it stops and answers 503 with Retry-After",
      { min: 1, max: 600_000 },
    ),
    whaleTradesRetryAfterSeconds: int(
      "WHALE_TRADES_RETRY_AFTER_SECONDS",
      30,
      "Retry-After of a market whale-trades read that ran past WHALE_TRADES_TIMEOUT_MS",
      { min: 1, max: 3_600 },
    ),
    whaleTradesCacheSeconds: int(
      "WHALE_TRADES_CACHE_SECONDS",
      10,
      "how long an API process answers a repeated market whale-trades read (same market, page and filters, same Smart Money list) from the answer it computed; 0: never",
      { min: 0 },
    ),
    whaleTradesCachedAnswers: int(
      "WHALE_TRADES_CACHED_ANSWERS",
      5_000,
      "distinct market whale-trades reads whose serialized answers an API process keeps (WHALE_TRADES_CACHE_SECONDS)",
      { min: 0 },
    ),
    whaleTradesCachedMb: int(
      "WHALE_TRADES_CACHED_MB",
      64,
      "MiB of serialized market whale-trades answers an API process keeps",
      { min: 0 },
    ),
    smartListCheckSeconds: int(
      "SMART_LIST_CHECK_SECONDS",
      5,
      "how often an API process looks whether the Deriver rewrote wallet_stats; only then it reloads the Smart Money list that flags whale trades",
      { min: 0 },
    ),
  },
  ingest: {
    enabled: bool("INGEST", true, "run ingest in this process (role all)"),
    startDate: optionalStr(
      "INGEST_START",
      "backfill start: YYYY-MM-DD or a block number (a date only without VENUE_RPC_URL); unset: follow from now",
    ),
    confirmations: int("INGEST_CONFIRMATIONS", 64, "blocks behind the head the chain follower stays", { min: 0 }),
    blockSpan: int(
      "INGEST_BLOCK_SPAN",
      2_000,
      "largest block range of one eth_getLogs request (smaller when the node refuses it; then sized to its log limit)",
      { min: 1 },
    ),
    batchRecords: int(
      "INGEST_BATCH_RECORDS",
      5_000,
      "chain fills and other events gathered into one write transaction (fewer at the end of a step): a transaction per small eth_getLogs answer spends the writer's time on per-batch work",
      { min: 1 },
    ),
    readThread: bool(
      "INGEST_READ_THREAD",
      true,
      "fetch, parse, decode and settle chain logs on a worker thread while the ingest's thread writes (it takes 4/5 of VENUE_RPC_REQUESTS_PER_SECOND, the other calls the rest)",
    ),
    deferIndexesBlocks: int(
      "INGEST_DEFER_INDEXES_BLOCKS",
      100_000,
      "a first chain sync with at least this many blocks to go drops the fills' wallet and market indexes and builds them, and its fills' wallets, once it reaches the head (0: always)",
      { min: 0 },
    ),
    indexBuildMemoryMb: int(
      "INGEST_INDEX_BUILD_MEMORY_MB",
      96,
      "PostgreSQL maintenance_work_mem and work_mem of the transaction that builds the indexes a first sync deferred and groups its fills by wallet (96: 32 MiB for the leader and each of PostgreSQL's 2 default parallel workers; measured faster than 256 and 1,024)",
      { min: 1 },
    ),
    sqliteIndexBuildCacheMb: int(
      "INGEST_SQLITE_INDEX_BUILD_CACHE_MB",
      8,
      "SQLite page cache while it builds the indexes a first sync deferred: it sizes the sorted runs SQLite merges, and small runs sort faster than one large one (measured 1.6x with 8 MiB against 256 MiB)",
      { min: 1 },
    ),
    pollSeconds: int(
      "INGEST_POLL_SECONDS",
      4,
      "pause of a caught-up fills pipeline before it looks for new blocks or trades",
      { min: 0 },
    ),
    marketsIntervalSeconds: int(
      "INGEST_MARKETS_INTERVAL_SECONDS",
      60,
      "pause between incremental market syncs (prices, volumes, closed state, resolutions)",
      { min: 0 },
    ),
    livePollSeconds: int(
      "INGEST_LIVE_POLL_SECONDS",
      2,
      "pause between /trades polls while the live feed (RTDS) is down",
      { min: 0 },
    ),
    tradesOverlapSeconds: int(
      "INGEST_TRADES_OVERLAP_SECONDS",
      600,
      "seconds each Data API /trades pass re-reads before the previous pass's end (the venue's indexing lag)",
      { min: 0 },
    ),
    retryMaxSeconds: int(
      "INGEST_RETRY_MAX_SECONDS",
      60,
      "longest pause of a pipeline after a failed step (exponential backoff with jitter)",
      { min: 1 },
    ),
    walletSyncConcurrency: int("INGEST_WALLET_SYNC_CONCURRENCY", 2, "wallets synced from the venue at once", {
      min: 1,
    }),
    walletSyncFreshSeconds: int(
      "INGEST_WALLET_SYNC_FRESH_SECONDS",
      600,
      "a wallet synced this recently is answered from the cache",
      { min: 0 },
    ),
    walletMaxClosedPositions: int(
      "INGEST_WALLET_MAX_CLOSED_POSITIONS",
      20_000,
      "closed positions read per wallet sync; beyond, the venue cache counts as truncated",
      { min: 1 },
    ),
    walletRequestPollSeconds: int(
      "INGEST_WALLET_REQUEST_POLL_SECONDS",
      2,
      "how often the ingest process takes the wallet syncs API processes asked for (a wallet's first view) from the store",
      { min: 1 },
    ),
    walletRefreshSeconds: int(
      "INGEST_WALLET_REFRESH_SECONDS",
      3_600,
      "the wallets of the leaderboards and whale lists are synced again once their sync is this old, one at a time in the background",
      { min: 60 },
    ),
    walletRefreshTop: int(
      "INGEST_WALLET_REFRESH_TOP",
      200,
      "besides every Smart Money wallet, the best this many by lifetime P&L (the leaderboards' first pages) are kept fresh",
      { min: 0 },
    ),
    unlistedRecheckSeconds: int(
      "INGEST_UNLISTED_RECHECK_SECONDS",
      300,
      "how often chain records of markets Gamma does not list yet are looked up again (held in the store meanwhile)",
      { min: 0 },
    ),
    unlistedKeepDays: int(
      "INGEST_UNLISTED_KEEP_DAYS",
      7,
      "splits, merges, redemptions and resolutions of a condition no listed market claims are dropped after this many days (another application's); fills always wait",
      { min: 1 },
    ),
  },
} as const;

export type Config = Resolved<typeof settings> & {
  readonly store: Resolved<typeof settings.store> & {
    readonly kind: "sqlite" | "postgres";
    readonly sqlitePath: string;
  };
  readonly platform: Resolved<typeof settings.platform> & { readonly kind: "memory" | "redis" };
};

/** Every setting with its dotted path, environment name, default and description. */
export function describeSettings() {
  return listSettings(settings).map(({ path, setting }) => ({
    path,
    env: setting.env,
    default: setting.defaultValue,
    defaultText: setting.defaultText ?? (setting.defaultValue === undefined ? "(unset)" : String(setting.defaultValue)),
    description: setting.description,
  }));
}

/** The flag `--data-dir` sets `DATA_DIR`. */
export function flagToEnv(flag: string): string {
  return flag.replace(/^--/, "").replace(/-/g, "_").toUpperCase();
}

/** `DATA_DIR` is set by the flag `--data-dir`: its name without the dashes. */
export function settingFlagName(env: string): string {
  return env.toLowerCase().replace(/_/g, "-");
}

/**
 * Builds the configuration. `flags` maps environment names to values taken from the command line;
 * they override the environment. Throws ConfigError naming the first invalid setting.
 */
/** Settings that were renamed: setting the old name is refused, so that it is never silently ignored. */
const RENAMED_SETTINGS: Readonly<Record<string, string>> = {
  FARMER_MINT_MERGE_VOLUME_SHARE:
    "FARMER_SPLIT_MERGE_VOLUME_SHARE (the two-sided test now reads the wallet's own splits and merges)",
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string> = {}): Config {
  for (const [old, now] of Object.entries(RENAMED_SETTINGS)) {
    if ((flags[old] ?? env[old]) !== undefined) throw new ConfigError(old, `was renamed: set ${now}`);
  }
  const base = resolveTree(settings, (name) => flags[name] ?? env[name]);
  if (base.isw.busyWindowEndHour <= base.isw.busyWindowStartHour) {
    throw new ConfigError("ISW_BUSY_END_HOUR_UTC", "must be after ISW_BUSY_START_HOUR_UTC");
  }
  if (base.ai.baseUrl && !base.ai.model)
    throw new ConfigError("AI_MODEL", "is required with AI_MODEL_BASE_URL (the model name the server knows)");
  if (base.store.databaseReadUrl && !base.store.databaseUrl)
    throw new ConfigError(
      "DATABASE_READ_URL",
      "needs DATABASE_URL: a replica is read beside the PostgreSQL primary that is written",
    );
  checkRetrySchedule(base.isw.webhookRetrySchedule);
  checkWebhookKey(base.isw.webhookKey);
  const dataDir = resolve(base.store.dataDir);
  return Object.freeze({
    ...base,
    store: Object.freeze({
      ...base.store,
      dataDir,
      kind: base.store.databaseUrl ? "postgres" : "sqlite",
      sqlitePath: join(dataDir, "pelagic.sqlite"),
    }),
    platform: Object.freeze({ ...base.platform, kind: base.platform.redisUrl ? "redis" : "memory" }),
  }) as Config;
}
