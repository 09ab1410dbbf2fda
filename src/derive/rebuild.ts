/**
 * `rebuild`: every derived table recomputed from the stored fills and activity, and replaced in one
 * transaction (a crash before the commit leaves the previous results). The Deriver warms itself the same way.
 *
 * Everything is as of `asOf`: the clock, or the latest stored event when the store is behind the clock
 * (a resolution must not be swept before the events that precede it have arrived). The day's position
 * snapshot is the state at 00:00 UTC of asOf's day: events before it are streamed first, the snapshot
 * taken, then the day's events follow (wallets are independent, so each still sees its events in order). The kept
 * days' snapshots that the store lacks (all of them after a first sync) are taken the same way, each between two
 * ranges, so that whale flips can look back from the first answer; each is written as it is taken (a past day's is
 * final), the rest in the one transaction.
 */
import { performance } from "node:perf_hooks";
import { whaleConsensus, type WalletAssessment } from "../ledger/index.js";
import type { Clock } from "../platform/clock.js";
import { type Store, type StoreTransaction, withSqliteCacheMb } from "../store/database.js";
import { type PnlPointRow, replacePnlPoints } from "../store/pnl-series.js";
import type {
  Database,
  MarketStatsTable,
  PositionsTable,
  MarketDailyPricesTable,
  WalletDailyFillsTable,
  WalletLastMovesTable,
  WalletFeesTable,
} from "../store/schema.js";
import { Derivation, type DeriveConfig, type RecentRows } from "./derivation.js";
import { StreamCache } from "./event-stream.js";
import { HOUR, HourlyPointColumns, PriceHistory, StreamedHours, firstKeptBoundary } from "./hourly-points.js";
import { loadMarketFacts } from "./market-facts.js";
import { marketStatsRows, volume24h } from "./market-stats.js";
import { queryRows } from "../store/raw-sql.js";
import { inFillWindow } from "../store/fill-spans.js";
import { FILL_ENDS } from "../store/fills.js";
import { LAST_ACTIVITY_ID } from "../store/activity-rows.js";
import { bumpStatsGeneration } from "../store/derive-state.js";
import { deleteAll, insertRowStream, insertRows, upsertRows } from "../store/derived-tables.js";
import { refillSmartWallets } from "../store/smart-wallets.js";
import { DictionaryIdCache } from "../store/dictionaries.js";
import { FILL_DICTIONARIES, FILL_ROWS } from "../store/fill-layout.js";
import { preparedStatement } from "../store/sqlite-statements.js";
import { fillMarketDailyPricesFromFills } from "../store/market-daily-prices.js";
import { fillWalletDailyFillsFromFills } from "../store/wallet-daily-fills.js";
import { fillWalletLastMovesFromFills } from "../store/wallet-last-moves.js";
import { INCOME_TYPES } from "./stored-events.js";
import { dayStart, type PendingSnapshots, SnapshotTaker } from "./snapshot-runs.js";
import { loadWalletInputs } from "./wallet-inputs.js";

export { dayStart };

/** The latest stored event time (rewards and rebates aside, which come from per-wallet syncs at any time). */
export async function storedFrontier(store: Store): Promise<number> {
  const [fills] = await queryRows<{ t: number | null }>(store.db, store.kind, `select ${FILL_ENDS.latestTs} as t`);
  const [activity] = await queryRows<{ t: number | null }>(
    store.db,
    store.kind,
    `select max(ts) as t from wallet_activity where type not in (${INCOME_TYPES.map((t) => `'${t}'`).join(", ")})`,
  );
  return Math.max(Number(fills?.t ?? 0), Number(activity?.t ?? 0));
}

/** The last row ids handed out (`LAST_ACTIVITY_ID`): rows stored later than a read that began here are above them. */
export async function storedWatermarks(store: Store): Promise<{ fills: number; activity: number }> {
  const [ends] = await queryRows<{ fills: number | null; activity: number | null }>(
    store.db,
    store.kind,
    `select ${FILL_ENDS.lastId} as fills, ${LAST_ACTIVITY_ID[store.kind]} as activity`,
  );
  return { fills: Number(ends?.fills ?? 0), activity: Number(ends?.activity ?? 0) };
}

export interface DerivedFromStore {
  readonly derivation: Derivation;
  readonly asOf: number;
  /** 00:00 UTC of asOf's day. */
  readonly day: number;
  /** asOf's day's snapshot (always taken; the kept days the store lacked are written as the replay takes them). */
  readonly snapshots: PendingSnapshots;
  /** The hourly P&L points of the kept window up to asOf (hourly-points.ts). */
  readonly hourlyPoints: HourlyPointColumns;
  /** Milliseconds spent reading and replaying. */
  readonly replayMs: number;
}

