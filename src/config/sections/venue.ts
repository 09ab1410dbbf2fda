/** Settings, part of src/config/index.ts: the venue's APIs, and how the ingest reads them. */
import { bool, date, extraExchanges, int, optionalStr, optionalUrl, url, HTTP } from "../settings.js";

export const venue = {
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
  extraExchanges: extraExchanges(
    "VENUE_EXTRA_EXCHANGES",
    "exchange contracts to read beyond those Pelagic knows (docs/VENUE.md), as address:layout, comma-separated (layout v1: OrderFilled with asset ids; v2: with side and token id); a new exchange generation is then ingested without a release",
  ),
  marketUrl: url("VENUE_MARKET_URL", "https://polymarket.com", "public site, for /api/v2/pm redirects", HTTP),
  v2CutoverDate: date("VENUE_V2_CUTOVER_DATE", "2026-04-28", "date of the V1 to V2 exchange cutover"),
  requestTimeoutMs: int("VENUE_TIMEOUT_MS", 10_000, "timeout of one venue request", { min: 100 }),
  liveTimeoutMs: int("VENUE_LIVE_TIMEOUT_MS", 2_500, "timeout of a live venue read on a request path, before a 502", {
    min: 100,
  }),
} as const;

export const ingest = {
  enabled: bool("INGEST", true, "run ingest in this process (role all)"),
  thread: bool(
    "INGEST_THREAD",
    true,
    "role all: run the ingest (batches, derivation, wallet syncs, territory monitor) in a worker thread with its own store connection, so that no request waits behind it; false: in the thread that answers requests",
  ),
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
  readyWallets: int(
    "INGEST_READY_WALLETS",
    300,
    "when the chain history may be shorter than a wallet's (VENUE_HISTORY_START unset or earlier than the chain's first block), wallets synced before the service says ready: the heads of Smart Money and of the P&L, volume and trades boards, a quarter each",
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
} as const;
