/**
 * The Deriver's batch path: each committed ingest batch's events applied in order, the positions they touched
 * (and those a resolution closed) upserted, the touched wallets' statistics recomputed and the new fills' fees and
 * daily prices added to the wallets' fee sums and the markets' daily sums (wallet-fees.ts, market-daily-prices.ts),
 * in one transaction; a
 * day's position snapshot when the first event of that day arrives (the state at 00:00 UTC exactly). While the
 * ledger is over an hour behind the clock (a backfill), statistics and positions wait for the refresh, for the
 * batch that catches up, or for CATCH_UP_FLUSH_MS after the last deferred batch.
 */
import type { Config } from "../config/index.js";
import { SECONDS_PER_DAY, type MarketFacts } from "../ledger/index.js";
import type { Clock } from "../platform/clock.js";
import type { Logger } from "../platform/logger.js";
import type { Store } from "../store/database.js";
import { bumpStatsGeneration } from "../store/derive-state.js";
import { deleteWhereIn, insertRows, updateRanks, upsertRows } from "../store/derived-tables.js";
import { writeSmartWallets } from "../store/smart-wallets.js";
import type { NewActivity, NewFill } from "../store/fills.js";
import type { NewResolution } from "../store/markets.js";
import type { Derivation, RecentRows } from "./derivation.js";
import type { LiveHours } from "./hourly-points.js";
import { PendingWrites } from "./pending-writes.js";
import { dayStart } from "./rebuild.js";
import { replaceSnapshot } from "../store/position-snapshots.js";
import {
  isIncome,
  isIncomeType,
  orderedBatchEvents,
  storedActivity,
  storedFill,
  type StoredActivity,
  type StoredFill,
} from "./stored-events.js";
import { loadWalletInputs } from "./wallet-inputs.js";
import { loadMarketFacts } from "./market-facts.js";

/** The new rows of one committed ingest batch (the ingest's `CommittedBatch` is one): each fill with its stored id. */
export interface CommittedRows {
  readonly fills: readonly NewFill[];
  readonly activity: readonly NewActivity[];
  readonly resolutions: readonly NewResolution[];
}

/** What the Deriver and its parts (this batch path, the refresh jobs) work with. */
export interface DeriverDeps {
  readonly store: Store;
  readonly config: Pick<
    Config,
    "ledger" | "farmer" | "smart" | "whales" | "derive" | "funding" | "insider" | "alerts" | "store"
  >;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The id a committed fill was stored under (the writer gives each new fill its id: src/store/fill-rows.ts). */
function storedId(fill: NewFill): number {
  if (fill.id === undefined) throw new Error(`derive: the committed fill ${fill.fill_key} came without its stored id`);
  return fill.id;
}

/** A ledger this far behind the clock is catching up with a backfill. */
const CATCHING_UP_SECONDS = 3_600;
const CATCH_UP_FLUSH_MS = 2_000;
/** Refreshes a row read from the store is remembered for, in case its batch is handed over after the read. */
const READ_MEMORY_REFRESHES = 2;

/** Natural keys of rows read from the store that a batch may still hand over, and whether their market totals are counted. */
export class RecentReads {
  private readonly keys = new Map<string, { until: number; counted: boolean }>();
  private refreshes = 0;

  /** Remembers the keys of rows stored after `marks` that a read sees, so that their batch is not applied twice. */
  rows(marks: { fills: number; activity: number }, counted: boolean): RecentRows {
    return {
      keysAbove: marks,
      onKey: (key) => this.keys.set(key, { until: this.refreshes + READ_MEMORY_REFRESHES, counted }),
    };
  }

  get(key: string): { counted: boolean } | undefined {
    return this.keys.get(key);
  }

  /** A refresh begins: keys read READ_MEMORY_REFRESHES refreshes ago are forgotten. */
  nextRefresh(): void {
    this.refreshes++;
    for (const [key, read] of this.keys) if (read.until < this.refreshes) this.keys.delete(key);
  }
}

export class BatchApplier {
  readonly pending = new PendingWrites();
  /** Wallets whose events came out of order: the next refresh derives them again from the store. */
  readonly rederive = new Set<string>();
  /** Wallets that traded with a known counterparty since their wash share was computed. */
  readonly washDue = new Set<string>();
  /** Markets and NegRisk events whose facts a batch asked the store for since the last refresh. */
  readonly factsAsked = new Set<string>();
  /** Armed by each batch a backfill defers: fires once the batches stop coming (see writeWallets). */
  private catchUpFlush: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: DeriverDeps,
    readonly derivation: Derivation,
    private readonly reads: RecentReads,
    /** The day of the latest position snapshot taken. */
    private snapshotDay: number,
    /** Queues work behind what was handed over before it. */
    private readonly enqueue: (what: string, job: () => Promise<void>) => Promise<void>,
    /** The hourly P&L points, taken at each hour boundary the events pass. */
    readonly hours: LiveHours,
  ) {}