/**
 * Replays the whole store into a new Derivation (markets facts first, then every wallet's events). The events are
 * streamed in ranges (each wallet's still in order): the day's snapshot is taken at asOf's day start, between two
 * ranges; hourly points are taken at each boundary of the kept window before the wallet's events after it, with the
 * fill prices of the window read first (the window's start splits the ranges too).
 */
export async function deriveFromStore(
  store: Store,
  config: DeriveConfig,
  now: number,
  recent?: RecentRows,
): Promise<DerivedFromStore> {
  const started = performance.now();
  const facts = await loadMarketFacts(store.db);
  const { fills } = await storedWatermarks(store);
  const [previous] = await queryRows<{ wallets: number; positions: number }>(
    store.db,
    store.kind,
    "select (select count(*) from wallet_stats) as wallets, (select count(*) from positions) as positions",
  );
  // Sizes from the previous derivation, so that the ledger's tables do not grow on the way (estimates are fine); a
  // first one grows them as it goes. Sized from the fills, the positions took 5 million slots (960 MB) for the
  // 845,576 positions of 10,000,000 fills.
  const derivation = new Derivation(facts, config, {
    positions: Math.ceil(Number(previous?.positions ?? 0) * 1.1),
    wallets: Math.max(1_024, Number(previous?.wallets ?? 0)),
  });
  derivation.fills.inSqlThrough = fills;
  const asOf = Math.min(now, await storedFrontier(store));
  const day = dayStart(asOf);
  const keysAbove = recent?.keysAbove ?? { fills: Number.MAX_SAFE_INTEGER, activity: Number.MAX_SAFE_INTEGER };
  const firstHour = firstKeptBoundary(now, config.derive.hourlyPointsDays);
  const windowStart = firstHour - HOUR;
  const cache = new StreamCache();
  derivation.prices = await windowPrices(store, windowStart, cache);
  const hours =
    asOf >= firstHour
      ? new StreamedHours(firstHour, asOf, derivation.prices, (address) => derivation.lastEventTs(address))
      : null;
  // The leaderboards' 30-day volumes end at the clock, as the API's window did (backfilling, they stay empty).
  derivation.fills.recentVolumes.advance(now);
  const taker = await SnapshotTaker.open(store, config.derive.snapshotDays, now, day);
  const snapshotDays = taker.days;
  const splits = [...new Set([...snapshotDays, ...(hours ? [windowStart] : [])])].sort((a, b) => a - b);
  // Wallets streamed in more than one range: their wash legs are summed by the store, beside the streams where it
  // can (SQLite: a read thread of its own), and taken once the streams are done.
  derivation.deferLegs(await walletsFilledFrom(store, splits[0]!));
  derivation.startDeferredLegs(store);
  let snapshots: PendingSnapshots | undefined;
  // The snapshots' dictionary ids, remembered from one day's write to the next (a failed write ends the derivation).
  const ids = new DictionaryIdCache();
  for (let i = 0; i <= splits.length; i++) {
    const range = { ...(i > 0 ? { from: splits[i - 1] } : {}), ...(i < splits.length ? { before: splits[i] } : {}) };
    if (hours && range.from !== undefined && range.from >= windowStart) derivation.hours = hours;
    await derivation.load(
      store,
      { ...range, keysAbove },
      { countMarkets: true, washLegs: i === 0 ? "all" : "none", cache, ...(recent ? { onKey: recent.onKey } : {}) },
    );
    const before = range.before;
    if (before === undefined || !snapshotDays.includes(before)) continue;
    // Every wallet's points up to the day's start, before the snapshot sweeps the resolutions due then.
    if (derivation.hours) derivation.hours.finish(derivation.state, liveKeys(derivation), before);
    // A kept day the store lacked is final (the state at that day's start): written as it is taken, each row as it is
    // made, so that the replay holds one day's rows, not every kept day's (8.2 million rows at 10,000,000 fills).
    if (before === day) snapshots = taker.pending(day, derivation.snapshotRows(before));
    else await taker.takePast(store, before, derivation.snapshotRowStream(before), ids);
  }
  derivation.hours = null;
  hours?.finish(derivation.state, liveKeys(derivation), asOf);
  await derivation.settleDeferredLegs(store);
  derivation.state.advanceTo(asOf);
  // Every wallet's statistics are written next: the changes counted while streaming are not pending.
  derivation.fills.recentVolumes.advance(now);
  return {
    derivation,
    asOf,
    day,
    snapshots: snapshots!,
    hourlyPoints: hours?.points ?? new HourlyPointColumns(),
    replayMs: performance.now() - started,
  };
}

/** Every live wallet with its ledger key. */
function liveKeys(derivation: Derivation): Array<{ address: string; key: string }> {
  return derivation.liveBooks().map(({ address, book }) => ({ address, key: book.address }));
}

