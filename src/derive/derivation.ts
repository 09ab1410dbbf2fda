/**
 * The stateful side of the ledger: one LedgerState fed from the store (a stream in wallet order) or from
 * committed batches, plus what the derived tables need beyond it: each wallet's last applied event (to spot
 * events that arrive out of order), wash-ring shares, market totals, and the latest standing of every
 * wallet for rankings and whale counts.
 *
 * A wallet whose events arrive out of order is derived again from the store. The ledger cannot forget a
 * wallet, so the new copy lives under an alias key (`address#n`) and the old copy is ignored from then on:
 * every row leaves here under its address, and only the live copy of each wallet is read.
 */
import {
  LedgerState,
  MarketTotals,
  SECONDS_PER_DAY,
  assessWallet,
  averageEntryPrice,
  computeRankings,
  dailySettledPnl,
  type LedgerCapacity,
  type LedgerConfig,
  type LedgerEvent,
  type MarketFacts,
  type RankingEntry,
  type WalletAssessment,
  type WalletBook,
  type WalletRankings,
  venueClosedPositions,
} from "../ledger/index.js";
import type { Config } from "../config/index.js";
import type { Store } from "../store/database.js";
import {
  BOARD_WINDOW_DAYS,
  type Database,
  type PnlPointsTable,
  type PositionSnapshotsTable,
  type PositionsTable,
  type WalletBoardColumns,
} from "../store/schema.js";
import { fromMicro } from "../venue/units.js";
import { streamWalletEvents, type StreamedRow, type StreamScope } from "./event-stream.js";
import { positionRow, positionRows, positionSnapshotRows, walletStatsRow } from "./ledger-rows.js";
import { RecentVolumes } from "./recent-volumes.js";
import { MarketDailyPriceSums } from "./market-daily-prices.js";
import { WalletDailyFillSums } from "./wallet-daily-fills.js";
import { WalletLastMoves } from "./wallet-last-moves.js";
import { WalletFeeSums } from "./wallet-fees.js";
import {
  activityEvent,
  compareEventOrder,
  fillEvent,
  isIncome,
  isIncomeType,
  type OrderKey,
  type StoredFill,
} from "./stored-events.js";
import { WASH_WALLETS_PER_QUERY, WashLegs, loadWashLegs, type WalletStoreInputs } from "./wallet-inputs.js";
import type { PriceHistory, StreamedHours } from "./hourly-points.js";

export type DeriveConfig = LedgerConfig & Pick<Config, "whales" | "derive">;

export interface StreamOptions {
  /** Add each fill to the market totals (rows seen for the first time). */
  readonly countMarkets: boolean;
  /** Sum wash legs while streaming, of every wallet whose legs are not deferred (`deferLegs`): their whole history is in the scope. */
  readonly washLegs: "all" | "none";
  /** Called with the natural key of each row read with its key (see `StreamScope.keysAbove`). */
  readonly onKey?: (key: string) => void;
}

/** Rows stored after these ids, whose keys a read reports (a batch may still hand them over). */
export interface RecentRows {
  readonly keysAbove: { readonly fills: number; readonly activity: number };
  readonly onKey: (key: string) => void;
}

export interface Standing {
  readonly entry: RankingEntry;
  readonly isSmart: boolean;
}

