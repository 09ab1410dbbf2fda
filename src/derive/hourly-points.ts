/**
 * Hourly P&L points (docs/METRICS.md, P&L points), the same whether `rebuild` computes them from the store or the
 * Deriver as batches come: at each hour boundary B of the kept window (PNL_HOURLY_DAYS up to as-of), a wallet whose
 * value may have moved in the hour before B gets a point dated B, worth `ledgerValueAt` B: its events before B,
 * resolutions before B at their payout, open positions at the price of their token's last fill before B (the
 * store's own price history, so a point does not depend on when it is computed). The value may have moved when, in
 * [B - 1 h, B), the wallet had an event, a token it holds open at B was traded, or a market where it holds shares
 * resolved.
 */
import { fillPrice, ledgerValueAt, type LedgerState, type PnlPoint, type WalletBook } from "../ledger/index.js";
import type { PnlPointRow } from "../store/pnl-series.js";

export const HOUR = 3_600;

interface LastFill {
  ts: number;
  logIndex: number;
  price: number;
}

/** Whether fill `a` comes after fill `b` (time, then log index; the price settles ties of fills without one). */
function later(a: LastFill, b: LastFill): boolean {
  return a.ts !== b.ts ? a.ts > b.ts : a.logIndex !== b.logIndex ? a.logIndex > b.logIndex : a.price > b.price;
}

/**
 * The fill prices the points read: per outcome token, its last fill before the window and the last fill of each
 * hour within it; per hour, the markets traded in it. Fills may be observed in any order.
 */
export class PriceHistory {
  private readonly before = new Map<string, LastFill>();
  /** Per token: the hours with fills (ascending) and each hour's last fill. */
  private readonly hours = new Map<string, { starts: number[]; lasts: LastFill[] }>();
  private readonly marketsByHour = new Map<number, Set<string>>();

  /** `windowStart`: an hour start; fills before it only count as the price a window starts from. */
  constructor(private windowStart: number) {}

  observe(tokenId: string, conditionId: string, ts: number, logIndex: number | null, usd: number, size: number): void {
    const fill: LastFill = { ts, logIndex: logIndex ?? -1, price: fillPrice(usd, size) };
    if (ts < this.windowStart) {
      const known = this.before.get(tokenId);
      if (!known || later(fill, known)) this.before.set(tokenId, fill);
      return;
    }
    const hour = ts - (ts % HOUR);
    let byHour = this.marketsByHour.get(hour);
    if (!byHour) this.marketsByHour.set(hour, (byHour = new Set()));
    byHour.add(conditionId);
    let token = this.hours.get(tokenId);
    if (!token) this.hours.set(tokenId, (token = { starts: [], lasts: [] }));
    let i = token.starts.length;
    while (i > 0 && token.starts[i - 1]! > hour) i--;
    if (i > 0 && token.starts[i - 1] === hour) {
      if (later(fill, token.lasts[i - 1]!)) token.lasts[i - 1] = fill;
    } else {
      token.starts.splice(i, 0, hour);
      token.lasts.splice(i, 0, fill);
    }
  }

