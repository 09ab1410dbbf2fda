/**
 * Chain records of markets Gamma does not list yet: a new market's first trades often reach the chain before its
 * listing. They are held in the store with the batch that read them (`unlisted_market_records`), so the chain cursor
 * moves on and nothing is lost, and moved to their tables once their market is known: every
 * INGEST_UNLISTED_RECHECK_SECONDS the held markets are looked up again (the store, which the markets sync fills,
 * then Gamma). A fill always belongs to one of the venue's markets and waits however long it takes; a split, merge,
 * redemption or resolution names only a condition, which another application of the ConditionalTokens contract may
 * own, so those are dropped after INGEST_UNLISTED_KEEP_DAYS.
 */
import { readCheckpoint } from "../store/checkpoints.js";
import type { NewActivity, NewFill } from "../store/fills.js";
import type { NewResolution, TokenFacts } from "../store/markets.js";
import {
  awaitedMarkets,
  dropHeldRecords,
  heldRecordsOf,
  releaseHeldRecords,
  type HeldRecord,
} from "../store/unlisted-records.js";
import { isProtocolAddress, type ChainFill } from "../venue/index.js";
import type { ActivityLog } from "./chain-rows.js";
import { chainActivityRow, chainFillRow } from "./chain-rows.js";
import { writeMarketRows, type IngestContext } from "./context.js";
import type { MarketDirectory } from "./market-directory.js";
import { emptyMarketRows, mergeMarketRows } from "./market-rows.js";

export interface UnlistedMarketsOptions {
  readonly recheckSeconds: number;
  readonly keepDays: number;
}

/** A held fill's row carries no market facts until its market is known. */
const NO_FACTS: TokenFacts = { conditionId: "", outcomeIndex: 0 };

/** A fill of an outcome token no listed market claims, to hold; null for a venue contract's own fill. */
export function heldFill(fill: ChainFill, ts: number): HeldRecord<NewFill> | null {
  if (isProtocolAddress(fill.wallet)) return null;
  const row = chainFillRow(fill, NO_FACTS, ts);
  return { key: row.fill_key, kind: "fill", marketKey: fill.tokenId, ts, row };
}

/** A split, merge or redemption of a condition no listed market has, to hold; null when a venue contract is its owner. */
export function heldActivity(log: ActivityLog & { conditionId: string }, ts: number): HeldRecord<NewActivity> | null {
  const row = chainActivityRow(log, ts, null);
  if (isProtocolAddress(row.wallet)) return null;
  return { key: row.activity_key, kind: "activity", marketKey: log.conditionId, ts, row };
}

export function heldResolution(row: NewResolution): HeldRecord<NewResolution> {
  return {
    key: `resolution:${row.condition_id}`,
    kind: "resolution",
    marketKey: row.condition_id,
    ts: row.resolved_at,
    row,
  };
}

export class UnlistedMarkets {
  private lastRecheck = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ctx: IngestContext,
    private readonly directory: MarketDirectory,
    private readonly source: string,
    private readonly options: UnlistedMarketsOptions,
  ) {}

  /** Moves the held records whose market is now known to their tables, when a recheck is due; returns how many. */
  async recheckIfDue(signal: AbortSignal): Promise<number> {
    const now = this.ctx.clock.now();
    if (now - this.lastRecheck < this.options.recheckSeconds) return 0;
    this.lastRecheck = now;
    const db = this.ctx.store.db;
    const dropped = await dropHeldRecords(db, ["activity", "resolution"], now - this.options.keepDays * 86_400);
    if (dropped > 0)
      this.ctx.logger.info(
        { source: this.source, dropped },
        "dropped chain records of conditions no venue market claimed in time",
      );
    const awaited = await awaitedMarkets(db);
    if (awaited.tokens.length + awaited.conditions.length === 0) return 0;
    this.directory.forgetUnknown(awaited.tokens, awaited.conditions);
    const tokens = await this.directory.tokenFacts(awaited.tokens, signal);
    const conditions = await this.directory.knownConditions(awaited.conditions, signal);
    const listed = [...tokens.found.keys(), ...conditions.found];
    if (listed.length === 0) return 0;
    const fills: NewFill[] = [];
    const activity: NewActivity[] = [];
    const resolutions: NewResolution[] = [];
    const held = await heldRecordsOf(db, listed);
    for (const record of held) {
      if (record.kind === "fill") {
        const facts = tokens.found.get(record.marketKey) as TokenFacts;
        fills.push({ ...(record.row as NewFill), condition_id: facts.conditionId, outcome_index: facts.outcomeIndex });
      } else if (record.kind === "activity") activity.push(record.row as NewActivity);
      else resolutions.push(record.row as NewResolution);
    }
    const marketRows = mergeMarketRows(mergeMarketRows(emptyMarketRows(), tokens.rows), conditions.rows);
    const checkpoint = await readCheckpoint(db, this.source);
    await this.ctx.writer.commit({
      source: this.source,
      cursor: checkpoint?.cursor ?? "",
      fills,
      activity,
      resolutions,
      skipped: marketRows.skipped,
      write: async (tx) => {
        await writeMarketRows(tx, marketRows);
        await releaseHeldRecords(
          tx,
          held.map((r) => r.key),
        );
      },
    });
    this.ctx.logger.info(
      { source: this.source, records: held.length, markets: listed.length },
      "stored chain records whose market is now listed",
    );
    return held.length;
  }
}
