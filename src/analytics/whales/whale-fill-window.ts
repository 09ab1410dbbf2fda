/**
 * One API process's copy of the smart whales' fills of the last 48 hours, in memory, so that the whale alerts,
 * their summary and the recent whale trades answer without a query: a window of the feed filtered per request
 * costs microseconds, where walking the fills' time index and looking up each wallet costs milliseconds on a large
 * store (docs/decisions.md, "The alerts feed in memory").
 *
 * The copy is brought up to date when a request finds it older than WHALE_ALERTS_REFRESH_SECONDS (the request
 * waits; concurrent ones share the update): fills stored since (by row id, which grows in insert order) are added
 * when their wallet is a smart whale, and when the statistics were rewritten the fills of wallets that left the
 * Smart Money list are dropped and those of wallets that joined it read (by the fills' wallet index).
 */
import { inSlices, placeholders, queryRows } from "../../store/raw-sql.js";
import { FILL_ENDS } from "../../store/fills.js";
import type { Direction, EntryType } from "../../store/schema.js";
import type { Roster, RosterCopyDeps } from "./smart-roster.js";
import { yieldToLoop } from "../../platform/yield-to-loop.js";

/** How far back the copy reaches from the clock: the summary compares two windows of up to 24 h. */
export const WINDOW_SECONDS = 48 * 3_600;
/** Rows read per query while catching up, with the event loop free in between (SQLite reads block it). */
const PAGE_ROWS = 5_000;
/** Wallets per query when reading the fills of wallets that joined the list. */
const WALLETS_PER_QUERY = 200;

/** A stored fill as the copy keeps it (amounts in micro-units, as stored). */
export interface WhaleFill {
  id: number;
  ts: number;
  wallet: string;
  condition_id: string;
  outcome_index: number;
  side: Direction;
  price: number;
  size: number;
  usd: number;
  tx_hash: string;
  entry_type: EntryType | null;
  role: "maker" | "taker" | null;
}

export const FILL_COLUMNS =
  "f.id, f.ts, f.wallet, f.condition_id, f.outcome_index, f.side, f.price, f.size, f.usd, f.tx_hash, f.entry_type, f.role";

export interface WindowView {
  /** Oldest first: by ts, then id. */
  readonly fills: readonly WhaleFill[];
  readonly roster: Roster;
  /** The clock when the copy was last brought up to date. */
  readonly asOf: number;
  /** Fills with ts above this are all in the copy (the clock at the update, less 48 h). */
  readonly coversAfter: number;
}

const byTsThenId = (a: WhaleFill, b: WhaleFill) => a.ts - b.ts || a.id - b.id;

/** Index of the first fill with ts > `ts` (the fills being sorted by ts). */
export function firstAfter(fills: readonly WhaleFill[], ts: number): number {
  let lo = 0;
  let hi = fills.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (fills[mid]!.ts <= ts) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class WhaleFillWindow {
  private fills: WhaleFill[] = [];
  private lastId = 0;
  private roster: Roster | null = null;
  private asOf = Number.NEGATIVE_INFINITY;
  private updating: Promise<void> | null = null;
  private epoch = 0;

  constructor(
    private readonly deps: RosterCopyDeps,
    private readonly refreshSeconds: number,
  ) {}

  /** The copy, brought up to date first when it is older than the refresh interval (the first call loads it). */
  async current(): Promise<WindowView> {
    const now = this.deps.clock.now();
    if (!this.roster || now - this.asOf >= this.refreshSeconds || now < this.asOf) {
      if (!this.updating) {
        const updating: Promise<void> = this.update(now).finally(() => {
          if (this.updating === updating) this.updating = null;
        });
        this.updating = updating;
      }
      await this.updating;
    }
    return { fills: this.fills, roster: this.roster!, asOf: this.asOf, coversAfter: this.asOf - WINDOW_SECONDS };
  }

  /** Drops the copy (readiness turned on): the next call loads it again. */
  forget(): void {
    this.epoch++;
    this.fills = [];
    this.lastId = 0;
    this.roster = null;
    this.updating = null;
  }

  private async update(now: number): Promise<void> {
    const epoch = this.epoch;
    const roster = await this.deps.roster.latest();
    const coversAfter = now - WINDOW_SECONDS;
    let fills = this.fills;
    let lastId = this.lastId;
    if (!this.roster) lastId = await this.maxFillId();
    if (this.roster?.generation !== roster.generation) {
      const before = this.roster?.whales ?? new Map();
      if ([...before.keys()].some((w) => !roster.whales.has(w)))
        fills = fills.filter((f) => roster.whales.has(f.wallet));
      const joined = [...roster.whales.keys()].filter((w) => !before.has(w));
      if (joined.length > 0)
        fills = [...fills, ...(await this.fillsOfWallets(joined, coversAfter, lastId))].sort(byTsThenId);
    }
    const added: WhaleFill[] = [];
    for (;;) {
      const page = await queryRows<WhaleFill>(
        this.deps.store.db,
        this.deps.store.kind,
        `select ${FILL_COLUMNS} from fills f where f.id > ? order by f.id limit ${PAGE_ROWS}`,
        [lastId],
      );
      for (const row of page) if (row.ts > coversAfter && roster.whales.has(row.wallet)) added.push(numeric(row));
      if (page.length > 0) lastId = Number(page[page.length - 1]!.id);
      if (page.length < PAGE_ROWS) break;
      await yieldToLoop();
    }
    if (added.length > 0) {
      const last = fills[fills.length - 1];
      added.sort(byTsThenId);
      fills = !last || byTsThenId(last, added[0]!) < 0 ? [...fills, ...added] : [...fills, ...added].sort(byTsThenId);
    }
    const stale = firstAfter(fills, coversAfter);
    if (stale > 0) fills = fills.slice(stale);
    if (epoch !== this.epoch) return;
    this.fills = fills;
    this.lastId = lastId;
    this.roster = roster;
    this.asOf = now;
  }

  private async maxFillId(): Promise<number> {
    const [row] = await queryRows<{ id: number | null }>(
      this.deps.store.db,
      this.deps.store.kind,
      `select ${FILL_ENDS.lastId} as id`,
    );
    return Number(row?.id ?? 0);
  }

  /** The fills of these wallets after `after`, stored up to row `lastId` (later ones come with the next pages). */
  private fillsOfWallets(wallets: readonly string[], after: number, lastId: number): Promise<WhaleFill[]> {
    return inSlices(
      wallets,
      async (slice) => {
        const rows = await queryRows<WhaleFill>(
          this.deps.store.db,
          this.deps.store.kind,
          `select ${FILL_COLUMNS} from fills f where f.wallet in ${placeholders(slice.length)} and f.ts > ? and f.id <= ?`,
          [...slice, after, lastId],
        );
        await yieldToLoop();
        return rows.map(numeric);
      },
      WALLETS_PER_QUERY,
    );
  }
}

/** A fill row with its numbers as numbers (PostgreSQL answers bigint columns as text). */
export function numeric<T extends WhaleFill>(row: T): T {
  return Object.assign({}, row, {
    id: Number(row.id),
    ts: Number(row.ts),
    outcome_index: Number(row.outcome_index),
    price: Number(row.price),
    size: Number(row.size),
    usd: Number(row.usd),
  });
}
