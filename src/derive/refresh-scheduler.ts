/**
 * The Deriver's periodic work: every `derive.refreshSeconds` a refresh runs the named jobs below in order, behind
 * the batches handed over before it. Rankings and market_stats depend on every wallet at once (one trade can move
 * every rank below it, a wallet turning Smart Money changes the whale counts of all its markets), so they are
 * written here rather than per batch; so are the figures that move with time rather than with trades.
 */
import { performance } from "node:perf_hooks";
import { SECONDS_PER_DAY, whaleConsensus } from "../ledger/index.js";
import { upsertRows } from "../store/derived-tables.js";
import { mergePnlPoints, prunePnlSeries, replacePnlPoints } from "../store/pnl-series.js";
import { pruneSnapshots } from "../store/position-snapshots.js";
import { queryRows } from "../store/raw-sql.js";
import type { BatchApplier, DeriverDeps, RecentReads } from "./batch-applier.js";
import { loadMarketFacts } from "./market-facts.js";
import { marketStatsRows, volume24h } from "./market-stats.js";
import { PendingWrites } from "./pending-writes.js";
import { dayStart, storedWatermarks } from "./rebuild.js";
import { sumWashLegs } from "./wallet-inputs.js";
import { StreamedHours, firstKeptBoundary } from "./hourly-points.js";
import { FundingClusterWriter } from "./funding-clusters.js";
import { InsiderScoreWriter } from "./insider-scores.js";
import { SignalRecorder } from "./signal-recorder.js";

const HOUR = 3_600;
/** Share of the refresh interval spent recomputing wash-ring shares, and wallets summed per query. */
const WASH_BUDGET = 0.05;

type Watermarks = { fills: number; activity: number };

/** One refresh, as its jobs see it. */
interface RefreshRound {
  readonly now: number;
  /** Every wallet's statistics and every due wash share, as each passing hour does for the statistics. */
  readonly full: boolean;
  /** The store's highest row ids when the round began. */
  readonly marks: Watermarks;
  /** min(clock, ledger frontier), taken when a job first reads it (after the jobs that may move the frontier). */
  readonly asOf: number;
}

interface RefreshJob {
  readonly name: string;
  readonly run: (round: RefreshRound) => Promise<void>;
}

export class RefreshScheduler {
  private timer: NodeJS.Timeout | null = null;
  private timerRefresh: Promise<void> | null = null;
  private lastRefreshAt: number;
  private watermarks: Watermarks;
  /** The ledger's hour when every wallet's statistics were last marked, and the clock's hour of the last pruning. */
  private pointsHour: number;
  private pruneHour: number;
  private readonly warmedAt: number;
  private readonly washComputedAt = new Map<string, number>();
  private readonly lastMarketRows = new Map<string, string>();
  /** The job of the round under way, or of the last round, which failed there. */
  current: string | null = null;

  /** What each refresh does, in this order. */
  private readonly jobs: readonly RefreshJob[] = [
    { name: "market facts", run: () => this.loadMarketFacts() },
    { name: "wallets out of order", run: (round) => this.rederiveWallets(round) },
    // Before the statistics: pnl_24h reads the hourly points.
    { name: "hourly P&L points", run: (round) => this.writeHourlyPoints(round.now) },
    { name: "synced wallets", run: () => this.markSyncedWallets() },
    { name: "wash shares", run: (round) => this.refreshWashShares(round.now, round.full) },
    { name: "hourly statistics", run: (round) => this.markEveryWalletHourly(round) },
    { name: "30-day volumes", run: (round) => this.markRecentVolumes(round.now) },
    { name: "wallet statistics and ranks", run: (round) => this.applier.writeWallets(round.asOf, true) },
    { name: "market statistics", run: (round) => this.writeMarketStats(round.asOf, round.now) },
    { name: "daily P&L points", run: (round) => this.writeDailyPoints(round.asOf) },
    { name: "funding clusters", run: async () => void (await this.fundingClusters.refresh()) },
    // After the statistics and the clusters it reads; a full round (each passing hour, the first sync's end) scores at once.
    { name: "insider scores", run: async (round) => void (await this.insiderScores.refresh(round.now, round.full)) },
    // Last: what this round's figures say is recorded as emitted now.
    { name: "signal ledger", run: async (round) => void (await this.signals.record(round.now)) },
  ];
  private readonly signals: SignalRecorder;
  private readonly fundingClusters: FundingClusterWriter;
  private readonly insiderScores: InsiderScoreWriter;

