/**
 * What a wallet's statistics read from the store besides its fills: the venue's synced closed positions and
 * lifetime P&L (docs/METRICS.md's 95% rule and total_pnl), the P&L point pnl_24h compares with, and the legs of its
 * fills with each counterparty for the wash-trading test.
 */
import {
  summarizeVenueClosedPositions,
  type LedgerConfig,
  type PnlPoint,
  type VenueClosedPositions,
} from "../ledger/index.js";
import { chainHistoryFrom, holdsWholeHistory } from "../store/checkpoints.js";
import type { Direction } from "../store/schema.js";
import { fillCodeSql } from "../store/fill-codes.js";
import { codeTextSql, FILL_CODES, FILL_DICTIONARIES, FILL_ROWS } from "../store/fill-layout.js";
import { inSlices, placeholders, queryRows } from "../store/raw-sql.js";
import { walletIdsOf } from "../store/id-keyed.js";
import { seriesPointsAt } from "../store/pnl-series.js";
import type { HourlyPointColumns } from "./hourly-points.js";
import type { Store } from "../store/database.js";
import { readRingVolumes } from "./replay-reads.js";
import { WashLegs } from "./wash-legs.js";
import { fromMicro } from "../venue/units.js";

export interface WalletStoreInputs {
  /** The venue cache's closed positions; null when the wallet was never synced. */
  readonly venueClosed: VenueClosedPositions | null;
  /**
   * The store holds the wallet's whole history: chain logs are read from no later than the venue's first record of
   * the wallet (its first activity, learned by a wallet sync).
   */
  readonly historyComplete: boolean;
  /** The last point of the venue's P&L curve, USD; null when not synced or empty. */
  readonly venueLifetimePnl: number | null;
  /** The latest P&L point at least 24 h old, from the same source as total_pnl (empty when none). */
  readonly pnlPoints: readonly PnlPoint[];
}

const NOT_SYNCED: WalletStoreInputs = {
  venueClosed: null,
  historyComplete: false,
  venueLifetimePnl: null,
  pnlPoints: [],
};

/** A wallet list, or every wallet with stored inputs. */
export type WalletSelection = readonly string[] | "all";

/** Runs `text` for the selection: its wallets placeholder comment becomes a condition on `walletColumn` (or nothing, for all). */
async function selectFor<T>(
  store: Store,
  text: string,
  params: readonly unknown[],
  wallets: WalletSelection,
  walletColumn = "wallet",
): Promise<T[]> {
  if (wallets === "all") return queryRows<T>(store.db, store.kind, text.replace("/*wallets*/", ""), params);
  return inSlices(wallets, (slice) =>
    queryRows<T>(
      store.db,
      store.kind,
      text.replace("/*wallets*/", ` and ${walletColumn} in ${placeholders(slice.length)}`),
      [...params, ...slice],
    ),
  );
}

/** The latest point at or before `cutoff` per wallet of a series: our hourly points, or the venue's curve (micro-USD). */
async function latestPoints(
  store: Store,
  series: "hour" | "venue",
  cutoff: number,
  wallets: WalletSelection,
): Promise<Map<string, PnlPoint>> {
  const points = await seriesPointsAt(store, series, wallets, cutoff);
  const scale = series === "venue" ? fromMicro : (usd: number) => usd;
  return new Map([...points].map(([wallet, { t, pnl }]) => [wallet, { t, p: scale(pnl) }]));
}

/**
 * The store inputs of the given wallets (or all) as of `asOf`; wallets without any get the not-synced inputs.
 * `hourlyPoints`: the ledger's hourly points to read instead of the stored ones (a rebuild's, before it writes them).
 */
export async function loadWalletInputs(
  store: Store,
  wallets: WalletSelection,
  asOf: number,
  options: {
    /** The ledger's hourly points to read instead of the stored ones (a rebuild's, before it writes them). */
    hourlyPoints?: HourlyPointColumns;
    /** VENUE_HISTORY_START: a chain history from no later holds every wallet's whole history. */
    venueHistoryStart?: number;
  } = {},
): Promise<(wallet: string) => WalletStoreInputs> {
  const { hourlyPoints, venueHistoryStart } = options;
  const synced = await selectFor<{ wallet: string; lifetime_pnl: number | null; venue_history_from: number | null }>(
    store,
    "select wallet, lifetime_pnl, venue_history_from from wallet_sync where synced_at is not null/*wallets*/",
    [],
    wallets,
  );
  const chainFrom = await chainHistoryFrom(store.db);
  const everyHistoryComplete = holdsWholeHistory(chainFrom, venueHistoryStart);
  const unsynced: WalletStoreInputs = everyHistoryComplete ? { ...NOT_SYNCED, historyComplete: true } : NOT_SYNCED;
  const closedRows = await selectFor<{ wallet: string; realized_pnl: number }>(
    store,
    "select wallet, realized_pnl from venue_closed_positions where 1 = 1/*wallets*/",
    [],
    wallets,
  );
  const closedByWallet = new Map<string, { realizedPnl: number }[]>();
  for (const row of closedRows) {
    let list = closedByWallet.get(row.wallet);
    if (!list) closedByWallet.set(row.wallet, (list = []));
    list.push({ realizedPnl: fromMicro(row.realized_pnl) });
  }
  const cutoff = asOf - 86_400;
  const ours = hourlyPoints
    ? hourlyPoints.latestAtOrBefore(cutoff)
    : await latestPoints(store, "hour", cutoff, wallets);
  const venue = await latestPoints(store, "venue", cutoff, wallets);
  const inputs = new Map<string, WalletStoreInputs>();
  for (const [wallet, point] of ours) inputs.set(wallet, Object.assign({}, unsynced, { pnlPoints: [point] }));
  for (const row of synced) {
    const lifetime = row.lifetime_pnl === null ? null : fromMicro(row.lifetime_pnl);
    // pnl_24h compares total_pnl with a point of the same source.
    const point = lifetime === null ? ours.get(row.wallet) : venue.get(row.wallet);
    const historyComplete =
      everyHistoryComplete ||
      (chainFrom !== null && row.venue_history_from !== null && Number(row.venue_history_from) >= chainFrom);
    inputs.set(row.wallet, {
      venueClosed: summarizeVenueClosedPositions(closedByWallet.get(row.wallet) ?? []),
      historyComplete,
      venueLifetimePnl: lifetime,
      pnlPoints: point ? [point] : [],
    });
  }
  return (wallet) => inputs.get(wallet) ?? unsynced;
}

