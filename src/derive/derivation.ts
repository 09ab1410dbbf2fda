/**
 * The stateful side of the ledger: one LedgerState fed from the store (a stream in wallet order) or from
 * committed batches, plus what the derived tables need beyond it: each wallet's last applied event (to spot
 * events that arrive out of order), wash-ring shares, market totals, and the latest standing of every
 * wallet for rankings and whale counts.
 *
 * A wallet whose events arrive out of order is derived again from the store, under a new key
 * (src/derive/wallet-aliases.ts).
 */
import {
  LedgerState,
  assessWallet,
  averageEntryPrice,
  computeRankings,
  rankChanges,
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
import type { PnlPointRow } from "../store/pnl-series.js";
import type { Database, PositionSnapshotsTable, PositionsTable, WalletBoardColumns } from "../store/schema.js";
import { fromMicro } from "../venue/units.js";
import { streamWalletEvents, type StreamScope } from "./event-stream.js";
import { StreamIntoLedger, type StreamOptions } from "./stream-into-ledger.js";
import {
  positionRow,
  positionRows,
  positionSnapshotRowStream,
  positionsDigest,
  walletStatsRow,
} from "./ledger-rows.js";
import { FillCounts } from "./fill-counts.js";
import { WalletAliases } from "./wallet-aliases.js";
import { compareEventOrder, isIncome, type OrderKey } from "./stored-events.js";
import { replayRingVolumes, type WalletStoreInputs } from "./wallet-inputs.js";
import { ringShare, type WashLegs } from "./wash-legs.js";
import type { PriceHistory, StreamedHours } from "./hourly-points.js";

export type DeriveConfig = LedgerConfig &
  Pick<Config, "whales" | "derive" | "funding" | "insider" | "alerts" | "store">;

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
  /** The sums of fills the derived tables need beyond the ledger. */
  readonly fills = new FillCounts();
  /** The latest event time applied, rewards and rebates aside: the ledger is complete up to it. */
  frontier = 0;
  /** Each wallet's latest statistics that rankings and whale counts read, by address. */
  readonly standings = new Map<string, Standing>();
  rankings = new Map<string, WalletRankings>();
  private readonly aliases = new WalletAliases();
  private readonly lastOrder = new Map<string, OrderKey>();
  private readonly washShares = new Map<string, number | null>();
  private readonly deferredLegs = new Set<string>();
  private ringVolumes: Promise<Map<string, number | null>> | null = null;
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
    return this.aliases.keyOf(address);
  }

  /** The address behind a ledger key, or null for a superseded copy of a re-derived wallet. */
  liveAddress(key: string): string | null {
    return this.aliases.liveAddress(key);
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

  /**
   * Leaves the wash legs of these wallets out of the streams, until `settleDeferredLegs` sums them in the store: their
   * rows come in more than one time range (a rebuild streams the day's rows apart from the rest), and keeping their
   * legs from one range to the next held a leg per counterparty and token of nearly every fill at once.
   */
  deferLegs(wallets: Iterable<string>): void {
    for (const wallet of wallets) this.deferredLegs.add(wallet);
  }

  /**
   * Starts summing the deferred wallets' legs in the store (`replayRingVolumes`), which may run beside the streams
   * (on SQLite, a read thread of its own); `settleDeferredLegs` takes the result.
   */
  startDeferredLegs(store: Store): void {
    this.ringVolumes ??= replayRingVolumes(
      store,
      [...this.deferredLegs],
      this.config.farmer,
      this.config.store.sqliteReplaySortCacheMb,
    );
    // Taken by settleDeferredLegs; a rebuild that fails before it must not leave the rejection unhandled.
    this.ringVolumes.catch(() => undefined);
  }

  /** The deferred wallets' wash shares, from their legs summed by the store (after the streams: each book's volume is whole). */
  async settleDeferredLegs(store: Store): Promise<void> {
    this.startDeferredLegs(store);
    const volumes = await this.ringVolumes!;
    for (const wallet of this.deferredLegs) this.setRingVolume(wallet, volumes.get(wallet) ?? null);
    this.deferredLegs.clear();
    this.ringVolumes = null;
  }

  /** Whether the wallet's wash legs wait for `settleDeferredLegs`. */
  legsDeferred(address: string): boolean {
    return this.deferredLegs.has(address);
  }

  /** Streams stored rows of the scope into the ledger. */
  async load(store: Store, scope: StreamScope, options: StreamOptions): Promise<void> {
    const stream = new StreamIntoLedger(this, options);
    await streamWalletEvents(store, scope, (row) => stream.apply(row), undefined, options.cache);
    stream.finish();
  }

  /** Records the wallet's latest applied event (rewards and rebates aside). */
  placed(address: string, order: OrderKey): void {
    this.lastOrder.set(address, order);
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
    if (!isIncome(event)) this.placed(address, order);
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
    const { markets } = this.state;
    const changed: Array<{ address: string; conditionId: string; resolvedAt: number }> = [];
    for (let c = 0; c < markets.size; c++) {
      if (markets.swept[c] || !((markets.resolvedAt[c] as number) < asOf)) continue;
      for (const address of this.liveHolders(c))
        changed.push({ address, conditionId: markets.conditionIds[c]!, resolvedAt: markets.resolvedAt[c] as number });
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
    const alias = this.aliases.renew(address);
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
    const c = this.state.markets.find(conditionId);
    return new Set(c === undefined ? [] : this.liveHolders(c));
  }

  /** The live wallets behind the positions of a market (condition index), one per position. */
  private *liveHolders(c: number): Iterable<string> {
    const { markets, positions, walletTable } = this.state;
    for (let p = markets.firstHolder[c]!; p >= 0; p = positions.nextInMarket(p)) {
      const address = this.liveAddress(walletTable.addresses[positions.walletOf(p)]!);
      if (address !== null) yield address;
    }
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
    this.setRingVolume(address, legs.ringVolume(this.config.farmer));
  }

  /** The wallet's wash share from the volume it round-tripped with its ring (`WashLegs.ringVolume`). */
  private setRingVolume(address: string, ringVolume: number | null): void {
    const book = this.state.wallet(this.keyOf(address));
    this.washShares.set(address, book ? ringShare(ringVolume, book.volume) : null);
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
    const changed = rankChanges(this.rankings, next);
    this.rankings = next;
    return changed;
  }

  statsRow(address: string, assessment: WalletAssessment, computedAt: number): Database["wallet_stats"] {
    // Completed in place: an object spread of its fifty columns built each row as a dictionary (10 KB a row).
    const row: Partial<Database["wallet_stats"]> = walletStatsRow(assessment, this.rankings.get(address), computedAt);
    row.wallet = address;
    Object.assign(row, this.boardColumns(address));
    row.positions_digest = positionsDigest(this.state, this.state.wallet(this.keyOf(address)));
    return row as Database["wallet_stats"];
  }

  /** The leaderboards' figures of a wallet: average entry over its positions, 30-day volumes as of the last advance. */
  boardColumns(address: string): WalletBoardColumns {
    const v = this.fills.recentVolumes.of(address);
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

  /** The positions rows of one wallet. */
  positionRows(address: string): PositionsTable[] {
    return positionRows(this.state, this.keyOf(address)).map((row) => ({ ...row, wallet: address }));
  }

  /** How many positions the live wallets hold (what `positionRows()` would give, not built). */
  positionCount(): number {
    return this.liveBooks().reduce((n, { book }) => n + this.state.positionIndices(book).length, 0);
  }

  snapshotRows(at: number): PositionSnapshotsTable[] {
    return [...this.snapshotRowStream(at)];
  }

  /** `snapshotRows`, each wallet's made as the stream reaches it (the ledger must not move until it is read). */
  snapshotRowStream(at: number): Iterable<PositionSnapshotsTable> {
    return this.aliases.liveRows(positionSnapshotRowStream(this.state, at, this.config.whales.consensusMinUsd));
  }

  /** A wallet's daily points from its realized history, dated after `since` and up to `asOf`. */
  dailyPoints(address: string, asOf: number, since = Number.NEGATIVE_INFINITY): PnlPointRow[] {
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
}