  constructor(
    private readonly deps: DeriverDeps,
    private readonly applier: BatchApplier,
    private readonly reads: RecentReads,
    warm: { readonly at: number; readonly watermarks: Watermarks; readonly asOf: number },
  ) {
    this.fundingClusters = new FundingClusterWriter(deps.store, deps.config.funding);
    this.insiderScores = new InsiderScoreWriter(deps.store, deps.config.insider);
    this.signals = new SignalRecorder(deps.store, deps.config);
    this.warmedAt = this.lastRefreshAt = warm.at;
    this.watermarks = warm.watermarks;
    this.pointsHour = Math.floor(warm.asOf / HOUR);
    this.pruneHour = Math.floor(warm.at / HOUR);
  }

  /** Calls `refresh` every `derive.refreshSeconds`; a refresh that outlasts the interval is not queued again behind itself. */
  schedule(refresh: () => Promise<void>): void {
    this.timer = setInterval(() => {
      if (!this.timerRefresh) this.timerRefresh = refresh().finally(() => (this.timerRefresh = null));
    }, this.deps.config.derive.refreshSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Runs every job once; a job that fails ends the round (the next round starts over). */
  async run(full: boolean): Promise<void> {
    this.current = null;
    const now = this.deps.clock.now();
    this.reads.nextRefresh();
    const marks = await storedWatermarks(this.deps.store);
    let asOf: number | undefined;
    const applier = this.applier;
    const round: RefreshRound = {
      now,
      full,
      marks,
      get asOf() {
        return (asOf ??= applier.asOf());
      },
    };
    for (const job of this.jobs) {
      this.current = job.name;
      await job.run(round);
    }
    this.current = null;
    this.lastRefreshAt = now;
  }

  private async loadMarketFacts(): Promise<void> {
    this.applier.factsAsked.clear();
    for (const facts of await loadMarketFacts(this.deps.store.db, this.lastRefreshAt))
      this.applier.setFacts(facts.conditionId, facts);
  }

  /** Wallets whose events came out of order, derived again from the store (their hourly points of the kept window too). */
  private async rederiveWallets(round: RefreshRound): Promise<void> {
    const { derivation: d, pending, rederive, washDue, hours: live } = this.applier;
    const first = firstKeptBoundary(round.now, this.deps.config.derive.hourlyPointsDays);
    live.forget(rederive);
    for (const address of rederive) {
      const hours = new StreamedHours(first, live.lastTaken, live.prices, () => Number.NEGATIVE_INFINITY);
      await d.rederive(this.deps.store, address, this.reads.rows(this.watermarks, false), hours);
      pending.rewrittenHourly.set(address, [...hours.points.rows()]);
      pending.markRewritten(address, d.state.wallet(d.keyOf(address))?.lastTrade ?? 0);
      this.washComputedAt.set(address, round.now);
      washDue.delete(address);
    }
    rederive.clear();
    this.watermarks = round.marks;
  }

  /** Wallets whose venue caches a wallet sync rewrote since the last refresh. */
  private async markSyncedWallets(): Promise<void> {
    const { store } = this.deps;
    const synced = await queryRows<{ wallet: string }>(
      store.db,
      store.kind,
      "select wallet from wallet_sync where updated_at >= ?",
      [this.lastRefreshAt],
    );
    for (const { wallet } of synced) this.applier.pending.stats.add(wallet);
  }

  /**
   * Recomputes the wash-ring shares of wallets that traded since theirs was computed, the stalest first. It
   * sums every fill of each wallet, so a refresh spends at most WASH_BUDGET of its interval on it (a full
   * refresh does them all); the others wait for the next refresh.
   */
  private async refreshWashShares(now: number, full: boolean): Promise<void> {
    const { washDue, derivation, pending } = this.applier;
    const computedAt = (w: string) => this.washComputedAt.get(w) ?? this.warmedAt;
    const due = [...washDue]
      .filter((w) => full || now - computedAt(w) >= this.deps.config.derive.washRefreshSeconds)
      .sort((a, b) => computedAt(a) - computedAt(b));
    const deadline = performance.now() + WASH_BUDGET * this.deps.config.derive.refreshSeconds * 1000;
    await sumWashLegs(
      this.deps.store,
      due,
      (wallet, legs) => {
        derivation.setWashLegs(wallet, legs);
        this.washComputedAt.set(wallet, now);
        washDue.delete(wallet);
        pending.stats.add(wallet);
      },
      () => full || performance.now() < deadline,
    );
  }

  /** Each time an hour passes (and on a full refresh), every wallet's statistics: pnl_24h, streak, hold window and unrealized P&L move with time and prices. */
  private async markEveryWalletHourly(round: RefreshRound): Promise<void> {
    const hourPassed = this.hourPassed(round.asOf);
    if (hourPassed) this.pointsHour = Math.floor(round.asOf / HOUR);
    if (!round.full && !hourPassed) return;
    for (const { address } of this.applier.derivation.liveBooks()) this.applier.pending.stats.add(address);
  }

  /** The leaderboards' 30-day volumes move to this refresh's clock: wallets whose fills entered or left the window. */
  private async markRecentVolumes(now: number): Promise<void> {
    for (const address of this.applier.derivation.fills.recentVolumes.advance(now))
      this.applier.pending.stats.add(address);
  }

  /** market_stats rows that changed since last written. */
  private async writeMarketStats(asOf: number, now: number): Promise<void> {
    const d = this.applier.derivation;
    const consensus = whaleConsensus(d.state, d.whaleBooks(), this.deps.config.whales.consensusMinUsd);
    const changed = marketStatsRows(
      d.fills.marketTotals,
      await volume24h(this.deps.store, asOf),
      consensus,
      now,
    ).flatMap((row) => {
      const { computed_at: _, ...figures } = row;
      const text = JSON.stringify(figures);
      return this.lastMarketRows.get(row.condition_id) === text ? [] : [{ row, text }];
    });
    await this.deps.store.transaction((tx) =>
      upsertRows(
        tx,
        "market_stats",
        changed.map((c) => c.row),
      ),
    );
    for (const { row, text } of changed) this.lastMarketRows.set(row.condition_id, text);
  }

  /** Daily points of the wallets with bookings not yet written (whole histories of wallets derived again). */
  private async writeDailyPoints(asOf: number): Promise<void> {
    const { derivation: d, pending } = this.applier;
    const rewritten = [...pending.rewrittenDaily];
    const rows = [...pending.daily].flatMap(([w, daily]) =>
      pending.rewrittenDaily.has(w) ? [] : d.dailyPoints(w, asOf, PendingWrites.firstDay(daily)),
    );
    await this.deps.store.transaction(async (tx) => {
      await replacePnlPoints(
        tx,
        "day",
        rewritten,
        rewritten.flatMap((w) => d.dailyPoints(w, asOf)),
      );
      await mergePnlPoints(tx, rows);
    });
    pending.dailyWritten(asOf);
  }

  /**
   * The hourly points taken since the last refresh (LiveHours), and those of wallets derived again; once an hour has
   * passed, the points and snapshots older than what is kept deleted.
   */
  private async writeHourlyPoints(now: number): Promise<void> {
    const { hours, pending } = this.applier;
    const rows = hours.pending;
    const rewritten = [...pending.rewrittenHourly];
    // The kept window follows the clock: past a clock hour, the points before it go.
    const passed = Math.floor(now / HOUR) > this.pruneHour;
    if (rows.length === 0 && rewritten.length === 0 && !passed) return;
    const { derive } = this.deps.config;
    const oldest = now - derive.hourlyPointsDays * SECONDS_PER_DAY;
    await this.deps.store.transaction(async (tx) => {
      await replacePnlPoints(
        tx,
        "hour",
        rewritten.map(([wallet]) => wallet),
        rewritten.flatMap(([, points]) => points),
      );
      await mergePnlPoints(tx, rows);
      if (!passed) return;
      await prunePnlSeries(tx, "hour", oldest);
      await pruneSnapshots(tx, dayStart(now) - derive.snapshotDays * SECONDS_PER_DAY);
    });
    hours.pending = hours.pending.slice(rows.length);
    for (const [wallet] of rewritten) pending.rewrittenHourly.delete(wallet);
    if (passed) this.pruneHour = Math.floor(now / HOUR);
  }

  private hourPassed(asOf: number): boolean {
    return Math.floor(asOf / HOUR) > this.pointsHour;
  }
}
