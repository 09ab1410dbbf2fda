/**
 * The incremental path, kept by the ingest process. `start` warms the ledger from the store and rewrites every
 * derived table (as `rebuild` does, so a crash between an ingest commit and our write loses nothing). Then:
 *
 * - each committed batch (`onCommitted`): its events applied in order, the positions they touched (and those
 *   a resolution closed) upserted, and the touched wallets' statistics recomputed, in one transaction (while the
 *   ledger is over an hour behind the clock, a backfill, both wait for the refresh or the batch that catches up);
 * - a day's position snapshot when the first event of that day arrives (the state at 00:00 UTC exactly);
 * - every `derive.refreshSeconds` (`refresh`): the leaderboards' 30-day volumes moved to the clock (wallets whose
 *   window changed are written again), and `derive_state.stats_generation` bumped when statistics were written;
 *   rankings and market_stats, which depend on every wallet at once
 *   (one trade can move every rank below it, a wallet turning Smart Money changes the whale counts of all its
 *   markets), so per batch they would rewrite whole tables many times a second; market facts from Gamma;
 *   venue caches of synced wallets; wash-ring shares of trading wallets; wallets whose events came out of
 *   order (derived again from the store); daily P&L points; and, each time an hour passes, hourly P&L points
 *   and every wallet's statistics (pnl_24h, streak, hold window and unrealized P&L move with time and prices).
 *
 * Time is `asOf` = min(clock, latest event applied): a resolution is never swept before the events that precede
 * it have arrived (the ingest may be backfilling months behind the clock).
 */
import { performance } from "node:perf_hooks";
import type { Config } from "../config/index.js";
import { SECONDS_PER_DAY, whaleConsensus, type MarketFacts } from "../ledger/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { FIRST_SYNC_DERIVED, bumpStatsGeneration, writeDeriveState } from "../store/derive-state.js";
import type { NewActivity, NewFill } from "../store/fills.js";
import type { NewResolution } from "../store/markets.js";
import type { Derivation, RecentRows } from "./derivation.js";
import { loadMarketFacts } from "./market-facts.js";
import { marketStatsRows, volume24h } from "./market-stats.js";
import { PendingWrites } from "./pending-writes.js";
import { queryRows } from "../store/raw-sql.js";
import { dayStart, deriveFromStore, derivedTables, storedWatermarks, writeDerivedTables } from "./rebuild.js";
import { isIncome, isIncomeType, orderedBatchEvents, storedActivity, storedFill, type StoredActivity, type StoredFill } from "./stored-events.js";
import { deleteAll, deleteWhereIn, insertRows, updateRanks, upsertRows } from "../store/derived-tables.js";
import { WashLegs, loadWalletInputs, loadWashLegs } from "./wallet-inputs.js";

/** The new rows of one committed ingest batch (the ingest's `CommittedBatch` is one). */
export interface CommittedRows {
  readonly fills: readonly NewFill[];
  readonly activity: readonly NewActivity[];
  readonly resolutions: readonly NewResolution[];
}

export interface DeriverDeps {
  readonly store: Store;
  readonly config: Pick<Config, "ledger" | "farmer" | "smart" | "whales" | "derive">;
  readonly clock: Clock;
  readonly logger: Logger;
}

const HOUR = 3_600;
/** A ledger this far behind the clock is catching up with a backfill. */
const CATCHING_UP_SECONDS = 3_600;
const CATCH_UP_FLUSH_MS = 2_000;
/** Share of the refresh interval spent recomputing wash-ring shares, and wallets summed per query. */
const WASH_BUDGET = 0.05;
const WASH_WALLETS_PER_QUERY = 50;
/** Refreshes a row read from the store is remembered for, in case its batch is handed over after the read. */
const READ_MEMORY_REFRESHES = 2;