  /** min(clock, latest event applied): a resolution is never swept before the events that precede it. */
  asOf(): number {
    return Math.min(this.deps.clock.now(), this.derivation.frontier);
  }

  async apply(batch: CommittedRows): Promise<void> {
    const d = this.derivation;
    await this.loadMissingFacts(batch);
    for (const resolution of batch.resolutions)
      this.setFacts(resolution.condition_id, { resolution: resolution.resolution, resolvedAt: resolution.resolved_at });
    const fills: StoredFill[] = [];
    const activity: StoredActivity[] = [];
    const now = this.deps.clock.now();
    for (const row of batch.fills) {
      const fill = storedFill(row);
      this.hours.prices.observe(row.token_id, row.condition_id, row.ts, row.log_index ?? null, row.usd, row.size);
      // A fill before an hourly point already taken moves its token's price there: its market's holders are derived again.
      if (this.hours.taken(row.ts, now)) for (const holder of d.holdersOf(row.condition_id)) this.rederive.add(holder);
      const read = this.reads.get(row.fill_key);
      if (!read?.counted) d.fills.add(fill, storedId(row));
      d.observe(row.ts);
      if (read) continue;
      fills.push(fill);
      if (row.counterparty) this.washDue.add(row.wallet);
    }
    for (const row of batch.activity) {
      if (!isIncomeType(row.type)) d.observe(row.ts);
      if (!this.reads.get(row.activity_key)) activity.push(storedActivity(row));
    }
    for (const ordered of orderedBatchEvents(fills, activity)) {
      const { event } = ordered;
      if (this.rederive.has(event.wallet)) continue;
      // Late for its wallet, or for an hourly point already taken: the wallet is derived again from the store.
      if (d.isLate(event, ordered) || (!isIncome(event) && this.hours.taken(ordered.ts, now))) {
        this.rederive.add(event.wallet);
        continue;
      }
      if (!isIncome(event)) {
        this.hours.upTo(d, ordered.ts, this.deps.clock.now());
        await this.snapshotDaysUpTo(ordered.ts);
      }
      d.apply(event, ordered);
      if (isIncome(event)) this.pending.stats.add(event.wallet);
      else {
        this.hours.eventApplied(event.wallet);
        this.pending.mark(event.wallet, d.touchedMarkets(event), d.bookedFrom(event, ordered.ts));
      }
    }
    await this.writeWallets(this.asOf(), false);
  }

  /**
   * The facts of markets a batch acts on that the ledger does not know yet (a new market, whose facts the refresh
   * would only load later): a conversion needs its NegRisk event's questions, a fill its market's resolution.
   */
  private async loadMissingFacts(batch: CommittedRows): Promise<void> {
    const { markets } = this.derivation.state;
    const unknown = (id: string) => {
      const c = markets.find(id);
      return (c === undefined || markets.facts[c] === undefined) && !this.factsAsked.has(id);
    };
    const conditionIds = new Set<string>();
    const negRiskMarketIds = new Set<string>();
    for (const row of batch.fills) if (unknown(row.condition_id)) conditionIds.add(row.condition_id);
    for (const row of batch.activity) {
      if (row.condition_id && unknown(row.condition_id)) conditionIds.add(row.condition_id);
      if (
        row.neg_risk_market_id &&
        !markets.negRiskEvent(row.neg_risk_market_id) &&
        !this.factsAsked.has(row.neg_risk_market_id)
      )
        negRiskMarketIds.add(row.neg_risk_market_id);
    }
    if (conditionIds.size + negRiskMarketIds.size === 0) return;
    // Asked once until the next refresh, which loads the facts of every market updated since.
    for (const id of [...conditionIds, ...negRiskMarketIds]) this.factsAsked.add(id);
    const wanted = { conditionIds: [...conditionIds], negRiskMarketIds: [...negRiskMarketIds] };
    for (const facts of await loadMarketFacts(this.deps.store.db, undefined, wanted))
      this.setFacts(facts.conditionId, facts);
  }

