/**
 * Per-wallet sync on demand: the venue's open positions, closed positions and lifetime P&L curve (each replaced
 * whole), and the wallet's activity. Activity is read oldest first from where the last sync stopped, in time
 * windows: when the offset ceiling cuts a window short, the next one starts at the newest row received, so a long
 * history is read to the end; only a single second holding more rows than the ceiling stays truncated. Rewards
 * and rebates are always stored; trades, splits, merges, redemptions and conversions only when fills come from
 * the Data API (with chain logs they are already stored, exactly, and only rewards and rebates are asked for). The
 * wallet_sync row keeps the counts and truncation flags that docs/METRICS.md's 95% rule needs, and from when the
 * venue lists the wallet's activity (`win_source` ledger).
 */
import type { NewActivity, NewFill } from "../store/fills.js";
import {
  readWalletSync,
  replaceVenueClosedPositions,
  replaceVenuePnlPoints,
  replaceVenuePositions,
  saveWalletSync,
  type NewVenueClosedPosition,
  type NewVenuePosition,
  type WalletSyncRow,
} from "../store/wallet-cache.js";
import type { WalletSighting } from "../store/wallets.js";
import {
  activityRecordOf,
  closedPositionRecordOf,
  fromMicro,
  isProtocolAddress,
  positionRecordOf,
  skippedRows,
  walletProfileOf,
  type DataActivityRow,
  type DataApiClient,
  type OffsetPaging,
  type PnlClient,
} from "../venue/index.js";
import type { SkippedRecord } from "./batch-writer.js";
import type { IngestContext } from "./context.js";
import { rowsOf } from "./data-api-trades.js";
import { SOURCES } from "./sources.js";

export interface WalletSyncOptions {
  /** Fills come from the Data API (no RPC URL): store the wallet's trades and on-chain activity from /activity too. */
  readonly storeTradesAndChainActivity: boolean;
  /** Closed positions read at most; beyond, the cache counts as truncated. */
  readonly maxClosedPositions: number;
}

const ON_CHAIN_TYPES = new Set(["SPLIT", "MERGE", "REDEEM", "CONVERSION"]);
/** What /activity adds to chain logs: only these are read when fills come from the chain. */
const INCOME_TYPES = ["REWARD", "MAKER_REBATE", "TAKER_REBATE"] as const;
const ADDRESS = /^0x[0-9a-f]{40}$/;

export class WalletSync {
  constructor(
    private readonly ctx: IngestContext,
    private readonly dataApi: DataApiClient,
    private readonly pnl: PnlClient,
    private readonly options: WalletSyncOptions,
  ) {}

