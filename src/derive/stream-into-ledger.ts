/**
 * Applies a stream of stored rows (src/derive/event-stream.ts: the rows of one wallet together, in ledger order) to
 * a derivation: each row's event, its fill counts and prices, the hourly points around it, and at each wallet's end
 * its last applied order and the wash legs summed on the way.
 */
import type { LedgerEvent, LedgerState } from "../ledger/index.js";
import type { StreamCache, StreamedRow } from "./event-stream.js";
import type { FillCounts } from "./fill-counts.js";
import type { PriceHistory, StreamedHours } from "./hourly-points.js";
import { activityEvent, fillEvent, isIncomeType, type OrderKey } from "./stored-events.js";
import { WashLegs } from "./wash-legs.js";

export interface StreamOptions {
  /** Add each fill to the fill counts (rows seen for the first time). */
  readonly countMarkets: boolean;
  /** Sum wash legs while streaming, of every wallet whose legs are not deferred: its whole history is in the scope. */
  readonly washLegs: "all" | "none";
  /** Called with the natural key of each row read with its key (see `StreamScope.keysAbove`). */
  readonly onKey?: (key: string) => void;
  /** What the caller's streams share (a rebuild's many time ranges); a stream of its own by default. */
  readonly cache?: StreamCache;
}

/** What a stream writes to (a Derivation). */
export interface StreamTarget {
  readonly state: LedgerState;
  readonly fills: FillCounts;
  readonly prices: PriceHistory | null;
  readonly hours: StreamedHours | null;
  keyOf(address: string): string;
  observe(ts: number): void;
  placed(address: string, order: OrderKey): void;
  legsDeferred(address: string): boolean;
  setWashLegs(address: string, legs: WashLegs): void;
}

export class StreamIntoLedger {
  private wallet: string | null = null;
  private key = "";
  private last: StreamedRow | null = null;
  private legs = new WashLegs();
  private summingLegs = false;

  constructor(
    private readonly target: StreamTarget,
    private readonly options: StreamOptions,
  ) {}

  apply(streamed: StreamedRow): void {
    const { target, options } = this;
    const row = streamed.row;
    if (row.wallet !== this.wallet) this.nextWallet(row.wallet);
    const naturalKey = streamed.kind === 0 ? streamed.row.fill_key : streamed.row.activity_key;
    if (naturalKey !== "") options.onKey?.(naturalKey);
    let event: LedgerEvent | null;
    if (streamed.kind === 0) {
      const fill = streamed.row;
      event = fillEvent(fill);
      if (options.countMarkets) target.fills.add(fill, fill.id);
      if (this.summingLegs) this.legs.add(fill.counterparty, fill.token_id, fill.side, fill.size, fill.usd);
      target.prices?.observe(fill.token_id, fill.condition_id, fill.ts, fill.log_index, fill.usd, fill.size);
    } else {
      event = activityEvent(streamed.row);
    }
    const moves = streamed.kind === 0 || !isIncomeType(streamed.row.type);
    if (moves) {
      target.observe(row.ts);
      this.last = streamed;
      target.hours?.before(target.state, this.key, row.wallet, row.ts);
    }
    if (event) target.state.apply(this.key === row.wallet ? event : { ...event, wallet: this.key });
    if (moves) target.hours?.after(row.wallet, row.ts);
  }

  /** Ends the stream: the last wallet's order and wash share are recorded. */
  finish(): void {
    this.nextWallet(null);
  }

  private nextWallet(next: string | null): void {
    const { target } = this;
    if (this.wallet !== null) {
      const last = this.last;
      if (last) target.placed(this.wallet, { ts: last.row.ts, logIndex: last.row.log_index, kind: last.kind });
      if (this.summingLegs) target.setWashLegs(this.wallet, this.legs);
    }
    this.wallet = next;
    this.key = next === null ? "" : target.keyOf(next);
    this.last = null;
    this.summingLegs = next !== null && this.options.washLegs === "all" && !target.legsDeferred(next);
    this.legs = new WashLegs();
  }
}
