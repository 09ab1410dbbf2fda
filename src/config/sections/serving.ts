/** Settings, part of src/config/index.ts: how the process serves: HTTP, the store it opens, the platform (in memory or Redis). */
import { bool, int, oneOf, optionalUrl, proxyTrust, str } from "../settings.js";

export const server = {
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
  validationErrorsListed: int(
    "HTTP_VALIDATION_ERRORS_LISTED",
    20,
    "errors a 422 lists at most; a last entry counts the rest (a query with a thousand unknown parameters must not get an answer a thousand times its size)",
    { min: 1, max: 1_000 },
  ),
  shutdownGraceMs: int("SHUTDOWN_GRACE_MS", 10_000, "how long SIGTERM waits for in-flight requests", { min: 0 }),
  closeBackgroundWaitMs: int(
    "SHUTDOWN_BACKGROUND_WAIT_MS",
    5_000,
    "how long a closing API waits for the background reads it started (reloads of its in-memory copies, warm-ups) before the store closes; what still runs then is logged and left",
    { min: 0 },
  ),
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
  aggregatesWorker: bool(
    "AGGREGATES_WORKER",
    true,
    "compute the figures kept per clock window (site, home and analytics aggregates) in a worker thread with its own store connection, off the thread that answers requests; false: in that thread",
  ),
  gzipMinBytes: int(
    "GZIP_MIN_BYTES",
    1_024,
    "answers kept serialized (leaderboards, market pages, overviews) this large or larger are sent gzip-compressed to clients that accept it; 0: never",
    { min: 0 },
  ),
} as const;

export const store = {
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
  sqliteReadCacheMb: int(
    "SQLITE_READ_CACHE_MB",
    64,
    "SQLite page cache in MiB of a process that does not ingest (API only): its reads are answers kept serialized, stamps and small computations, and the operating system's cache holds the file's pages anyway",
    { min: 2 },
  ),
  sqliteReplaySortCacheMb: int(
    "SQLITE_REPLAY_SORT_CACHE_MB",
    8,
    "SQLite page cache while a replay (rebuild, warm start) sums every wallet's wash legs in one sort: it sizes the sorted runs SQLite merges (measured 16 s with 8 MiB against 23 s with 256 MiB at 10,000,000 fills)",
    { min: 1 },
  ),
  sqliteSortThreads: int(
    "SQLITE_SORT_THREADS",
    2,
    "helper threads SQLite may start for one large sort, such as an index build (sorted runs in parallel: measured 1.5x on the fills' indexes); 0: none",
    { min: 0, max: 8 },
  ),
} as const;

export const platform = {
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
} as const;
