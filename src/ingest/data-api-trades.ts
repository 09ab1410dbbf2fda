/**
 * Market-wide fills from the Data API `/trades` (taker and maker rows, `takerOnly=false`) when no RPC URL is
 * configured. The list is newest first and /trades takes no time bounds, so ingest works in passes over time
 * windows: a pass stores every trade from the end of the previous pass (less an overlap for the venue's
 * indexing lag) up to the newest trade it saw at its start. It reads the market-wide list first; when the
 * offset ceiling cuts that short before the window's start, it narrows the listing to one market at a time, then
 * to one market and one side, and a listing that is still cut short is logged and counted as truncated (the
 * venue will not hand out those trades). Rows are keyed `data:<tx>:<wallet>:<asset>:<side>:<size>:<price>`.
 */
import { readCheckpoint } from "../store/checkpoints.js";
import type { NewFill } from "../store/fills.js";
import type { WalletSighting } from "../store/wallets.js";
import {
  fillFromDataTrade,
  fromMicro,
  skippedRows,
  walletProfileOf,
  type ApiFill,
  type DataApiClient,
  type DataTradeRow,
  type TradesQuery,
} from "../venue/index.js";
import type { SkippedRecord } from "./batch-writer.js";
import type { IngestContext } from "./context.js";
import type { Pipeline, StepResult } from "./runner.js";
import { SOURCES } from "./sources.js";

/** The natural key of a fill from the Data API or the live feed (docs/METRICS.md). */
export function apiFillKey(
  fill: Pick<ApiFill, "txHash" | "wallet" | "tokenId" | "direction" | "sizeMicro" | "priceMicro">,
): string {
  return `data:${fill.txHash}:${fill.wallet}:${fill.tokenId}:${fill.direction}:${fill.sizeMicro}:${fill.priceMicro}`;
}

export function apiFillRow(fill: ApiFill): NewFill {
  return {
    fill_key: apiFillKey(fill),
    source: "data_api",
    tx_hash: fill.txHash,
    log_index: null,
    block_number: null,
    wallet: fill.wallet,
    counterparty: null,
    role: null,
    condition_id: fill.conditionId,
    token_id: fill.tokenId,
    outcome_index: fill.outcomeIndex,
    side: fill.direction,
    size: fill.sizeMicro,
    usd: fill.usdMicro,
    price: fromMicro(fill.priceMicro),
    fee: fill.feeMicro ?? 0,
    ts: fill.timestamp,
    entry_type: null,
    exchange_version: null,
  };
}

interface Pass {
  /** Oldest timestamp the pass must reach (null: as far back as the venue goes). */
  readonly lower: number | null;
  /** Newest timestamp seen when the pass began. */
  readonly upper: number;
  readonly scope: "all" | "markets";
  /** Markets scope: the last condition id done (they go in order). */
  readonly after: string | null;
}

interface TradesCursor {
  /** Every trade up to this timestamp is stored (as far as the venue hands them out). */
  readonly through: number | null;
  readonly pass: Pass | null;
}

export interface DataApiTradesOptions {
  /** How far back the first pass reaches (unix seconds; INGEST_START); null: as far back as the venue hands out. */
  readonly startTs: number | null;
  /** Seconds each pass re-reads before the previous one's end. Default 600. */
  readonly overlapSeconds?: number;
  /** Rows per /trades page. Default 1000. */
  readonly pageSize?: number;
}

type Listing = "complete" | "truncated";

export class DataApiTradesPipeline implements Pipeline {
  readonly source = SOURCES.dataApiTrades;
  private readonly overlap: number;
  private readonly pageSize: number;

  constructor(
    private readonly ctx: IngestContext,
    private readonly dataApi: DataApiClient,
    private readonly options: DataApiTradesOptions,
  ) {
    this.overlap = options.overlapSeconds ?? 600;
    this.pageSize = options.pageSize ?? 1_000;
  }

  async step(signal: AbortSignal): Promise<StepResult> {
    const text = (await readCheckpoint(this.ctx.store.db, this.source))?.cursor;
    const cursor: TradesCursor = text ? (JSON.parse(text) as TradesCursor) : { through: null, pass: null };
    const pass = cursor.pass ?? (await this.startPass(cursor, signal));
    if (pass.scope === "all") {
      const listing = await this.storeListing({ takerOnly: false }, pass, cursor, signal);
      if (listing === "complete") return this.finishPass(pass);
      await this.save({ ...cursor, pass: { ...pass, scope: "markets", after: null } });
      return { caughtUp: false };
    }
    const market = await this.nextMarket(pass);
    if (market === null) return this.finishPass(pass);
    // Pages of this market are written with the cursor still before it: a restart redoes the whole market.
    const current: TradesCursor = { ...cursor, pass };
    const truncated: SkippedRecord[] = [];
    if ((await this.storeListing({ takerOnly: false, market: [market] }, pass, current, signal)) === "truncated") {
      for (const side of ["BUY", "SELL"] as const) {
        if (
          (await this.storeListing({ takerOnly: false, market: [market], side }, pass, current, signal)) === "truncated"
        ) {
          const reason = `market ${market} ${side}: the offset ceiling cut the list before ${pass.lower ?? "its start"}; older trades are not available from the Data API`;
          truncated.push({ origin: "data-api /trades", reason });
        }
      }
    }
    await this.save({ ...cursor, pass: { ...pass, after: market } }, truncated);
    this.ctx.progress({
      source: this.source,
      newFills: 0,
      position: await this.marketsBefore(pass, market),
      target: await this.marketsBefore(pass, null),
      unit: "market",
    });
    return { caughtUp: false };
  }

