/** Settings, part of src/config/index.ts: the Deriver, request limits, wallet reads, live streams, AI analysis and drill-downs. */
import { int, num, optionalDate, optionalStr, optionalUrl, HTTP } from "../settings.js";

export const derive = {
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
  venueHistoryStart: optionalDate(
    "VENUE_HISTORY_START",
    "the day the venue's first record was made (YYYY-MM-DD): a chain ingest that starts no later holds every wallet's whole history, so wins and losses come from the ledger from the first answer, before any wallet sync; unset: each wallet's sync tells where its history starts (the demo sets its world's first day)",
  ),
  snapshotDays: int("POSITION_SNAPSHOT_DAYS", 35, "daily position snapshots are written and kept for this many days", {
    min: 2,
  }),
} as const;

export const limits = {
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
  keyCheckCacheSeconds: int(
    "KEY_CHECK_CACHE_SECONDS",
    5,
    "how long an API process keeps the check of a key that exists (valid, revoked or rotated; found by its SHA-256) instead of reading the store; revocations, rotations and plan changes are announced on the pub/sub and drop it at once, so this bounds only what a missed announcement or a change made to the store by hand leaves; 0: every request reads the store",
    { min: 0, max: 300 },
  ),
  keyCheckCacheEntries: int(
    "KEY_CHECK_CACHE_ENTRIES",
    10_000,
    "key checks an API process keeps at most (KEY_CHECK_CACHE_SECONDS); unknown keys are never kept",
    { min: 1 },
  ),
  walletPresenceSeconds: int("PRESENCE_WALLET_SECONDS", 90, "a wallet page ping keeps a session this long", {
    min: 1,
  }),
  homePresenceSeconds: int("PRESENCE_HOME_SECONDS", 30, "a home page ping keeps a session this long", { min: 1 }),
} as const;

export const wallet = {
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
} as const;

export const live = {
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
} as const;

export const ai = {
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
    "longest retry_after_seconds of a pending reply, which is estimated from the jobs ahead and the measured generation time (longer only while a failed generation waits for its retry)",
    { min: 1, max: 3_600 },
  ),
  expectedSeconds: int(
    "AI_ANALYSIS_EXPECTED_SECONDS",
    5,
    "a generation's time the pending reply's estimate assumes until this process has measured one",
    { min: 1, max: 600 },
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
} as const;

export const drilldowns = {
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
    "how often an API process looks whether the Smart Money set changed (a market's kept trades page and whale trades are then computed again)",
    { min: 0 },
  ),
} as const;
