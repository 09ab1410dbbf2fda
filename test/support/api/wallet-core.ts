/** Shared by the wallet core tests: the world (ranked with a small population), SQL, requests and Premium keys. */
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { createKey } from "../../../src/accounts/keys.js";
import { buildApp } from "../../../src/api/app.js";
import { loadConfig } from "../../../src/config/index.js";
import { createPlatform, type Platform } from "../../../src/platform/index.js";
import { createLogger } from "../../../src/platform/logger.js";
import { replaceVenuePositions } from "../../../src/store/wallet-cache.js";
import { openWorldApp, type WorldApp } from "../world-app.js";

/**
 * The event-loop delay signal is switched off (a test worker's loop stalls while worlds are built): tests force
 * the load signal through DEGRADED_IN_FLIGHT_REQUESTS instead.
 */
const STEADY = { DEGRADED_EVENT_LOOP_DELAY_MS: "3600000" };

/** The small world has few resolved markets per wallet: rank wallets from 2, so rankings are populated. */
export function openWalletWorld(): Promise<WorldApp> {
  return openWorldApp({ env: { RANK_MIN_RESOLVED_MARKETS: "2", ...STEADY } });
}

export async function rows<T = Record<string, any>>(t: WorldApp, text: string): Promise<T[]> {
  return (await sql.raw<T>(text).execute(t.store.db)).rows;
}

export async function one<T = Record<string, any>>(t: WorldApp, text: string): Promise<T> {
  const [row] = await rows<T>(t, text);
  if (!row) throw new Error(`no row: ${text}`);
  return row;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** A request by inject(); `from` is the client's IP address (127.0.0.1 when absent). */
export async function request<T = any>(
  app: FastifyInstance,
  method: "GET" | "POST",
  url: string,
  options: { headers?: Record<string, string>; payload?: unknown; from?: string } = {},
): Promise<Reply<T>> {
  const res = await app.inject({
    method,
    url,
    headers: options.headers,
    payload: options.payload as never,
    ...(options.from ? { remoteAddress: options.from } : {}),
  });
  return {
    status: res.statusCode,
    body: res.body ? (JSON.parse(res.body) as T) : (undefined as T),
    headers: res.headers,
  };
}

/** Wallets by total trades, busiest first. */
export type ByTrades = Array<{ wallet: string; total_trades: number }>;

/** The wallet world of a test file, with a Premium and a Free key and its wallets by total trades. */
export async function openWalletFixture(): Promise<{ t: WorldApp; premium: string; free: string; byTrades: ByTrades }> {
  const t = await openWalletWorld();
  const { premium, free } = await keys(t);
  return {
    t,
    premium,
    free,
    byTrades: await rows(t, "select wallet, total_trades from wallet_stats order by total_trades desc, wallet"),
  };
}

export async function keys(t: WorldApp) {
  const premium = (await createKey(t.store.db, { account: "wallet-core-premium", plan: "premium", now: t.clock.now() }))
    .key;
  const free = (await createKey(t.store.db, { account: "wallet-core-free", plan: "free", now: t.clock.now() })).key;
  return { premium, free };
}

/**
 * A second API process over the same store (another configuration), with its own in-memory platform unless one
 * is given (pass `t.platform` to share presence and cache as Redis would between processes).
 */
export async function variantApp(
  t: WorldApp,
  env: Record<string, string>,
  platform?: Platform,
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const config = loadConfig({ LOG_LEVEL: "silent", ...STEADY, ...env });
  const own = platform
    ? undefined
    : await createPlatform({ redisPrefix: "variant:", cacheMaxEntries: 1_000, cacheStaleSeconds: 0 }, t.clock);
  const app = await buildApp(
    { config, store: t.store, platform: platform ?? own!, expectedSources: [], startedAt: t.clock.now() },
    createLogger("silent"),
  );
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await own?.close();
    },
  };
}

export const CONTRACT = "0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E";
export const UNKNOWN = "0x00000000000000000000000000000000000000aa";
export const MICRO = 1e6;

export function isSortedDesc(values: readonly number[]): boolean {
  return values.every((v, i) => i === 0 || values[i - 1]! >= v);
}

/** The venue's `/positions` cache for `wallet`, written as a sync would: its open positions, all at `curPrice`. */
export async function storeVenuePositions(
  t: WorldApp,
  wallet: string,
  open: ReadonlyArray<Record<string, any>>,
  curPrice: number,
): Promise<void> {
  const now = t.clock.now();
  await t.store.transaction((tx) =>
    replaceVenuePositions(
      tx,
      wallet,
      open.map((p) => ({
        wallet,
        token_id: p.token_id,
        condition_id: p.condition_id,
        outcome_index: p.outcome_index,
        size: p.shares,
        avg_price: p.avg_price,
        cur_price: curPrice,
        initial_value: 0,
        current_value: 0,
        cash_pnl: 0,
        realized_pnl: 0,
        total_bought: p.total_bought,
        redeemable: 0,
        mergeable: 0,
        title: null,
        slug: null,
        event_slug: null,
        synced_at: now,
      })),
    ),
  );
}