  private async startPass(cursor: TradesCursor, signal: AbortSignal): Promise<Pass> {
    let upper = cursor.through ?? 0;
    for await (const item of this.dataApi.trades({ takerOnly: false }, { pageSize: 1, signal })) {
      if (item.type === "page") upper = Math.max(upper, ...item.rows.map((r) => r.timestamp));
      break;
    }
    const lower = cursor.through !== null ? cursor.through - this.overlap : this.options.startTs;
    const pass: Pass = { lower, upper, scope: "all", after: null };
    await this.save({ ...cursor, pass });
    return pass;
  }

  private async finishPass(pass: Pass): Promise<StepResult> {
    await this.save({ through: pass.upper, pass: null }, [], true);
    return { caughtUp: true };
  }

  private save(cursor: TradesCursor, skipped: SkippedRecord[] = [], firstSyncDone?: boolean) {
    return this.ctx.writer.commit({ source: this.source, cursor: JSON.stringify(cursor), skipped, firstSyncDone });
  }

  /** Stores one listing newest first down to the pass's lower bound; says whether the ceiling stopped it first. */
  private async storeListing(
    query: TradesQuery,
    pass: Pass,
    cursor: TradesCursor,
    signal: AbortSignal,
  ): Promise<Listing> {
    for await (const item of this.dataApi.trades(query, { pageSize: this.pageSize, signal })) {
      if (item.type === "end") return item.truncated ? "truncated" : "complete";
      const inWindow = item.rows.filter((r) => pass.lower === null || r.timestamp >= pass.lower);
      const { fills, sightings, skipped } = rowsOf(inWindow, `data-api /trades offset ${item.offset}`);
      const committed = await this.ctx.writer.commit({
        source: this.source,
        cursor: JSON.stringify(cursor),
        fills,
        sightings,
        skipped: [...skippedRows(item.rejected), ...skipped],
      });
      this.ctx.progress({ source: this.source, newFills: committed.fills.length });
      if (inWindow.length < item.rows.length) return "complete";
    }
    return "complete";
  }

  /** The next market (by condition id) that could have traded inside the pass's window. */
  private async nextMarket(pass: Pass): Promise<string | null> {
    let query = this.ctx.store.db.selectFrom("markets").select("condition_id").orderBy("condition_id").limit(1);
    if (pass.after !== null) query = query.where("condition_id", ">", pass.after);
    if (pass.lower !== null) {
      const lower = pass.lower;
      query = query.where((eb) => eb.or([eb("closed_time", "is", null), eb("closed_time", ">=", lower)]));
    }
    return (await query.executeTakeFirst())?.condition_id ?? null;
  }

  private async marketsBefore(pass: Pass, until: string | null): Promise<number> {
    let query = this.ctx.store.db.selectFrom("markets").select((eb) => eb.fn.countAll<number>().as("n"));
    if (until !== null) query = query.where("condition_id", "<=", until);
    if (pass.lower !== null) {
      const lower = pass.lower;
      query = query.where((eb) => eb.or([eb("closed_time", "is", null), eb("closed_time", ">=", lower)]));
    }
    return Number((await query.executeTakeFirst())?.n ?? 0);
  }
}

/** Fill rows and wallet profiles of /trades rows (or RTDS trades); a row whose amounts do not convert is skipped. */
export function rowsOf(
  rows: readonly DataTradeRow[],
  origin: string,
): { fills: NewFill[]; sightings: WalletSighting[]; skipped: SkippedRecord[] } {
  const fills: NewFill[] = [];
  const sightings: WalletSighting[] = [];
  const skipped: SkippedRecord[] = [];
  rows.forEach((row, i) => {
    try {
      const fill = apiFillRow(fillFromDataTrade(row));
      fills.push(fill);
      const profile = walletProfileOf(row);
      sightings.push({ address: profile.wallet, ts: fill.ts, ...profile });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      skipped.push({ origin: `${origin} row ${i}`, reason: error.message });
    }
  });
  return { fills, sightings, skipped };
}