/** Wallets whose wash legs one store read sums (each read groups every fill of its wallets). */
const WASH_WALLETS_PER_QUERY = 50;

/** Hands over the wash legs of each wallet, summed by the store a few wallets at a time while `more()` holds. */
export async function sumWashLegs(
  store: Store,
  wallets: readonly string[],
  each: (wallet: string, legs: WashLegs) => void,
  more: () => boolean = () => true,
): Promise<void> {
  for (let i = 0; i < wallets.length && more(); i += WASH_WALLETS_PER_QUERY) {
    const slice = wallets.slice(i, i + WASH_WALLETS_PER_QUERY);
    const legs = await loadWashLegs(store, slice);
    for (const wallet of slice) each(wallet, legs.get(wallet) ?? new WashLegs());
  }
}

/**
 * SQL: the wash legs (fills with a counterparty) summed per wallet, counterparty, token and side, grouped on
 * `fill_rows`' ids with the texts joined once per group (through the view, each row's texts were joined and the
 * whole set sorted by them), for the wallets of `condition` (over the wallet's id `f.wallet_id`).
 */
function washLegsSql(condition: string): string {
  const { addresses, tokens } = FILL_DICTIONARIES;
  return `select w.${addresses.column} as wallet, c.${addresses.column} as counterparty, t.${tokens.column} as token_id,
      ${codeTextSql(FILL_CODES, "side", "g")} as side, g.size, g.usd
    from (
      select f.wallet_id, f.counterparty_id, f.token_ref, ${fillCodeSql("side")} as side, sum(f.size) as size,
        sum(f.usd) as usd
      from ${FILL_ROWS} f where f.counterparty_id is not null${condition}
      group by f.wallet_id, f.counterparty_id, f.token_ref, ${fillCodeSql("side")}
    ) g
    join ${addresses.table} w on w.id = g.wallet_id
    join ${addresses.table} c on c.id = g.counterparty_id
    join ${tokens.table} t on t.id = g.token_ref`;
}

/**
 * The ring volumes (`WashLegs.ringVolume`) of the wallets a replay deferred (`Derivation.settleDeferredLegs`); a wallet
 * without legs has none (null). On SQLite, wallets that are most of the store's (a first derivation defers nearly every
 * one) are summed in one pass over every fill (`readRingVolumes`: on a read thread of its own, beside the replay);
 * elsewhere, and for the live refresh's few, by the store a few wallets at a time.
 */
export async function replayRingVolumes(
  store: Store,
  wallets: readonly string[],
  cfg: LedgerConfig["farmer"],
  sqliteSortCacheMb: number,
): Promise<Map<string, number | null>> {
  const handle = store.sqlite;
  if (handle && wallets.length >= (await storedAddressCount(store)) * ONE_PASS_SHARE)
    return readRingVolumes(handle, cfg, sqliteSortCacheMb);
  const volumes = new Map<string, number | null>();
  await sumWashLegs(store, wallets, (wallet, legs) => volumes.set(wallet, legs.ringVolume(cfg)));
  return volumes;
}

/**
 * The share of the store's addresses above which summing every wallet's legs in one pass is quicker: the per-wallet
 * reads fetch each fill's row from wherever time order stored it (at 1,000,000 fills 87 reads of 50 wallets took
 * 5.7 s, one pass 3.9 s; at 10,000,000 the random reads ran from disk).
 */
const ONE_PASS_SHARE = 0.5;

async function storedAddressCount(store: Store): Promise<number> {
  const { table } = FILL_DICTIONARIES.addresses;
  const [row] = await queryRows<{ n: number }>(store.db, store.kind, `select count(*) as n from ${table}`);
  return Number(row?.n ?? 0);
}

/** The wash legs of the given wallets, summed by the store. */
export async function loadWashLegs(store: Store, wallets: readonly string[]): Promise<Map<string, WashLegs>> {
  type Leg = { wallet: string; counterparty: string; token_id: string; side: Direction; size: number; usd: number };
  const rows = await inSlices(wallets, (slice) =>
    queryRows<Leg>(
      store.db,
      store.kind,
      washLegsSql(` and f.wallet_id in ${walletIdsOf(placeholders(slice.length))}`),
      slice,
    ),
  );
  const out = new Map<string, WashLegs>();
  for (const row of rows) {
    let legs = out.get(row.wallet);
    if (!legs) out.set(row.wallet, (legs = new WashLegs()));
    legs.add(row.counterparty, row.token_id, row.side, Number(row.size), Number(row.usd));
  }
  return out;
}
