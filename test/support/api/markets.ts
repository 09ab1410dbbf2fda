/** Shared by the market endpoint tests: the world (with a Smart Money population), SQL over the store, requests. */
import { sql } from "kysely";
import type { WorldApp } from "../world-app.js";
import { openWorldApp } from "../world-app.js";

/**
 * The small test world has too few resolved markets per wallet for the default 10; with 3, about a dozen
 * wallets are Smart Money and most active markets have teams.
 */
export function openMarketsWorld(): Promise<WorldApp> {
  return openWorldApp({ env: { SMART_MIN_RESOLVED_MARKETS: "3" } });
}

export async function rows<T = Record<string, unknown>>(t: WorldApp, text: string): Promise<T[]> {
  return (await sql.raw<T>(text).execute(t.store.db)).rows;
}

export async function getJson<T = any>(
  t: WorldApp,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  const res = await t.app.inject({ method: "GET", url, headers });
  return {
    status: res.statusCode,
    body: res.body ? (JSON.parse(res.body) as T) : (undefined as T),
    headers: res.headers,
  };
}

/** Volume as the API answers it: the venue's figure when positive, else the stored fills'. */
export const VOLUME_SQL = "(case when m.volume > 0 then m.volume else coalesce(s.volume, 0) end)";

export function isSortedDesc(values: readonly number[]): boolean {
  return values.every((v, i) => i === 0 || values[i - 1]! >= v);
}

/** Per wallet, the net cost (YES minus NO, USD) of its open positions in a market, with its Smart Money flags. */
export async function netPositions(t: WorldApp, conditionId: string) {
  return rows<{
    wallet: string;
    yes_cost: number;
    no_cost: number;
    yes_shares: number;
    no_shares: number;
    is_smart: number | null;
    is_farmer: number | null;
  }>(
    t,
    `select p.wallet,
       sum(case when p.outcome_index = 0 then p.shares * p.avg_price / 1000000.0 else 0 end) as yes_cost,
       sum(case when p.outcome_index = 1 then p.shares * p.avg_price / 1000000.0 else 0 end) as no_cost,
       sum(case when p.outcome_index = 0 then p.shares / 1000000.0 else 0 end) as yes_shares,
       sum(case when p.outcome_index = 1 then p.shares / 1000000.0 else 0 end) as no_shares,
       max(s.is_smart) as is_smart, max(s.is_farmer) as is_farmer
     from positions p left join wallet_stats s on s.wallet = p.wallet
     where p.condition_id = '${conditionId}' and p.status = 'open' and p.shares > 0
     group by p.wallet`,
  );
}