export class Derivation {
  readonly state: LedgerState;
  readonly marketTotals = new MarketTotals();
  /** Each wallet's 30-day volumes as of the last `advance` (rebuild, refresh). */
  readonly recentVolumes = new RecentVolumes(BOARD_WINDOW_DAYS * SECONDS_PER_DAY);
  /**
   * Fees and volume per wallet, month, entry type and role of the fills counted since the table was last written:
   * every stored fill after a rebuild's replay, a batch's new fills after that.
   */
  readonly walletFees = new WalletFeeSums();
  /** The fills counted here, per wallet and UTC day (`wallet_daily_fills`). */
  readonly walletDailyFills = new WalletDailyFillSums();
  /** Each market's daily prices of the same fills (market-side ones), counted the same way. */
  readonly marketDailyPrices = new MarketDailyPriceSums();
  /** Each wallet's latest fill per market (`wallet_last_moves`), kept the same way. */
  readonly walletLastMoves = new WalletLastMoves();
  /**
   * Stored fills with an id up to this one are left out of the two daily sums and the last moves above: a rebuild's
   * write fills those tables in SQL (keeping them here would hold a row per wallet and day, or wallet and market, of
   * the whole history in memory).
   */
  fillTablesInSqlThrough = 0;
  /** The latest event time applied, rewards and rebates aside: the ledger is complete up to it. */
  frontier = 0;
  /** Each wallet's latest statistics that rankings and whale counts read, by address. */
  readonly standings = new Map<string, Standing>();
  rankings = new Map<string, WalletRankings>();
  private readonly aliases = new Map<string, string>();
  private readonly addressOfAlias = new Map<string, string>();
  private aliasCount = 0;
  private readonly lastOrder = new Map<string, OrderKey>();
  private readonly washShares = new Map<string, number | null>();
  /** The wallet a stream is on, its ledger key, its latest row in order, and its wash legs so far. */
  private streamWallet: string | null = null;
  private streamKey = "";
  private streamLast: StreamedRow | null = null;
  private streamLegs = new WashLegs();
  private summingLegs = false;
  private readonly deferredLegs = new Set<string>();
  /** The fill prices hourly points read (every fill applied or streamed is observed). */
  prices: PriceHistory | null = null;
  /** While a stream computes hourly points (a rebuild, a wallet derived again). */
  hours: StreamedHours | null = null;

  constructor(
    facts: Iterable<MarketFacts>,
    readonly config: DeriveConfig,
    capacity?: LedgerCapacity,
  ) {
    this.state = new LedgerState(facts, capacity);
  }

  /** The key the ledger knows a wallet by. */
  keyOf(address: string): string {
    return this.aliases.get(address) ?? address;
  }

  /** The address behind a ledger key, or null for a superseded copy of a re-derived wallet. */
  liveAddress(key: string): string | null {
    const address = this.addressOfAlias.get(key) ?? key;
    return this.keyOf(address) === key ? address : null;
  }

  /** Every wallet's ledger record, live copies only. */
  liveBooks(): Array<{ address: string; book: WalletBook }> {
    const out: Array<{ address: string; book: WalletBook }> = [];
    for (const book of this.state.wallets()) {
      const address = this.liveAddress(book.address);
      if (address !== null) out.push({ address, book });
    }
    return out;
  }

  /** Applies one streamed row (the rows of one wallet come together, in ledger order). */
  applyStreamed(streamed: StreamedRow, options: StreamOptions): void {
    const row = streamed.row;
    if (row.wallet !== this.streamWallet) this.finishStreamedWallet(options, row.wallet);
    const key = streamed.kind === 0 ? streamed.row.fill_key : streamed.row.activity_key;
    if (key !== "") options.onKey?.(key);
    let event: LedgerEvent | null;
    if (streamed.kind === 0) {
      const fill = streamed.row;
      event = fillEvent(fill);
      if (options.countMarkets) this.countFill(fill);
      if (this.summingLegs) this.streamLegs.add(fill.counterparty, fill.token_id, fill.side, fill.size, fill.usd);
      this.prices?.observe(fill.token_id, fill.condition_id, fill.ts, fill.log_index, fill.usd, fill.size);
    } else {
      event = activityEvent(streamed.row);
    }
    const moves = streamed.kind === 0 || !isIncomeType(streamed.row.type);
    if (moves) {
      this.observe(row.ts);
      this.streamLast = streamed;
      this.hours?.before(this.state, this.streamKey, row.wallet, row.ts);
    }
    if (event) this.state.apply(this.streamKey === row.wallet ? event : { ...event, wallet: this.streamKey });
    if (moves) this.hours?.after(row.wallet, row.ts);
  }

  /** Ends a stream: the last wallet's order and wash share are recorded. */
  finishStream(options: StreamOptions): void {
    this.finishStreamedWallet(options, null);
  }

  private finishStreamedWallet(options: StreamOptions, next: string | null): void {
    const wallet = this.streamWallet;
    if (wallet !== null) {
      const last = this.streamLast?.row;
      if (last) this.lastOrder.set(wallet, { ts: last.ts, logIndex: last.log_index, kind: this.streamLast!.kind });
      if (this.summingLegs) this.setWashLegs(wallet, this.streamLegs);
    }
    this.streamWallet = next;
    this.streamKey = next === null ? "" : this.keyOf(next);
    this.streamLast = null;
    this.summingLegs = next !== null && options.washLegs === "all" && !this.deferredLegs.has(next);
    this.streamLegs = new WashLegs();
  }