  /** The price (micro-units) of the token's last fill before `at` (an hour start); null when it has none. */
  priceBefore(tokenId: string, at: number): number | null {
    const token = this.hours.get(tokenId);
    if (token) {
      let lo = 0;
      let hi = token.starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (token.starts[mid]! < at) lo = mid + 1;
        else hi = mid;
      }
      if (lo > 0) return token.lasts[lo - 1]!.price;
    }
    return this.before.get(tokenId)?.price ?? null;
  }

  /** Whether the token was traded in the hour starting at `hour`. */
  tradedIn(tokenId: string, hour: number): boolean {
    const token = this.hours.get(tokenId);
    if (!token) return false;
    for (let i = token.starts.length - 1; i >= 0 && token.starts[i]! >= hour; i--)
      if (token.starts[i] === hour) return true;
    return false;
  }

  /** Condition ids of the markets traded in the hour starting at `hour`. */
  marketsTradedIn(hour: number): Iterable<string> {
    return this.marketsByHour.get(hour) ?? [];
  }

  /** Moves the window's start to a later hour start: fills before it only give the price a window starts from. */
  moveWindow(start: number): void {
    if (start <= this.windowStart) return;
    this.windowStart = start;
    for (const [tokenId, token] of this.hours) {
      let n = 0;
      while (n < token.starts.length && token.starts[n]! < start) n++;
      if (n === 0) continue;
      const last = token.lasts[n - 1]!;
      const known = this.before.get(tokenId);
      if (!known || later(last, known)) this.before.set(tokenId, last);
      token.starts.splice(0, n);
      token.lasts.splice(0, n);
      if (token.starts.length === 0) this.hours.delete(tokenId);
    }
    for (const hour of this.marketsByHour.keys()) if (hour < start) this.marketsByHour.delete(hour);
  }
}

/** The first hour boundary of the window kept at `now`. */
export function firstKeptBoundary(now: number, keptDays: number): number {
  const oldest = now - keptDays * 86_400;
  return Math.ceil(oldest / HOUR) * HOUR;
}

/**
 * The wallet's points at the boundaries from `from` to `until` (hour starts; its events before `from` applied and
 * none after), each where something that moves its value happened in the hour before. `lastEventTs`: its latest
 * event applied (rewards and rebates aside).
 */
export function hourlyPoints(
  state: LedgerState,
  book: WalletBook,
  address: string,
  from: number,
  until: number,
  lastEventTs: number,
  prices: PriceHistory,
): PnlPointRow[] {
  const { positions: table, markets } = state;
  // Positions that can move: shares in a market whose resolution has not reached them.
  const open = state.positionIndices(book).filter((p) => table.shares(p) > 0 && !table.isResolved(p));
  const rows: PnlPointRow[] = [];
  if (open.length === 0 && lastEventTs < from - HOUR) return rows;
  const priceAt = (at: number) => (token: number) => {
    const tokenId = markets.tokenIds[token];
    return tokenId === undefined ? null : prices.priceBefore(tokenId, at);
  };
  for (let at = from; at <= until; at += HOUR) {
    const hour = at - HOUR;
    let moved = lastEventTs >= hour && lastEventTs < at;
    for (let i = 0; i < open.length && !moved; i++) {
      const token = table.token(open[i]!);
      const resolvedAt = markets.resolvedAt[token >> 1] as number;
      const tokenId = markets.tokenIds[token];
      moved =
        (resolvedAt >= hour && resolvedAt < at) ||
        (resolvedAt >= at && tokenId !== undefined && prices.tradedIn(tokenId, hour));
    }
    if (moved)
      rows.push({ wallet: address, resolution: "hour", t: at, pnl: ledgerValueAt(state, book, at, priceAt(at)) });
  }
  return rows;
}

/** Hourly points by wallet: each wallet's taken once, then those of wallets not taken. */
export interface HourlyPointsByWallet {
  take(wallet: string): PnlPointRow[];
  rest(): Generator<PnlPointRow>;
}

/**
 * Hourly points kept column by column until they are written: a rebuild takes every wallet's points of the kept
 * window before one write (6.8 million at 10,000,000 fills), which as objects were about half a GB of its peak.
 */
export class HourlyPointColumns {
  private readonly walletIds = new Map<string, number>();
  private readonly wallets: string[] = [];
  private walletOf = new Int32Array(1_024);
  private times = new Float64Array(1_024);
  private values = new Float64Array(1_024);
  private count = 0;

  get length(): number {
    return this.count;
  }

  push(row: PnlPointRow): void {
    if (this.count === this.times.length) this.grow();
    let id = this.walletIds.get(row.wallet);
    if (id === undefined) {
      id = this.wallets.push(row.wallet) - 1;
      this.walletIds.set(row.wallet, id);
    }
    this.walletOf[this.count] = id;
    this.times[this.count] = row.t;
    this.values[this.count++] = row.pnl;
  }