export class Deriver {
  private derivation: Derivation | null = null;
  private queue: Promise<void> = Promise.resolve();
  private early: CommittedRows[] | null = [];
  private timer: NodeJS.Timeout | null = null;
  private timerRefresh: Promise<void> | null = null;
  /** Armed by each batch a backfill defers: fires once the batches stop coming (see writeWallets). */
  private catchUpFlush: NodeJS.Timeout | null = null;
  private readonly pending = new PendingWrites();
  private readonly rederive = new Set<string>();
  private readonly washDue = new Set<string>();
  private readonly washComputedAt = new Map<string, number>();
  /** Natural keys of rows read from the store that a batch may still hand over: whether their market totals are counted. */
  private readonly readFromStore = new Map<string, { until: number; counted: boolean }>();
  private readonly lastHourly = new Map<string, number>();
  private readonly lastMarketRows = new Map<string, string>();
  private watermarks = { fills: 0, activity: 0 };
  private warmedAt = 0;
  private refreshes = 0;
  private lastRefreshAt = 0;
  private snapshotDay = 0;
  private pointsHour = 0;
  /** The ingest's first sync caught up: the next refresh that completes records it (FIRST_SYNC_DERIVED). */
  private firstSyncToRecord = false;

  constructor(private readonly deps: DeriverDeps) {}

  /** The listener for the ingest's committed batches; resolves once the batch's rows are written. */
  readonly onCommitted = (batch: CommittedRows): Promise<void> => {
    if (this.early) {
      this.early.push(batch);
      return Promise.resolve();
    }
    return this.enqueue("batch", () => this.applyBatch(batch));
  };