  /**
   * Leaves the wash legs of these wallets out of the streams, until `settleDeferredLegs` sums them in the store: their
   * rows come in more than one time range (a rebuild streams the day's rows apart from the rest), and keeping their
   * legs from one range to the next held a leg per counterparty and token of nearly every fill at once.
   */
  deferLegs(wallets: Iterable<string>): void {
    for (const wallet of wallets) this.deferredLegs.add(wallet);
  }

  /** The deferred wallets' wash shares, from legs summed by the store a few wallets at a time (after the streams: each book's volume is whole). */
  async settleDeferredLegs(store: Store): Promise<void> {
    const wallets = [...this.deferredLegs];
    for (let i = 0; i < wallets.length; i += WASH_WALLETS_PER_QUERY) {
      const slice = wallets.slice(i, i + WASH_WALLETS_PER_QUERY);
      const legs = await loadWashLegs(store, slice);
      for (const wallet of slice) this.setWashLegs(wallet, legs.get(wallet) ?? new WashLegs());
    }
    this.deferredLegs.clear();
  }

  /** Streams stored rows of the scope into the ledger. */
  async load(store: Store, scope: StreamScope, options: StreamOptions): Promise<void> {
    await streamWalletEvents(store, scope, (row) => this.applyStreamed(row, options));
    this.finishStream(options);
  }

  /**
   * Adds a fill seen for the first time to its market's totals and daily prices, its wallet's recent volumes, its
   * fee sums and its daily sums. `id`: its row's, when read from the store (a batch's fills are handed over without).
   */
  countFill(fill: StoredFill & { readonly id?: number }): void {
    this.marketTotals.add(fill.condition_id, fill.role, fill.entry_type, fill.usd);
    this.recentVolumes.add(fill.wallet, fill.ts, fill.role, fill.entry_type, fill.usd);
    this.walletFees.add(fill);
    if (fill.id !== undefined && fill.id <= this.fillTablesInSqlThrough) return;
    this.walletDailyFills.add(fill);
    this.marketDailyPrices.add(fill, fill.id ?? null);
    this.walletLastMoves.add(fill, fill.id ?? null);
  }

  /** Records that the store holds events up to `ts` (rewards and rebates aside). */
  observe(ts: number): void {
    if (ts > this.frontier) this.frontier = ts;
  }

  /** Applies an event of `event.wallet` (an address) in its place in the wallet's order. */
  apply(event: LedgerEvent, order: OrderKey): void {
    const address = event.wallet;
    const key = this.keyOf(address);
    this.state.apply(key === address ? event : { ...event, wallet: key });
    if (!isIncome(event)) this.lastOrder.set(address, order);
  }

  /** The markets (condition indices) an event acts on; a conversion acts on every question of its event. */
  private conditionsOf(event: LedgerEvent): number[] {
    const markets = this.state.markets;
    if (event.kind === "fill" || event.type === "SPLIT" || event.type === "MERGE" || event.type === "REDEEM") {
      const c = markets.find(event.conditionId);
      return c === undefined ? [] : [c];
    }
    if (event.type === "CONVERSION")
      return (markets.negRiskEvent(event.negRiskEventId)?.questions ?? []).filter((c) => c >= 0);
    return [];
  }

  /** The condition ids an applied event acted on. */
  touchedMarkets(event: LedgerEvent): string[] {
    return this.conditionsOf(event).map((c) => this.state.markets.conditionIds[c]!);
  }

  /**
   * The earliest time an event at `ts` may book P&L at: a resolution reaches a position at its first later
   * event and is booked at the resolution's time.
   */
  bookedFrom(event: LedgerEvent, ts: number): number {
    let from = ts;
    for (const c of this.conditionsOf(event)) from = Math.min(from, this.state.markets.resolvedAt[c] as number);
    return from;
  }