/** The wallets with a fill at or after `from`: each wallet's first such fill sought on its (wallet, ts) index. */
async function walletsFilledFrom(store: Store, from: number): Promise<string[]> {
  const { addresses } = FILL_DICTIONARIES;
  const rows = await queryRows<{ address: string }>(
    store.db,
    store.kind,
    `select w.${addresses.column} as address from ${addresses.table} w
      where exists (select 1 from ${FILL_ROWS} f where f.wallet_id = w.id and f.ts >= ?)`,
    [from],
  );
  return rows.map((r) => r.address);
}

/**
 * The fill prices of the window from `windowStart` on (the earlier ones are observed as the replay streams them). On
 * SQLite the rows' ids, turned into texts with the dictionaries the replay's streams decode with (through the view,
 * each row joined its market's and token's rows: four times as long).
 */
async function windowPrices(store: Store, windowStart: number, cache: StreamCache): Promise<PriceHistory> {
  const prices = new PriceHistory(windowStart);
  const handle = store.sqlite;
  if (handle) {
    const { conditions, tokens } = cache.fillDecoder(handle);
    const statement = preparedStatement(
      handle,
      `select token_ref, condition_ref, ts, log_index, usd, size from ${FILL_ROWS} where id between ? and ? and ts >= ?`,
    ).raw(true);
    const rows = await inFillWindow(
      store,
      windowStart - 1,
      Number.POSITIVE_INFINITY,
      async (first, last) =>
        statement.all(first, last, windowStart) as Array<[number, number, number, number | null, number, number]>,
    );
    for (const [token, condition, ts, logIndex, usd, size] of rows)
      prices.observe(tokens.text(token), conditions.text(condition), ts, logIndex, usd, size);
    return prices;
  }
  const rows = await inFillWindow(store, windowStart - 1, Number.POSITIVE_INFINITY, (first, last) =>
    queryRows<{
      token_id: string;
      condition_id: string;
      ts: number;
      log_index: number | null;
      usd: number;
      size: number;
    }>(
      store.db,
      store.kind,
      "select token_id, condition_id, ts, log_index, usd, size from fills where id between ? and ? and ts >= ?",
      [first, last, windowStart],
    ),
  );
  for (const r of rows)
    prices.observe(
      r.token_id,
      r.condition_id,
      Number(r.ts),
      r.log_index === null ? null : Number(r.log_index),
      Number(r.usd),
      Number(r.size),
    );
  return prices;
}

export interface DerivedTables {
  /** Every live wallet's positions, each built as it is written (845,576 rows at 10M fills). */
  readonly positions: () => Iterable<PositionsTable>;
  readonly walletStats: Database["wallet_stats"][];
  readonly marketStats: MarketStatsTable[];
  /**
   * Every wallet's P&L points, its daily ones (computed a wallet at a time as they are written: all at once, 1 GB at
   * 10M fills) then its hourly ones, wallet after wallet.
   */
  readonly pnlPoints: () => Iterable<PnlPointRow>;
  readonly walletFees: WalletFeesTable[];
  /** The daily sums and last moves of the fills up to this id are written from SQL; the three lists hold the later fills'. */
  readonly fillTablesInSqlThrough: number;
  /** SQLite's page cache while those statements sort every stored fill (SQLITE_REPLAY_SORT_CACHE_MB). */
  readonly sqliteSortCacheMb: number;
  readonly walletDailyFills: WalletDailyFillsTable[];
  readonly marketDailyPrices: MarketDailyPricesTable[];
  readonly walletLastMoves: WalletLastMovesTable[];
}

/** Assesses every wallet, ranks them, and builds the rows of every derived table. */
export async function derivedTables(
  store: Store,
  derived: DerivedFromStore,
  computedAt: number,
): Promise<DerivedTables> {
  const { derivation, asOf } = derived;
  const inputs = await loadWalletInputs(store, "all", asOf, {
    hourlyPoints: derived.hourlyPoints,
    venueHistoryStart: derived.derivation.config.derive.venueHistoryStart,
  });
  const assessed: Array<[string, WalletAssessment]> = [];
  for (const { address } of derivation.liveBooks()) {
    const assessment = derivation.assess(address, inputs(address), asOf);
    if (assessment) assessed.push([address, assessment]);
  }
  derivation.rank();
  const consensus = whaleConsensus(derivation.state, derivation.whaleBooks(), derivation.config.whales.consensusMinUsd);
  return {
    positions: () => walletRows(derivation, (address) => derivation.positionRows(address)),
    walletStats: assessed.map(([address, assessment]) => derivation.statsRow(address, assessment, computedAt)),
    marketStats: marketStatsRows(derivation.fills.marketTotals, await volume24h(store, asOf), consensus, computedAt),
    pnlPoints: () => pnlPointRows(derivation, asOf, derived.hourlyPoints),
    // Every stored fill's sums; the Deriver's batches add theirs from zero.
    walletFees: derivation.fills.walletFees.take(),
    fillTablesInSqlThrough: derivation.fills.inSqlThrough,
    sqliteSortCacheMb: derivation.config.store.sqliteReplaySortCacheMb,
    walletDailyFills: derivation.fills.walletDailyFills.take(),
    marketDailyPrices: derivation.fills.marketDailyPrices.take(),
    walletLastMoves: derivation.fills.walletLastMoves.take(),
  };
}

