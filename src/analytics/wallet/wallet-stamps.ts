/**
 * What a wallet's kept answers were computed from, read per request by one indexed row each (remembered on SQLite
 * while the store is unchanged: src/store/stamp-reads.ts), so that an answer kept serialized is sent again only
 * while its inputs are unchanged: a new fill of the wallet (its latest fill), or a
 * write of its ledger rows (the Deriver writes a wallet's positions in the transaction that writes its statistics).
 */
import type { Store } from "../../store/database.js";
import { textPerStore } from "../../store/fill-layout.js";
import { latestFillSql } from "../../store/fills.js";
import { marketDailyPricesStamp } from "../../store/market-daily-prices.js";
import { stampRow, stampRows } from "../../store/stamp-reads.js";

/** The wallet's latest fill (by time, then as stored): moves with each fill stored after the others. */
export function fillsStamp(store: Store, wallet: string): Promise<string> {
  return latestFillStamp(store, "wallet", wallet);
}

/** The wallet's statistics row as last written: moves with each write of its positions and statistics. */
export async function ledgerStamp(store: Store, wallet: string): Promise<string> {
  const row = await stampRow<Parameters<typeof statsRowStamp>[0]>(store, LEDGER_STAMP, [wallet]);
  return row ? statsRowStamp(row) : "none";
}

const LEDGER_STAMP =
  "select computed_at, total_trades, total_pnl, realized_pnl, active_count, positions_digest from wallet_stats where wallet = ?";

/**
 * The stamp of a wallet_stats row: its figures, and the digest of the positions written with it (which moves with
 * a write of the positions that leaves the figures and, within a second, `computed_at` as they were).
 */
export function statsRowStamp(row: {
  computed_at: number;
  total_trades: number;
  total_pnl: number;
  realized_pnl: number;
  active_count: number;
  positions_digest: number;
}): string {
  return `${row.computed_at}:${row.total_trades}:${row.total_pnl}:${row.realized_pnl}:${row.active_count}:${row.positions_digest}`;
}

/**
 * The wallet's latest fill and its statistics row: the first moves with each new fill of the wallet, the second once
 * the Deriver has counted any fill stored since (a late one older than the latest included).
 */
export async function walletFillsStamp(store: Store, wallet: string): Promise<string> {
  const [fills, ledger] = await Promise.all([fillsStamp(store, wallet), ledgerStamp(store, wallet)]);
  return `${fills}|${ledger}`;
}

/**
 * What a wallet's open positions answer was computed from: its ledger rows and its venue sync (the price overlay,
 * applied while the sync is at most `freshSeconds` old), with the first second at which the overlay goes stale.
 */
export async function positionsStamp(
  store: Store,
  wallet: string,
  now: number,
  freshSeconds: number,
): Promise<{ stamp: string; until: number }> {
  const [ledger, sync] = await Promise.all([ledgerStamp(store, wallet), readSyncStamp(store, wallet)]);
  const syncedAt = sync?.synced_at ?? null;
  const fresh = sync?.status === "ok" && syncedAt !== null && syncedAt >= now - freshSeconds;
  return {
    stamp: `${ledger}|${syncStampOf(sync)}`,
    until: fresh ? Number(syncedAt) + freshSeconds + 1 : Number.POSITIVE_INFINITY,
  };
}

/**
 * The wallet's venue sync as last written: a sync replaces the venue's positions, closed positions and P&L curve in
 * the transaction that writes this row (src/ingest/wallet-sync.ts), so answers read from those move with it.
 */
export async function venueSyncStamp(store: Store, wallet: string): Promise<string> {
  return syncStampOf(await readSyncStamp(store, wallet));
}

interface SyncStampRow {
  synced_at: number | null;
  status: string;
  updated_at: number;
  closed_positions_count: number;
}

const SYNC_STAMP = "select synced_at, status, updated_at, closed_positions_count from wallet_sync where wallet = ?";

function readSyncStamp(store: Store, wallet: string): Promise<SyncStampRow | undefined> {
  return stampRow<SyncStampRow>(store, SYNC_STAMP, [wallet]);
}

function syncStampOf(sync: SyncStampRow | undefined): string {
  return sync ? `${sync.status}:${sync.synced_at ?? "-"}:${sync.updated_at}:${sync.closed_positions_count}` : "-";
}

/** The market's latest fill (by time, then as stored): moves with each fill stored after the others. */
export function marketFillsStamp(store: Store, conditionId: string): Promise<string> {
  return latestFillStamp(store, "condition_id", conditionId);
}

/**
 * The market's latest fill and the fills its daily prices hold: the Deriver writes those after the fills are
 * stored, and an answer kept in between would otherwise miss them until the market's next fill.
 */
export async function marketTradesStamp(store: Store, conditionId: string): Promise<string> {
  const [fills, priced] = await Promise.all([
    marketFillsStamp(store, conditionId),
    marketDailyPricesStamp(store, conditionId),
  ]);
  return `${fills}|${priced}`;
}

/**
 * The wallet's fills in one market up to `at` inclusive (0: all): how many and the last stored. Fills are only ever
 * inserted, so any fill stored there since, late ones included (a Data API pass stores a window newest first), moves
 * it; fills after `at` do not. Read from the (wallet, condition_id, ts, id) index alone.
 */
export async function walletMarketFillsStamp(
  store: Store,
  wallet: string,
  conditionId: string,
  at: number,
): Promise<string> {
  // Plain text: compiling the query builder's form cost as much as the read (a stamp is read per request).
  const [row] = await stampRows<{ n: number; last: number | null }>(
    store,
    at > 0 ? `${WALLET_MARKET_COUNT} and ts <= ?` : WALLET_MARKET_COUNT,
    at > 0 ? [wallet, conditionId, at] : [wallet, conditionId],
  );
  return `${Number(row?.n ?? 0)}:${Number(row?.last ?? 0)}`;
}

const WALLET_MARKET_COUNT = "select count(*) as n, max(id) as last from fills where wallet = ? and condition_id = ?";

const LATEST_FILL = {
  wallet: textPerStore((kind) => latestFillSql(kind, "wallet", ["id", "ts"])),
  condition_id: textPerStore((kind) => latestFillSql(kind, "condition_id", ["id", "ts"])),
};

/** The latest fill of a wallet or a market, read through its (key, ts) index. */
async function latestFillStamp(store: Store, key: "wallet" | "condition_id", value: string): Promise<string> {
  const row = await stampRow<{ id: number; ts: number }>(store, LATEST_FILL[key][store.kind], [value]);
  return row ? `${row.id}@${row.ts}` : "none";
}