  /**
   * Updates a market's facts. A resolution learned after a holder's events that follow it (a redemption the
   * ledger could not price) sends that holder to be derived again.
   */
  setFacts(conditionId: string, change: Partial<MarketFacts>): void {
    const d = this.derivation;
    const { markets, positions, walletTable } = d.state;
    const c = markets.find(conditionId);
    const known = c === undefined ? undefined : markets.facts[c];
    const wasResolved = c !== undefined && (markets.payoutYes[c] as number) >= 0;
    const facts: MarketFacts = {
      conditionId,
      category: null,
      negRiskEventId: null,
      resolution: null,
      resolvedAt: null,
      priceYes: null,
      ...known,
      ...change,
    };
    d.state.setMarket(facts);
    if (wasResolved || c === undefined || facts.resolution === null || facts.resolvedAt === null) return;
    // Hourly points already taken after the resolution valued its holders' positions unresolved.
    if (this.hours.taken(facts.resolvedAt, this.deps.clock.now()))
      for (const holder of d.holdersOf(conditionId)) this.rederive.add(holder);
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
      for (const change of this.derivation.advance(day))
        this.pending.mark(change.address, [change.conditionId], change.resolvedAt);
      if (day >= oldest) {
        // Each row made as it is written (a day's rows gathered first were old-generation garbage: see rebuild.ts).
        const snapshot = { day, rows: this.derivation.snapshotRowStream(day) };
        await this.deps.store.transaction((tx) => replaceSnapshot(tx, snapshot));
      }
      this.snapshotDay = day;
    }
  }

  /**
   * Writes the marked positions and the marked wallets' statistics. A refresh re-ranks everyone first (wallets
   * whose rank alone changed get their rank columns updated). While the ledger is far behind the clock (the
   * ingest is backfilling), a batch leaves statistics to the refresh: they would be rewritten batch after batch.
   */
  async writeWallets(asOf: number, refresh: boolean): Promise<void> {
    const d = this.derivation;
    const now = this.deps.clock.now();
    for (const change of d.advance(asOf)) this.pending.mark(change.address, [change.conditionId], change.resolvedAt);
    const withStats = refresh || now - asOf <= CATCHING_UP_SECONDS;
    // Catching up with a backfill, the tables wait: most positions are touched by batch after batch, and writing
    // each once is most of a backfill's saving. They are written by the refresh, by the batch that catches up,
    // or CATCH_UP_FLUSH_MS after the last deferred batch (when the backfill is done, or paused).
    if (!withStats) {
      if (this.catchUpFlush) clearTimeout(this.catchUpFlush);
      this.catchUpFlush = setTimeout(() => this.flushDeferred(), CATCH_UP_FLUSH_MS);
      this.catchUpFlush.unref();
      return;
    }
    if (
      this.pending.positions.size === 0 &&
      this.pending.rewrittenPositions.size === 0 &&
      !(withStats && this.pending.stats.size > 0) &&
      !d.fills.hasUnwritten() &&
      !refresh
    )
      return;
    const wallets = withStats ? [...this.pending.stats] : [];
    const inputs = await loadWalletInputs(this.deps.store, wallets, asOf, {
      venueHistoryStart: this.deps.config.derive.venueHistoryStart,
    });
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
      return {
        wallet,
        rank_pnl: r?.rankPnl ?? null,
        rank_winrate: r?.rankWinRate ?? null,
        rank_volume: r?.rankVolume ?? null,
        rank_profit_factor: r?.rankProfitFactor ?? null,
      };
    });
    const rewritten = [...this.pending.rewrittenPositions];
    const positions = [...this.pending.positions].flatMap(([w, markets]) =>
      this.pending.rewrittenPositions.has(w) ? [] : [...markets].flatMap((c) => d.positionRowsIn(w, c)),
    );
    // The fees of the fills counted since the last write, added to the stored sums (cleared once written).
    const fees = d.fills.walletFees.rows();
    const walletDays = d.fills.walletDailyFills.rows();
    const prices = d.fills.marketDailyPrices.rows();
    const lastMoves = d.fills.walletLastMoves.rows();
    await this.deps.store.transaction(async (tx) => {
      await deleteWhereIn(tx, "positions", "wallet", rewritten);
      await insertRows(
        tx,
        "positions",
        rewritten.flatMap((w) => d.positionRows(w)),
      );
      await upsertRows(tx, "positions", positions);
      await upsertRows(tx, "wallet_stats", stats);
      await writeSmartWallets(
        tx,
        stats.map((row) => row.wallet),
      );
      await updateRanks(tx, ranks);
      await upsertRows(tx, "wallet_fees", fees, "add");
      await upsertRows(tx, "wallet_daily_fills", walletDays, "add");
      await upsertRows(tx, "market_daily_prices", prices, "add");
      await upsertRows(tx, "wallet_last_moves", lastMoves, "add");
      if (refresh && stats.length + ranks.length > 0) await bumpStatsGeneration(tx);
    });
    d.fills.written();
    this.pending.positionsWritten();
    if (withStats) this.pending.stats.clear();
  }

  /** Queues the write a backfill deferred, if its flush is still waiting; returns whether one was. */
  flushDeferred(): boolean {
    if (!this.catchUpFlush) return false;
    clearTimeout(this.catchUpFlush);
    this.catchUpFlush = null;
    void this.enqueue("catch-up flush", () => this.writeWallets(this.asOf(), true));
    return true;
  }

  stop(): void {
    if (this.catchUpFlush) clearTimeout(this.catchUpFlush);
    this.catchUpFlush = null;
  }
}