  /** The points as rows, in the order they were taken. */
  *rows(): Generator<PnlPointRow> {
    for (let i = 0; i < this.count; i++)
      yield { wallet: this.wallets[this.walletOf[i]!]!, resolution: "hour", t: this.times[i]!, pnl: this.values[i]! };
  }

  /** Each wallet's latest point at or before `cutoff` (read from the columns: as rows, 6.8 million objects at 10M fills). */
  latestAtOrBefore(cutoff: number): Map<string, PnlPoint> {
    const latest = new Float64Array(this.wallets.length).fill(Number.NaN);
    const at = new Int32Array(this.wallets.length);
    for (let i = 0; i < this.count; i++) {
      const t = this.times[i]!;
      const w = this.walletOf[i]!;
      if (t <= cutoff && !(t <= latest[w]!)) [latest[w], at[w]] = [t, i];
    }
    const out = new Map<string, PnlPoint>();
    for (let w = 0; w < this.wallets.length; w++)
      if (!Number.isNaN(latest[w]!)) out.set(this.wallets[w]!, { t: latest[w]!, p: this.values[at[w]!]! });
    return out;
  }

  /**
   * The points grouped by wallet, each wallet's in the order taken (a stable counting sort of the columns): a rebuild
   * writes each wallet's after its daily ones, the order of the table's key, where taking them in time order swept
   * every wallet's keys once per day of the window.
   */
  byWallet(): HourlyPointsByWallet {
    const wallets = this.wallets.length;
    const starts = new Int32Array(wallets + 1);
    for (let i = 0; i < this.count; i++) starts[this.walletOf[i]! + 1]!++;
    for (let w = 0; w < wallets; w++) starts[w + 1]! += starts[w]!;
    const order = new Int32Array(this.count);
    const next = starts.slice(0, wallets);
    for (let i = 0; i < this.count; i++) order[next[this.walletOf[i]!]!++] = i;
    const taken = new Uint8Array(wallets);
    const rowsOf = (w: number): PnlPointRow[] => {
      taken[w] = 1;
      const rows: PnlPointRow[] = [];
      for (let k = starts[w]!; k < starts[w + 1]!; k++) {
        const i = order[k]!;
        rows.push({ wallet: this.wallets[w]!, resolution: "hour", t: this.times[i]!, pnl: this.values[i]! });
      }
      return rows;
    };
    return {
      take: (wallet) => {
        const w = this.walletIds.get(wallet);
        return w === undefined || taken[w] ? [] : rowsOf(w);
      },
      rest: function* () {
        for (let w = 0; w < wallets; w++) if (!taken[w]) yield* rowsOf(w);
      },
    };
  }

  private grow(): void {
    const size = this.times.length * 2;
    const walletOf = new Int32Array(size);
    walletOf.set(this.walletOf);
    const times = new Float64Array(size);
    times.set(this.times);
    const values = new Float64Array(size);
    values.set(this.values);
    [this.walletOf, this.times, this.values] = [walletOf, times, values];
  }
}

/**
 * The points of wallets streamed one at a time (a rebuild, a wallet derived again): before each event of a wallet,
 * its boundaries up to the event's time; `finish` takes every wallet up to a time.
 */
export class StreamedHours {
  readonly points = new HourlyPointColumns();
  private readonly next = new Map<string, number>();
  private readonly lastEvent = new Map<string, number>();

  constructor(
    /** The window's first and last boundary. */
    private readonly first: number,
    private readonly last: number,
    readonly prices: PriceHistory,
    /** A wallet's latest event before the streams began. */
    private readonly lastEventBefore: (address: string) => number,
  ) {}

  /** Before an event of `address` (ledger key `key`) at `ts`: its boundaries up to `ts`. */
  before(state: LedgerState, key: string, address: string, ts: number): void {
    const next = this.next.get(address) ?? this.first;
    if (ts >= next && next <= this.last) this.upTo(state, key, address, ts);
  }