/** Replaces every derived table (the snapshots taken and the P&L points included) in one transaction. */
export async function writeDerivedTables(
  store: Store,
  tables: DerivedTables,
  snapshots: PendingSnapshots,
): Promise<void> {
  await store.transaction(async (tx) => {
    // Each value's id looked up once for the transaction's writes (none outlives it).
    const ids = new DictionaryIdCache();
    await deleteAll(tx, "positions");
    await insertRowStream(tx, "positions", tables.positions(), ids);
    await deleteAll(tx, "wallet_stats");
    await insertRows(tx, "wallet_stats", tables.walletStats);
    await refillSmartWallets(tx.db, tx.kind);
    await deleteAll(tx, "market_stats");
    await insertRows(tx, "market_stats", tables.marketStats);
    await snapshots.write(tx, ids);
    await replacePnlPoints(tx, "both", "all", tables.pnlPoints());
    await deleteAll(tx, "wallet_fees");
    await insertRows(tx, "wallet_fees", tables.walletFees);
    await writeFillSums(tx, tables);
    await bumpStatsGeneration(tx);
  });
}

/**
 * The daily sums and last moves: those of the fills up to `fillTablesInSqlThrough` grouped by the store (each
 * statement sorts every stored fill: on SQLite with the page cache at the replay's sort size, which sizes the
 * sorter's runs), then the later fills' added.
 */
async function writeFillSums(tx: StoreTransaction, tables: DerivedTables): Promise<void> {
  const through = tables.fillTablesInSqlThrough;
  const write = async () => {
    await fillWalletDailyFillsFromFills(tx.db, tx.kind, through);
    await upsertRows(tx, "wallet_daily_fills", tables.walletDailyFills, "add");
    await fillMarketDailyPricesFromFills(tx.db, through);
    await upsertRows(tx, "market_daily_prices", tables.marketDailyPrices, "add");
    await fillWalletLastMovesFromFills(tx.db, through);
    await upsertRows(tx, "wallet_last_moves", tables.walletLastMoves, "add");
  };
  if (tx.raw.kind === "sqlite") await withSqliteCacheMb(tx.raw.handle, tables.sqliteSortCacheMb, write);
  else await write();
}

/** Every live wallet's rows, `ofWallet` called a wallet at a time. */
function* walletRows<R>(derivation: Derivation, ofWallet: (address: string) => readonly R[]): Generator<R> {
  for (const { address } of derivation.liveBooks()) yield* ofWallet(address);
}

/**
 * Every live wallet's daily then hourly points, wallet after wallet (the order of the table's key: the inserts
 * append), then the hourly points of any wallet not live.
 */
function* pnlPointRows(derivation: Derivation, asOf: number, hourly: HourlyPointColumns): Generator<PnlPointRow> {
  const byWallet = hourly.byWallet();
  yield* walletRows(derivation, (address) => [...derivation.dailyPoints(address, asOf), ...byWallet.take(address)]);
  yield* byWallet.rest();
}

export interface RebuildResult {
  readonly asOf: number;
  readonly fills: number;
  readonly wallets: number;
  readonly positions: number;
  readonly markets: number;
  readonly replayMs: number;
  readonly statsMs: number;
  readonly writeMs: number;
  readonly derivation: Derivation;
}

/**
 * Recomputes every derived table from the stored fills and activity. Run it while no ingest process derives
 * into the same store (the ingest's Deriver does this same work when it starts).
 */
export async function rebuild(store: Store, config: DeriveConfig, clock: Clock): Promise<RebuildResult> {
  const derived = await deriveFromStore(store, config, clock.now());
  const statsStarted = performance.now();
  const tables = await derivedTables(store, derived, clock.now());
  const writeStarted = performance.now();
  await writeDerivedTables(store, tables, derived.snapshots);
  const done = performance.now();
  return {
    asOf: derived.asOf,
    fills: derived.derivation.liveBooks().reduce((n, { book }) => n + book.trades, 0),
    wallets: tables.walletStats.length,
    positions: derived.derivation.positionCount(),
    markets: tables.marketStats.length,
    replayMs: derived.replayMs,
    statsMs: writeStarted - statsStarted,
    writeMs: done - writeStarted,
    derivation: derived.derivation,
  };
}