  /**
   * Applies every resolution before `asOf` to the positions of its market; returns the (wallet, market)
   * pairs whose positions it changed.
   */
  advance(asOf: number): Array<{ address: string; conditionId: string; resolvedAt: number }> {
    const { markets, positions, walletTable } = this.state;
    const changed: Array<{ address: string; conditionId: string; resolvedAt: number }> = [];
    for (let c = 0; c < markets.size; c++) {
      if (markets.swept[c] || !((markets.resolvedAt[c] as number) < asOf)) continue;
      for (let p = markets.firstHolder[c]!; p >= 0; p = positions.nextInMarket(p)) {
        const address = this.liveAddress(walletTable.addresses[positions.walletOf(p)]!);
        if (address !== null)
          changed.push({ address, conditionId: markets.conditionIds[c]!, resolvedAt: markets.resolvedAt[c] as number });
      }
    }
    this.state.advanceTo(asOf);
    return changed;
  }

  /** When the wallet's latest applied event happened (rewards and rebates aside). */
  lastEventTs(address: string): number {
    return this.lastOrder.get(address)?.ts ?? Number.NEGATIVE_INFINITY;
  }

  /**
   * Whether an event cannot simply be applied now: it comes before an event of its wallet already applied,
   * or before the resolution of a market the ledger has already swept (the sweep would have missed it).
   */
  isLate(event: LedgerEvent, order: OrderKey): boolean {
    if (isIncome(event)) return false;
    const last = this.lastOrder.get(event.wallet);
    if (last && compareEventOrder(order, last) < 0) return true;
    const markets = this.state.markets;
    return this.conditionsOf(event).some(
      (c) => markets.swept[c] === true && (markets.resolvedAt[c] as number) >= order.ts,
    );
  }

  /**
   * Derives a wallet again from its stored rows, under a fresh alias. Keys of recent rows go to `recent.onKey`
   * (their market totals were counted when they first came).
   */
  async rederive(store: Store, address: string, recent?: RecentRows, hours?: StreamedHours): Promise<void> {
    const alias = `${address}#${++this.aliasCount}`;
    this.aliases.set(address, alias);
    this.addressOfAlias.set(alias, address);
    this.lastOrder.delete(address);
    this.hours = hours ?? null;
    try {
      await this.load(
        store,
        { wallet: address, keysAbove: recent?.keysAbove },
        { countMarkets: false, washLegs: "all", onKey: recent?.onKey },
      );
      hours?.finish(this.state, [{ address, key: alias }], Number.POSITIVE_INFINITY);
    } finally {
      this.hours = null;
    }
  }

  /** The live wallets holding (or having held) a position in the market. */
  holdersOf(conditionId: string): Set<string> {
    const { markets, positions, walletTable } = this.state;
    const out = new Set<string>();
    const c = markets.find(conditionId);
    if (c === undefined) return out;
    for (let p = markets.firstHolder[c]!; p >= 0; p = positions.nextInMarket(p)) {
      const address = this.liveAddress(walletTable.addresses[positions.walletOf(p)]!);
      if (address !== null) out.add(address);
    }
    return out;
  }

  /** Condition ids of the markets whose resolution time falls in [from, to). */
  resolvedBetween(from: number, to: number): string[] {
    const { markets } = this.state;
    const out: string[] = [];
    for (let c = 0; c < markets.size; c++) {
      const at = markets.resolvedAt[c] as number;
      if (at >= from && at < to) out.push(markets.conditionIds[c]!);
    }
    return out;
  }

  /** Sets a wallet's wash legs (summed by the store or while streaming). */
  setWashLegs(address: string, legs: WashLegs): void {
    const book = this.state.wallet(this.keyOf(address));
    this.washShares.set(address, book ? legs.share(book.volume, this.config.farmer) : null);
  }

