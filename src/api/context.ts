/**
 * What every route plugin receives: the process's configuration, store and platform, the store's readiness, and
 * the read models and kept answers every plugin shares.
 */
import type { ThreadMetrics } from "../platform/metrics.js";
import { Readiness } from "../analytics/reads/readiness.js";
import { WalletReads } from "../analytics/wallet/wallet-reads.js";
import { type AggregateComputer, InThreadAggregates } from "../analytics/windows/window-aggregates.js";
import { WhaleBook } from "../analytics/whales/whale-book.js";
import { WhaleReads } from "../analytics/whales/whale-reads.js";
import type { Config } from "../config/index.js";
import type { LiveDeps } from "../live/index.js";
import { BoardTable } from "../analytics/boards/board-table.js";
import { GenerationStamp } from "../kept/generation-stamp.js";
import { StampedBodies } from "../kept/stamped-bodies.js";
import type { Keeping } from "../kept/ttl-bodies.js";
import { BackgroundWork } from "../platform/background-work.js";
import { mebibytes } from "../platform/bounded-map.js";
import type { Platform } from "../platform/index.js";
import type { Store } from "../store/database.js";
import { SMART_GENERATION } from "../store/derive-state.js";
import { KeyChecks } from "./key-checks.js";
import { WarmUps } from "./warm-up.js";

/** What a process hands to the HTTP layer. */
export interface AppInput {
  readonly config: Config;
  /** Where reads go: the replica (DATABASE_READ_URL) in a process that serves the API with one, else the store written. */
  readonly store: Store;
  /** The store written (DATABASE_URL, or SQLite), when `store` is a replica: what the API writes and reads back at once. */
  readonly primary?: Store;
  readonly platform: Platform;
  /** Ingest sources whose first full sync must finish before `ready` turns true. */
  readonly expectedSources: readonly string[];
  readonly startedAt: number;
  /** Tests replace the live streams' timers or upstream; production builds them from the platform. */
  readonly live?: LiveDeps;
  /** Tests hand in the tracker of the app's background work to look at it; the app makes its own otherwise. */
  readonly background?: BackgroundWork;
  /**
   * Where the window aggregates are computed: the service hands in its worker thread (src/runtime/aggregates-worker.ts);
   * in this thread, over `store`, when absent.
   */
  readonly aggregates?: AggregateComputer;
  /** The metric families of the process's ingest thread (role all), added into /metrics. */
  readonly otherThreadMetrics?: () => Promise<readonly ThreadMetrics[]>;
}

export interface AppContext extends AppInput {
  /** The store written: keys, AI analyses, webhooks and lookups go here, as a replica may not have them yet. */
  readonly primary: Store;
  /** Whether the store holds the first sync's derived statistics: answers are kept (cached) only once it does. */
  readonly readiness: Readiness;
  /** What every wallet route reads: resolution, the overview's stored inputs and its views. */
  readonly wallets: WalletReads;
  /** What the Premium whale routes read: the Smart Money roster, recent whale fills and whale positions, kept per process. */
  readonly whales: WhaleReads;
  /** What the service computes before it listens, and keeps current per window (src/api/warm-up.ts). */
  readonly warmUps: WarmUps;
  /** Everything the app starts with no request waiting for it; closing the app waits for it (src/platform/background-work.ts). */
  readonly background: BackgroundWork;
  /** The gate's key checks, kept for KEY_CHECK_CACHE_SECONDS and dropped on every announced key change. */
  readonly keyChecks: KeyChecks;
  /** The leaderboards' table, one copy per process reloaded when the statistics' generation moves. */
  readonly boards: BoardTable;
  /** Every Smart Money position by (market, side) and by whale, as the whale matches read it; reloaded in the background. */
  readonly whaleBook: WhaleBook;
  /** `smart_generation` as this process last saw it: a market's trades page and whale trades are kept under it. */
  readonly smartStamp: GenerationStamp;
  /** What every kind of kept answers takes from the process: the clock, GZIP_MIN_BYTES and readiness. */
  readonly keeping: Keeping;
  /** Per-wallet and per-market answers kept under the stamp of their inputs (WALLET_INSIGHTS_CACHED_MB). */
  readonly stampedBodies: StampedBodies;
}

export function appContext(input: AppInput): AppContext {
  const background = input.background ?? new BackgroundWork();
  const readiness = new Readiness(input.store, input.expectedSources, background);
  const aggregates = input.aggregates ?? new InThreadAggregates(input.store, input.config);
  const warmUps = new WarmUps(input.platform, () => readiness.ready, background, aggregates);
  const primary = input.primary ?? input.store;
  const keeping = {
    clock: input.platform.clock,
    gzipMinBytes: input.config.server.gzipMinBytes,
    admitted: () => readiness.ready,
  };
  return {
    ...input,
    primary,
    readiness,
    wallets: new WalletReads({ ...input, background }),
    whales: new WhaleReads({ ...input, background }),
    warmUps,
    background,
    keyChecks: new KeyChecks(primary.db, input.platform.clock, input.config.limits),
    boards: new BoardTable(input.store, input.config, input.platform.clock, background),
    whaleBook: new WhaleBook(input.store, input.platform.clock, input.config.whaleReads.bookRefreshSeconds, background),
    smartStamp: new GenerationStamp(
      input.store,
      input.platform.clock,
      SMART_GENERATION,
      input.config.drilldowns.smartListCheckSeconds,
    ),
    keeping,
    stampedBodies: new StampedBodies(
      keeping,
      input.config.wallet.overviewCacheSeconds,
      mebibytes(input.config.wallet.insightsCachedMb),
    ),
  };
}