  /** After an event (not a reward or rebate) of `address` at `ts`. */
  after(address: string, ts: number): void {
    this.lastEvent.set(address, ts);
  }

  /** Every wallet's boundaries up to `until`. */
  finish(state: LedgerState, wallets: Iterable<{ address: string; key: string }>, until: number): void {
    for (const { address, key } of wallets) this.upTo(state, key, address, until);
  }

  private upTo(state: LedgerState, key: string, address: string, until: number): void {
    const from = this.next.get(address) ?? this.first;
    const to = Math.min(until, this.last);
    if (to < from) return;
    this.next.set(address, to - (to % HOUR) + HOUR);
    const book = state.wallet(key);
    if (!book) return;
    const lastEventTs = this.lastEvent.get(address) ?? this.lastEventBefore(address);
    for (const row of hourlyPoints(state, book, address, from, to - (to % HOUR), lastEventTs, this.prices))
      this.points.push(row);
  }
}

/** What LiveHours reads of the Deriver's ledger. */
export interface LiveLedger {
  readonly state: LedgerState;
  keyOf(address: string): string;
  lastEventTs(address: string): number;
  holdersOf(conditionId: string): Iterable<string>;
  resolvedBetween(from: number, to: number): Iterable<string>;
}

/**
 * The Deriver's hourly points as events come in chain order: before the first event at or after a boundary, the
 * points of every wallet that had an event in the hour before, or holds a position in a market traded or resolved
 * in it. Points wait in `pending` until the refresh writes them.
 */
export class LiveHours {
  pending: PnlPointRow[] = [];
  /** Wallets with an event since the last boundary. */
  private readonly moved: Set<string>;

  constructor(
    readonly prices: PriceHistory,
    /** The next boundary to take. */
    private next: number,
    moved: Iterable<string>,
    private readonly keptDays: number,
  ) {
    this.moved = new Set(moved);
  }

  /** The last boundary taken. */
  get lastTaken(): number {
    return this.next - HOUR;
  }

  /** Takes the boundaries up to `ts` (the time of the event about to be applied); `now` sets the kept window. */
  upTo(ledger: LiveLedger, ts: number, now: number): void {
    while (this.next <= ts) {
      const at = this.next;
      const first = firstKeptBoundary(now, this.keptDays);
      this.prices.moveWindow(first - HOUR);
      if (at >= first) this.take(ledger, at);
      this.moved.clear();
      this.next += HOUR;
    }
  }

  /** Whether a boundary of the kept window after `ts` has been taken already (an event at `ts` comes too late for it). */
  taken(ts: number, now: number): boolean {
    const last = this.lastTaken;
    return ts < last && last >= firstKeptBoundary(now, this.keptDays);
  }

  /** An event of `address` (not a reward or rebate) was applied. */
  eventApplied(address: string): void {
    this.moved.add(address);
  }

  /** Drops the pending points of these wallets (derived again: their points are rewritten whole). */
  forget(wallets: ReadonlySet<string>): void {
    if (wallets.size > 0) this.pending = this.pending.filter((row) => !wallets.has(row.wallet));
  }

  private take(ledger: LiveLedger, at: number): void {
    const candidates = new Set(this.moved);
    for (const conditionId of this.prices.marketsTradedIn(at - HOUR))
      for (const address of ledger.holdersOf(conditionId)) candidates.add(address);
    for (const conditionId of ledger.resolvedBetween(at - HOUR, at))
      for (const address of ledger.holdersOf(conditionId)) candidates.add(address);
    for (const address of candidates) {
      const book = ledger.state.wallet(ledger.keyOf(address));
      if (book)
        for (const row of hourlyPoints(ledger.state, book, address, at, at, ledger.lastEventTs(address), this.prices))
          this.pending.push(row);
    }
  }
}