  /** Assesses a wallet as of `asOf` and records its standing; undefined for an unknown wallet. */
  assess(address: string, inputs: WalletStoreInputs, asOf: number): WalletAssessment | undefined {
    const key = this.keyOf(address);
    this.state.advanceTo(asOf);
    const book = this.state.wallet(key);
    if (!book) return undefined;
    const assessment = assessWallet(
      this.state,
      key,
      {
        now: asOf,
        venueClosed: inputs.venueClosed,
        ledgerClosed: venueClosedPositions(this.state, book),
        historyComplete: inputs.historyComplete,
        venueLifetimePnl: inputs.venueLifetimePnl,
        pnlPoints: inputs.pnlPoints,
        washRingVolumeShare: this.washShares.get(address) ?? null,
      },
      this.config,
    );
    if (!assessment) return undefined;
    const { stats } = assessment;
    this.standings.set(address, {
      entry: {
        wallet: address,
        resolved: stats.resolved,
        totalPnl: stats.totalPnl,
        winRate: stats.winRate,
        totalVolume: stats.totalVolume,
        profitFactor: stats.profitFactor,
      },
      isSmart: assessment.isSmart,
    });
    return assessment;
  }

  /** Ranks every assessed wallet; returns the wallets whose ranks changed. */
  rank(): string[] {
    const next = computeRankings(
      [...this.standings.values()].map((s) => s.entry),
      this.config.ledger,
    );
    const changed: string[] = [];
    for (const [wallet, ranks] of next) {
      const before = this.rankings.get(wallet);
      if (
        !before ||
        before.rankPnl !== ranks.rankPnl ||
        before.rankWinRate !== ranks.rankWinRate ||
        before.rankVolume !== ranks.rankVolume ||
        before.rankProfitFactor !== ranks.rankProfitFactor
      ) {
        changed.push(wallet);
      }
    }
    this.rankings = next;
    return changed;
  }

  statsRow(address: string, assessment: WalletAssessment, computedAt: number): Database["wallet_stats"] {
    return {
      ...walletStatsRow(assessment, this.rankings.get(address), computedAt),
      wallet: address,
      ...this.boardColumns(address),
    };
  }

  /** The leaderboards' figures of a wallet: average entry over its positions, 30-day volumes as of the last advance. */
  boardColumns(address: string): WalletBoardColumns {
    const v = this.recentVolumes.of(address);
    return {
      avg_entry_price: averageEntryPrice(this.state, this.state.wallet(this.keyOf(address))),
      mint_volume_30d: fromMicro(v.mint),
      merge_volume_30d: fromMicro(v.merge),
      maker_volume_30d: fromMicro(v.maker),
      volume_30d: fromMicro(v.total),
    };
  }

  /** The positions rows of a wallet in one market (both sides, those it has). */
  positionRowsIn(address: string, conditionId: string): PositionsTable[] {
    const rows: PositionsTable[] = [];
    for (const outcome of [0, 1] as const) {
      const position = this.state.position(this.keyOf(address), conditionId, outcome);
      if (position) rows.push({ ...positionRow(this.state, position), wallet: address });
    }
    return rows;
  }

  /** The positions rows of one wallet, or of every wallet. */
  positionRows(address?: string): PositionsTable[] {
    if (address !== undefined)
      return positionRows(this.state, this.keyOf(address)).map((row) => ({ ...row, wallet: address }));
    return this.live(positionRows(this.state));
  }

  snapshotRows(at: number): PositionSnapshotsTable[] {
    return this.live(positionSnapshotRows(this.state, at, this.config.whales.consensusMinUsd));
  }

  /** A wallet's daily points from its realized history, dated after `since` and up to `asOf`. */
  dailyPoints(address: string, asOf: number, since = Number.NEGATIVE_INFINITY): PnlPointsTable[] {
    return dailySettledPnl(this.state, this.keyOf(address))
      .filter((point) => point.t > since && point.t <= asOf)
      .map(({ t, pnl }) => ({ wallet: address, resolution: "day" as const, t, pnl }));
  }

  /** The live wallets with Smart Money standing. */
  whaleBooks(): WalletBook[] {
    const books: WalletBook[] = [];
    for (const [address, standing] of this.standings) {
      const book = standing.isSmart ? this.state.wallet(this.keyOf(address)) : undefined;
      if (book) books.push(book);
    }
    return books;
  }

  /** Rows of live wallets only, under their addresses. */
  private live<R extends { wallet: string }>(rows: R[]): R[] {
    const out: R[] = [];
    for (const row of rows) {
      const address = this.liveAddress(row.wallet);
      if (address === null) continue;
      out.push(address === row.wallet ? row : { ...row, wallet: address });
    }
    return out;
  }
}