  /**
   * Warms from the store, rewrites every derived table, then applies the batches handed over meanwhile and
   * starts the refresh timer. Register `onCommitted` first; start the ingest after this resolves.
   */
  async start(): Promise<void> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const before = await storedWatermarks(store);
    const derived = await deriveFromStore(store, this.deps.config, now, this.recentRows(before, true));
    await writeDerivedTables(store, await derivedTables(store, derived, now), { day: derived.day, rows: derived.snapshot });
    this.derivation = derived.derivation;
    this.watermarks = before;
    this.warmedAt = this.lastRefreshAt = now;
    this.snapshotDay = derived.day;
    this.pointsHour = Math.floor(derived.asOf / HOUR);
    // The point of a day with bookings is dated at its end: today's is written once today is over.
    const today = derived.day / SECONDS_PER_DAY;
    for (const { address, book } of derived.derivation.liveBooks()) if (book.days.get(today)) this.pending.markDaily(address, derived.day);
    const early = this.early ?? [];
    this.early = null;
    for (const batch of early) void this.enqueue("batch", () => this.applyBatch(batch));
    this.timer = setInterval(() => {
      // A refresh that outlasts the interval is not queued again behind itself.
      if (!this.timerRefresh) this.timerRefresh = this.refresh().finally(() => (this.timerRefresh = null));
    }, this.deps.config.derive.refreshSeconds * 1000);
    this.timer.unref();
    await this.queue;
  }

  /**
   * Runs a refresh after the work already queued; `full` recomputes every wallet's statistics (as each passing
   * hour does) and the wash shares of all wallets that traded since theirs was computed.
   */
  refresh(options: { full?: boolean } = {}): Promise<void> {
    return this.enqueue("refresh", () => this.refreshNow(options.full ?? false));
  }

  /**
   * The ingest's first full sync caught up (every batch of it handed over): a refresh writes the statistics the
   * backfill deferred, then records that the first sync is derived, which turns health's `ready` on. A refresh
   * that fails leaves the record to the next one.
   */
  firstSyncCaughtUp(): Promise<void> {
    this.firstSyncToRecord = true;
    return this.refresh();
  }

  /** Resolves once everything handed over so far is written. */
  idle(): Promise<void> {
    return this.queue;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.catchUpFlush) clearTimeout(this.catchUpFlush);
    this.timer = null;
    this.catchUpFlush = null;
    await this.queue;
  }

  private enqueue(what: string, job: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(job).catch((error: unknown) => this.deps.logger.error({ err: error, job: what }, "deriving the ledger's tables failed"));
    return this.queue;
  }

  private get d(): Derivation {
    if (!this.derivation) throw new Error("the Deriver has not started");
    return this.derivation;
  }

  private asOf(): number {
    return Math.min(this.deps.clock.now(), this.d.frontier);
  }

  /** Remembers the keys of rows stored after `marks` that a read sees, so that their batch is not applied twice. */
  private recentRows(marks: { fills: number; activity: number }, counted: boolean): RecentRows {
    return { keysAbove: marks, onKey: (key) => this.readFromStore.set(key, { until: this.refreshes + READ_MEMORY_REFRESHES, counted }) };
  }

  private async applyBatch(batch: CommittedRows): Promise<void> {
    const d = this.d;
    for (const resolution of batch.resolutions) this.setFacts(resolution.condition_id, { resolution: resolution.resolution, resolvedAt: resolution.resolved_at });
    const fills: StoredFill[] = [];
    const activity: StoredActivity[] = [];
    for (const row of batch.fills) {
      const read = this.readFromStore.get(row.fill_key);
      if (!read?.counted) d.countFill(row.wallet, row.condition_id, row.ts, row.role ?? null, row.entry_type ?? null, row.usd);
      d.observe(row.ts);
      if (read) continue;
      fills.push(storedFill(row));
      if (row.counterparty) this.washDue.add(row.wallet);
    }
    for (const row of batch.activity) {
      if (!isIncomeType(row.type)) d.observe(row.ts);
      if (!this.readFromStore.has(row.activity_key)) activity.push(storedActivity(row));
    }
    for (const ordered of orderedBatchEvents(fills, activity)) {
      const { event } = ordered;
      if (this.rederive.has(event.wallet)) continue;
      if (d.isLate(event, ordered)) {
        this.rederive.add(event.wallet);
        continue;
      }
      if (!isIncome(event)) await this.snapshotDaysUpTo(ordered.ts);
      d.apply(event, ordered);
      if (isIncome(event)) this.pending.stats.add(event.wallet);
      else this.pending.mark(event.wallet, d.touchedMarkets(event), d.bookedFrom(event, ordered.ts));
    }
    await this.writeWallets(this.asOf(), false);
  }

  /**
   * Updates a market's facts. A resolution learned after a holder's events that follow it (a redemption the
   * ledger could not price) sends that holder to be derived again.
   */
  private setFacts(conditionId: string, change: Partial<MarketFacts>): void {
    const d = this.d;
    const { markets, positions, walletTable } = d.state;
    const c = markets.find(conditionId);
    const known = c === undefined ? undefined : markets.facts[c];
    const wasResolved = c !== undefined && (markets.payoutYes[c] as number) >= 0;
    const facts: MarketFacts = { conditionId, category: null, negRiskEventId: null, resolution: null, resolvedAt: null, priceYes: null, ...known, ...change };
    d.state.setMarket(facts);
    if (wasResolved || c === undefined || facts.resolution === null || facts.resolvedAt === null) return;
    for (let p = markets.firstHolder[c]!; p >= 0; p = positions.nextInMarket(p)) {
      const address = d.liveAddress(walletTable.addresses[positions.walletOf(p)]!);
      if (address !== null && d.lastEventTs(address) > facts.resolvedAt) this.rederive.add(address);
    }
  }

  /**
   * Takes the snapshot of each day that begins at or before `ts` and has not been taken; days before the kept
   * window are only swept past, in one step.
   */
  private async snapshotDaysUpTo(ts: number): Promise<void> {
    const target = dayStart(ts);
    const oldest = dayStart(this.deps.clock.now()) - this.deps.config.derive.snapshotDays * SECONDS_PER_DAY;
    while (this.snapshotDay < target) {
      const day = Math.max(this.snapshotDay + SECONDS_PER_DAY, Math.min(target, oldest));
      for (const change of this.d.advance(day)) this.pending.mark(change.address, [change.conditionId], change.resolvedAt);
      if (day >= oldest) {
        const rows = this.d.snapshotRows(day);
        await this.deps.store.transaction(async (tx) => {
          await deleteAll(tx, "position_snapshots", "day = ?", [day]);
          await insertRows(tx, "position_snapshots", rows);
        });
      }
      this.snapshotDay = day;
    }
  }

  /**
   * Writes the marked positions and the marked wallets' statistics. A refresh re-ranks everyone first (wallets
   * whose rank alone changed get their rank columns updated). While the ledger is far behind the clock (the
   * ingest is backfilling), a batch leaves statistics to the refresh: they would be rewritten batch after batch.
   */
  private async writeWallets(asOf: number, refresh: boolean): Promise<void> {
    const d = this.d;
    const now = this.deps.clock.now();
    for (const change of d.advance(asOf)) this.pending.mark(change.address, [change.conditionId], change.resolvedAt);
    const withStats = refresh || now - asOf <= CATCHING_UP_SECONDS;
    // Catching up with a backfill, the tables wait: most positions are touched by batch after batch, and writing
    // each once is most of a backfill's saving. They are written by the refresh, by the batch that catches up,
    // or CATCH_UP_FLUSH_MS after the last deferred batch (when the backfill is done, or paused).
    if (!withStats) {
      if (this.catchUpFlush) clearTimeout(this.catchUpFlush);
      this.catchUpFlush = setTimeout(() => {
        this.catchUpFlush = null;
        void this.enqueue("catch-up flush", () => this.writeWallets(this.asOf(), true));
      }, CATCH_UP_FLUSH_MS);
      this.catchUpFlush.unref();
      return;
    }
    if (this.pending.positions.size === 0 && this.pending.rewrittenPositions.size === 0 && !(withStats && this.pending.stats.size > 0) && !refresh) return;
    const wallets = withStats ? [...this.pending.stats] : [];
    const inputs = await loadWalletInputs(this.deps.store, wallets, asOf);
    const assessed = new Map(
      wallets.flatMap((w) => {
        const assessment = d.assess(w, inputs(w), asOf);
        return assessment ? [[w, assessment] as const] : [];
      }),
    );
    const rankChanged = refresh ? d.rank().filter((w) => !assessed.has(w)) : [];
    const stats = [...assessed].map(([w, assessment]) => d.statsRow(w, assessment, now));
    const ranks = rankChanged.map((wallet) => {
      const r = d.rankings.get(wallet);
      return { wallet, rank_pnl: r?.rankPnl ?? null, rank_winrate: r?.rankWinRate ?? null, rank_volume: r?.rankVolume ?? null, rank_profit_factor: r?.rankProfitFactor ?? null };
    });
    const rewritten = [...this.pending.rewrittenPositions];
    const positions = [...this.pending.positions].flatMap(([w, markets]) => (this.pending.rewrittenPositions.has(w) ? [] : [...markets].flatMap((c) => d.positionRowsIn(w, c))));
    await this.deps.store.transaction(async (tx) => {
      await deleteWhereIn(tx, "positions", "wallet", rewritten);
      await insertRows(tx, "positions", rewritten.flatMap((w) => d.positionRows(w)));
      await upsertRows(tx, "positions", positions);
      await upsertRows(tx, "wallet_stats", stats);
      await updateRanks(tx, ranks);
      if (refresh && stats.length + ranks.length > 0) await bumpStatsGeneration(tx);
    });
    this.pending.positionsWritten();
    if (withStats) this.pending.stats.clear();
  }

  private async refreshNow(full: boolean): Promise<void> {
    const { store, clock } = this.deps;
    const d = this.d;
    const now = clock.now();
    this.refreshes++;
    for (const [key, read] of this.readFromStore) if (read.until < this.refreshes) this.readFromStore.delete(key);
    const marks = await storedWatermarks(store);

    for (const facts of await loadMarketFacts(store.db, this.lastRefreshAt)) this.setFacts(facts.conditionId, facts);
    for (const address of this.rederive) {
      await d.rederive(store, address, this.recentRows(this.watermarks, false));
      this.pending.markRewritten(address, d.state.wallet(d.keyOf(address))?.lastTrade ?? 0);
      this.washComputedAt.set(address, now);
      this.washDue.delete(address);
    }
    this.rederive.clear();
    this.watermarks = marks;

    const synced = await queryRows<{ wallet: string }>(store.db, store.kind, "select wallet from wallet_sync where updated_at >= ?", [this.lastRefreshAt]);
    for (const { wallet } of synced) this.pending.stats.add(wallet);
    await this.refreshWashShares(now, full);

    const asOf = this.asOf();
    const hour = Math.floor(asOf / HOUR);
    const hourPassed = hour > this.pointsHour;
    if (full || hourPassed) for (const { address } of d.liveBooks()) this.pending.stats.add(address);
    // The leaderboards' 30-day volumes move to this refresh's clock: wallets whose fills entered or left the window.
    for (const address of d.recentVolumes.advance(now)) this.pending.stats.add(address);
    await this.writeWallets(asOf, true);
    await this.writeMarketStats(asOf, now);
    await this.writeDailyPoints(asOf);
    if (hourPassed) {
      await this.writeHourlyPoints(asOf, now);
      this.pointsHour = hour;
    }
    this.lastRefreshAt = now;
    if (this.firstSyncToRecord) {
      await writeDeriveState(store.db, FIRST_SYNC_DERIVED, 1);
      this.firstSyncToRecord = false;
    }
  }

  /**
   * Recomputes the wash-ring shares of wallets that traded since theirs was computed, the stalest first. It
   * sums every fill of each wallet, so a refresh spends at most WASH_BUDGET of its interval on it (a full
   * refresh does them all); the others wait for the next refresh.
   */
  private async refreshWashShares(now: number, full: boolean): Promise<void> {
    const computedAt = (w: string) => this.washComputedAt.get(w) ?? this.warmedAt;
    const due = [...this.washDue].filter((w) => full || now - computedAt(w) >= this.deps.config.derive.washRefreshSeconds).sort((a, b) => computedAt(a) - computedAt(b));
    const deadline = performance.now() + WASH_BUDGET * this.deps.config.derive.refreshSeconds * 1000;
    for (let i = 0; i < due.length && (full || performance.now() < deadline); i += WASH_WALLETS_PER_QUERY) {
      const wallets = due.slice(i, i + WASH_WALLETS_PER_QUERY);
      const legs = await loadWashLegs(this.deps.store, wallets);
      for (const wallet of wallets) {
        this.d.setWashLegs(wallet, legs.get(wallet) ?? new WashLegs());
        this.washComputedAt.set(wallet, now);
        this.washDue.delete(wallet);
        this.pending.stats.add(wallet);
      }
    }
  }

  /** market_stats rows that changed since last written. */
  private async writeMarketStats(asOf: number, now: number): Promise<void> {
    const d = this.d;
    const consensus = whaleConsensus(d.state, d.whaleBooks(), this.deps.config.whales.consensusMinUsd);
    const changed = marketStatsRows(d.marketTotals, await volume24h(this.deps.store, asOf), consensus, now).flatMap((row) => {
      const { computed_at: _, ...figures } = row;
      const text = JSON.stringify(figures);
      return this.lastMarketRows.get(row.condition_id) === text ? [] : [{ row, text }];
    });
    await this.deps.store.transaction((tx) => upsertRows(tx, "market_stats", changed.map((c) => c.row)));
    for (const { row, text } of changed) this.lastMarketRows.set(row.condition_id, text);
  }

  /** Daily points of the wallets with bookings not yet written (whole histories of wallets derived again). */
  private async writeDailyPoints(asOf: number): Promise<void> {
    const d = this.d;
    const rewritten = [...this.pending.rewrittenDaily];
    const rows = [...this.pending.daily].flatMap(([w, daily]) => (this.pending.rewrittenDaily.has(w) ? [] : d.dailyPoints(w, asOf, PendingWrites.firstDay(daily))));
    await this.deps.store.transaction(async (tx) => {
      await deleteWhereIn(tx, "pnl_points", "wallet", rewritten, "resolution = 'day'");
      await insertRows(tx, "pnl_points", rewritten.flatMap((w) => d.dailyPoints(w, asOf)));
      await upsertRows(tx, "pnl_points", rows);
    });
    this.pending.dailyWritten(asOf);
  }

  /** Hourly points of wallets whose P&L changed since their last one, while the ledger is within the kept window. */
  private async writeHourlyPoints(asOf: number, now: number): Promise<void> {
    const oldest = now - this.deps.config.derive.hourlyPointsDays * SECONDS_PER_DAY;
    const rows = asOf < oldest ? [] : this.d.hourlyPoints(asOf).filter((row) => this.lastHourly.get(row.wallet) !== row.pnl);
    await this.deps.store.transaction(async (tx) => {
      await upsertRows(tx, "pnl_points", rows);
      await deleteAll(tx, "pnl_points", "resolution = 'hour' and t < ?", [oldest]);
      await deleteAll(tx, "position_snapshots", "day < ?", [dayStart(now) - this.deps.config.derive.snapshotDays * SECONDS_PER_DAY]);
    });
    for (const row of rows) this.lastHourly.set(row.wallet, row.pnl);
  }
}