  /** Syncs one wallet (lower-case 0x address) and returns its sync row. */
  async sync(address: string, signal?: AbortSignal): Promise<WalletSyncRow> {
    const wallet = address.toLowerCase();
    if (!ADDRESS.test(wallet)) throw new RangeError(`not a wallet address: ${address}`);
    if (isProtocolAddress(wallet)) throw new RangeError(`${wallet} is a venue contract, not a wallet`);
    const previous = await readWalletSync(this.ctx.store.db, wallet);
    const venueHistoryFrom = previous?.venue_history_from ?? (await this.firstActivity(wallet, signal));
    const activity = await this.syncActivity(wallet, previous, signal);
    const positions = await this.collect(this.dataApi.positions(wallet, {}, { signal }), Number.POSITIVE_INFINITY);
    const closed = await this.collect(
      this.dataApi.closedPositions(wallet, {}, { signal }),
      this.options.maxClosedPositions,
    );
    const curve = await this.pnl.curve(wallet, { signal });
    const now = this.ctx.clock.now();
    const skipped: SkippedRecord[] = [...positions.skipped, ...closed.skipped, ...skippedRows(curve.rejected)];
    const positionRows: NewVenuePosition[] = [];
    for (const [i, row] of positions.rows.entries()) {
      try {
        const p = positionRecordOf(row);
        positionRows.push({
          wallet,
          token_id: p.tokenId,
          condition_id: p.conditionId,
          outcome_index: p.outcomeIndex,
          size: p.sizeMicro,
          avg_price: fromMicro(p.avgPriceMicro),
          cur_price: fromMicro(p.curPriceMicro),
          initial_value: p.initialValueMicro,
          current_value: p.currentValueMicro,
          cash_pnl: p.cashPnlMicro,
          realized_pnl: p.realizedPnlMicro,
          total_bought: p.totalBoughtMicro,
          redeemable: p.redeemable ? 1 : 0,
          mergeable: p.mergeable ? 1 : 0,
          title: p.title,
          slug: p.slug,
          event_slug: p.eventSlug,
          synced_at: now,
        });
      } catch (error) {
        skipped.push(rangeSkip(error, `data-api /positions ${wallet} row ${i}`));
      }
    }
    const closedRows: NewVenueClosedPosition[] = [];
    for (const [i, row] of closed.rows.entries()) {
      try {
        const c = closedPositionRecordOf(row);
        closedRows.push({
          wallet,
          token_id: c.tokenId,
          condition_id: c.conditionId,
          outcome_index: c.outcomeIndex,
          avg_price: fromMicro(c.avgPriceMicro),
          cur_price: fromMicro(c.curPriceMicro),
          total_bought: c.totalBoughtMicro,
          realized_pnl: c.realizedPnlMicro,
          ts: c.timestamp,
          title: c.title,
          slug: c.slug,
          event_slug: c.eventSlug,
          synced_at: now,
        });
      } catch (error) {
        skipped.push(rangeSkip(error, `data-api /closed-positions ${wallet} row ${i}`));
      }
    }
    const row: WalletSyncRow = {
      wallet,
      synced_at: now,
      status: "ok",
      positions_count: positionRows.length,
      positions_truncated: positions.truncated ? 1 : 0,
      closed_positions_count: closedRows.length,
      closed_positions_truncated: closed.truncated ? 1 : 0,
      activity_count: await this.storedActivityCount(wallet),
      activity_truncated: activity.truncated ? 1 : 0,
      activity_cursor: activity.cursor,
      lifetime_pnl: curve.points.at(-1)?.pnlMicro ?? null,
      venue_history_from: venueHistoryFrom,
      last_error: null,
      updated_at: now,
    };
    await this.ctx.writer.commit({
      source: SOURCES.wallets,
      cursor: `wallet:${wallet}`,
      firstSyncDone: true,
      skipped,
      write: async (tx) => {
        await replaceVenuePositions(tx, wallet, positionRows);
        await replaceVenueClosedPositions(tx, wallet, closedRows);
        await replaceVenuePnlPoints(
          tx,
          wallet,
          curve.points.map((p) => ({ wallet, t: p.timestamp, pnl: p.pnlMicro })),
        );
        await saveWalletSync(tx.db, row);
      },
    });
    return row;
  }

  /**
   * From when the venue lists the wallet's activity: its oldest row (one row asked for), or now when it lists none;
   * null when that row is malformed. Where chain logs start no later, the store holds the wallet's whole history.
   */
  private async firstActivity(wallet: string, signal?: AbortSignal): Promise<number | null> {
    for await (const item of this.dataApi.activity(
      wallet,
      { sortBy: "TIMESTAMP", sortDirection: "ASC" },
      { pageSize: 1, signal },
    )) {
      if (item.type === "end") break;
      if (item.rows[0]) return item.rows[0].timestamp;
      if (item.rejected.length > 0) return null;
    }
    return this.ctx.clock.now();
  }

  private async collect<T>(
    paging: OffsetPaging<T>,
    max: number,
  ): Promise<{ rows: T[]; skipped: SkippedRecord[]; truncated: boolean }> {
    const rows: T[] = [];
    const skipped: SkippedRecord[] = [];
    for await (const item of paging) {
      if (item.type === "end") return { rows, skipped, truncated: item.truncated };
      rows.push(...item.rows);
      skipped.push(...skippedRows(item.rejected));
      if (rows.length + skipped.length >= max) return { rows, skipped, truncated: true };
    }
    return { rows, skipped, truncated: false };
  }

