/**
 * Markets and events from Gamma. First a full sync: every open event, then every closed one, through
 * `/events/keyset`, one committed page at a time (the checkpoint holds the phase and the keyset cursor, so a
 * restart resumes mid-walk). Then incremental rounds: the open markets again (prices, volumes, new markets),
 * the stored open markets that left that list (now closed), and the closed markets still awaiting resolution.
 */
import { readCheckpoint } from "../store/checkpoints.js";
import { skippedRows, type GammaClient } from "../venue/index.js";
import type { IngestContext } from "./context.js";
import { writeMarketRows } from "./context.js";
import { addEvents, addMarkets, emptyMarketRows, type MarketRows } from "./market-rows.js";
import type { Pipeline, StepResult } from "./runner.js";
import { SOURCES } from "./sources.js";

type Phase = "open" | "closed" | "incremental";

interface MarketsCursor {
  readonly phase: Phase;
  /** Keyset cursor of the next events page (full sync only). */
  readonly after: string | null;
}

function parseCursor(text: string | undefined): MarketsCursor {
  if (!text) return { phase: "open", after: null };
  const parsed = JSON.parse(text) as MarketsCursor;
  return { phase: parsed.phase, after: parsed.after ?? null };
}

export interface MarketsSyncOptions {
  /** Events or markets per Gamma page. Default 500 (Gamma's maximum). */
  readonly pageSize?: number;
  /** Markets re-read by condition id per round (left the open list, or awaiting resolution). Default 1000. */
  readonly refreshLimit?: number;
}

export class MarketsSync implements Pipeline {
  readonly source = SOURCES.markets;
  private readonly pageSize: number;
  private readonly refreshLimit: number;

  constructor(
    private readonly ctx: IngestContext,
    private readonly gamma: GammaClient,
    options: MarketsSyncOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 500;
    this.refreshLimit = options.refreshLimit ?? 1_000;
  }

  async step(signal: AbortSignal): Promise<StepResult> {
    const cursor = parseCursor((await readCheckpoint(this.ctx.store.db, this.source))?.cursor);
    if (cursor.phase === "incremental") {
      await this.refresh(signal);
      return { caughtUp: true };
    }
    return this.fullSyncPage(cursor, signal);
  }

  private async fullSyncPage(cursor: MarketsCursor, signal: AbortSignal): Promise<StepResult> {
    const now = this.ctx.clock.now();
    const rows = emptyMarketRows();
    let next: string | null = null;
    for await (const item of this.gamma.events(
      { closed: cursor.phase === "closed" },
      { pageSize: this.pageSize, startCursor: cursor.after, signal },
    )) {
      if (item.type !== "page") break;
      addEvents(rows, item.rows, `gamma /events/keyset closed=${cursor.phase === "closed"}`, now);
      rows.skipped.push(...skippedRows(item.rejected));
      next = item.rows.length + item.rejected.length > 0 ? item.nextCursor : null;
      break;
    }
    const after: MarketsCursor =
      next !== null
        ? { phase: cursor.phase, after: next }
        : cursor.phase === "open"
          ? { phase: "closed", after: null }
          : { phase: "incremental", after: null };
    await this.commit(rows, after, after.phase === "incremental");
    return { caughtUp: after.phase === "incremental" };
  }

  private async commit(rows: MarketRows, cursor: MarketsCursor, firstSyncDone?: boolean): Promise<void> {
    await this.ctx.writer.commit({
      source: this.source,
      cursor: JSON.stringify(cursor),
      firstSyncDone,
      skipped: rows.skipped,
      write: (tx) => writeMarketRows(tx, rows),
    });
  }

  /** One incremental round. */
  private async refresh(signal: AbortSignal): Promise<void> {
    const incremental: MarketsCursor = { phase: "incremental", after: null };
    const seen = new Set<string>();
    for await (const item of this.gamma.markets(
      { closed: false, order: "id", ascending: true },
      { pageSize: this.pageSize, signal },
    )) {
      if (item.type !== "page") continue;
      const rows = emptyMarketRows();
      addMarkets(rows, item.rows, `gamma /markets offset ${item.offset}`, this.ctx.clock.now());
      rows.skipped.push(...skippedRows(item.rejected));
      for (const m of rows.markets) seen.add(m.condition_id);
      await this.commit(rows, incremental);
    }
    const db = this.ctx.store.db;
    const leftOpenList = (await db.selectFrom("markets").select("condition_id").where("closed", "=", 0).execute())
      .map((r) => r.condition_id)
      .filter((c) => !seen.has(c));
    const awaitingResolution = (
      await db
        .selectFrom("markets")
        .select("condition_id")
        .where("closed", "=", 1)
        .where("resolution", "is", null)
        .orderBy("updated_at")
        .limit(this.refreshLimit)
        .execute()
    ).map((r) => r.condition_id);
    const stale = [...new Set([...leftOpenList.slice(0, this.refreshLimit), ...awaitingResolution])];
    if (stale.length === 0) return;
    const page = await this.gamma.marketsByConditionIds(stale, { signal });
    const rows = emptyMarketRows();
    addMarkets(rows, page.rows, "gamma /markets condition_ids", this.ctx.clock.now());
    rows.skipped.push(...skippedRows(page.rejected));
    await this.commit(rows, incremental);
  }
}