  /**
   * Activity since the last sync, window by window. The cursor is saved with the sync row at the end: a sync cut
   * short re-reads from the previous cursor next time, which stores nothing twice.
   */
  private async syncActivity(
    wallet: string,
    previous: WalletSyncRow | undefined,
    signal?: AbortSignal,
  ): Promise<{ truncated: boolean; cursor: number | null }> {
    let cursor = previous?.activity_cursor ?? null;
    for (;;) {
      const start = cursor;
      let truncated = false;
      const types = this.options.storeTradesAndChainActivity ? {} : { type: INCOME_TYPES };
      const paging = this.dataApi.activity(
        wallet,
        { sortBy: "TIMESTAMP", sortDirection: "ASC", ...types, ...(start === null ? {} : { start }) },
        { signal },
      );
      for await (const item of paging) {
        if (item.type === "end") {
          truncated = item.truncated;
          break;
        }
        for (const r of item.rows) cursor = Math.max(cursor ?? r.timestamp, r.timestamp);
        const rows = this.activityRows(wallet, item.rows, `data-api /activity ${wallet} offset ${item.offset}`);
        await this.ctx.writer.commit({
          source: SOURCES.wallets,
          cursor: `wallet:${wallet}`,
          fills: rows.fills,
          activity: rows.activity,
          sightings: rows.sightings,
          skipped: [...skippedRows(item.rejected), ...rows.skipped],
        });
      }
      if (!truncated) return { truncated: false, cursor };
      // The next window starts at the newest second received; one that cannot move past its first second is stuck.
      if (cursor === start) return { truncated: true, cursor };
    }
  }

  private async storedActivityCount(wallet: string): Promise<number> {
    const row = await this.ctx.store.db
      .selectFrom("wallet_activity")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("wallet", "=", wallet)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private activityRows(wallet: string, rows: readonly DataActivityRow[], origin: string) {
    const fills: NewFill[] = [];
    const activity: NewActivity[] = [];
    const sightings: WalletSighting[] = [];
    const skipped: SkippedRecord[] = [];
    rows.forEach((row, i) => {
      if (row.type === "TRADE") {
        if (!this.options.storeTradesAndChainActivity) return;
        if (row.asset === "" || row.side === "" || row.conditionId === "")
          return void skipped.push({ origin: `${origin} row ${i}`, reason: "a TRADE without asset, side or market" });
        const trade = rowsOf(
          [{ ...row, asset: row.asset, side: row.side, conditionId: row.conditionId }],
          `${origin} row ${i}`,
        );
        fills.push(...trade.fills);
        sightings.push(...trade.sightings);
        skipped.push(...trade.skipped);
        return;
      }
      if (ON_CHAIN_TYPES.has(row.type) && !this.options.storeTradesAndChainActivity) return;
      try {
        const a = activityRecordOf(row);
        activity.push({
          activity_key: `data:${a.txHash}:${wallet}:${a.type}:${a.tokenId ?? a.conditionId ?? ""}:${a.sizeMicro}:${a.usdcSizeMicro}`,
          source: "data_api",
          wallet,
          type: a.type as NewActivity["type"],
          condition_id: a.conditionId,
          token_id: a.tokenId,
          outcome_index: a.outcomeIndex,
          size: a.sizeMicro,
          usd: a.usdcSizeMicro,
          price: a.priceMicro === null ? 0 : fromMicro(a.priceMicro),
          ts: a.timestamp,
          tx_hash: a.txHash,
          log_index: null,
        });
        const profile = walletProfileOf(row);
        sightings.push({ address: wallet, ts: a.timestamp, ...profile });
      } catch (error) {
        skipped.push(rangeSkip(error, `${origin} row ${i}`));
      }
    });
    return { fills, activity, sightings, skipped };
  }
}

function rangeSkip(error: unknown, origin: string): SkippedRecord {
  if (!(error instanceof RangeError)) throw error;
  return { origin, reason: error.message };
}
