/**
 * Shared by the Premium drill-down tests (issue 25): a world app with a Premium and a Free key, requests, the
 * world's own fills with their addresses (the expectations are computed from the world, never from the API), and an
 * independent replay of the reference average-cost method in BigInt.
 */
import { createKey } from "../../../src/accounts/keys.js";
import type { World } from "../../../src/sim/world/index.js";
import type { StoreBackend } from "../backends.js";
import { openWorldApp, type WorldApp } from "../world-app.js";

export interface Fixture {
  w: WorldApp;
  premium: string;
  free: string;
}

export async function openDrilldownWorld(
  options: { env?: Record<string, string>; storeBackend?: StoreBackend } = {},
): Promise<Fixture> {
  const w = await openWorldApp({
    storeBackend: options.storeBackend,
    env: { SMART_MIN_RESOLVED_MARKETS: "3", RATE_PREMIUM_PER_MINUTE: "100000", ...options.env },
  });
  const premium = (await createKey(w.store.db, { account: "drilldowns-premium", plan: "premium", now: w.now })).key;
  const free = (await createKey(w.store.db, { account: "drilldowns-free", plan: "free", now: w.now })).key;
  return { w, premium, free };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

export async function get<T = any>(
  f: Fixture,
  url: string,
  headers: Record<string, string> = { "x-api-key": f.premium },
): Promise<Reply<T>> {
  const res = await f.w.app.inject({ method: "GET", url, headers });
  return {
    status: res.statusCode,
    body: res.body ? (JSON.parse(res.body) as T) : (undefined as T),
    headers: res.headers,
  };
}

/** A fill of the world as the store holds it: addresses and the condition id instead of indexes; `order` is chain order. */
export interface WorldFill {
  order: number;
  ts: number;
  wallet: string;
  counterparty: string;
  role: "maker" | "taker";
  conditionId: string;
  outcome: 0 | 1;
  side: "BUY" | "SELL";
  size: number;
  usd: number;
  entryType: "MINT" | "MERGE" | "COMPLEMENTARY";
  txHash: string;
}

export function worldFills(world: World): WorldFill[] {
  const out: WorldFill[] = [];
  for (let i = 0; i < world.fillCount; i++) {
    const f = world.fill(i);
    out.push({
      order: i,
      ts: f.ts,
      wallet: world.wallets[f.wallet]!.proxyWallet,
      counterparty: world.wallets[f.counterparty]!.proxyWallet,
      role: f.role,
      conditionId: world.markets[f.market]!.conditionId,
      outcome: f.outcome,
      side: f.side,
      size: f.size,
      usd: f.usd,
      entryType: f.entryType,
      txHash: world.txHashOfMatch(f.match),
    });
  }
  return out;
}

export interface WalletMarketPair {
  wallet: string;
  conditionId: string;
  fills: WorldFill[];
}

/** Every (wallet, market) pair of the world with its fills, busiest first. */
export function walletMarketPairs(fills: readonly WorldFill[]): WalletMarketPair[] {
  const groups = new Map<string, WorldFill[]>();
  for (const f of fills) {
    const key = `${f.wallet} ${f.conditionId}`;
    const list = groups.get(key) ?? [];
    list.push(f);
    groups.set(key, list);
  }
  return [...groups]
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .map(([key, list]) => {
      const [wallet, conditionId] = key.split(" ") as [string, string];
      return { wallet, conditionId, fills: list };
    });
}

/** The busiest pair of the world: the most fills of one wallet in one market. */
export const busiestPair = (fills: readonly WorldFill[]): WalletMarketPair => walletMarketPairs(fills)[0]!;

/** Busy pairs whose average entry depends on the order of their trades: sales, and buys at several prices. */
export function variedPairs(fills: readonly WorldFill[], count: number): WalletMarketPair[] {
  const prices = (p: WalletMarketPair) =>
    new Set(p.fills.filter((x) => x.side === "BUY").map((x) => Math.round((x.usd * 100) / x.size))).size;
  return walletMarketPairs(fills)
    .filter((p) => p.fills.some((x) => x.side === "SELL") && prices(p) >= 4)
    .slice(0, count);
}

export interface ReplayedSide {
  buy_tokens: number;
  buy_cost_usd: number;
  sell_tokens: number;
  sell_cost_usd: number;
  net_tokens: number;
  net_cost_usd: number;
  trade_count: number;
  avg_entry_price: number | null;
  first_trade_ts: number | null;
  last_trade_ts: number | null;
}

/**
 * The wallet-market summary of docs/METRICS.md replayed here in BigInt: a buy of q shares for c collateral at
 * price p = trunc(c * 1e6 / q) moves the average to trunc((avg * held + p * q) / (held + q)); a sale takes at most
 * the shares held and leaves the average. A SELL settled as MINT buys the other side for size - usd, a BUY settled
 * as MERGE sells it for size - usd.
 */
export function replaySides(fills: readonly WorldFill[]): { YES: ReplayedSide; NO: ReplayedSide } {
  const sides = [0, 1].map(() => ({
    buy: 0n,
    cost: 0n,
    sell: 0n,
    proceeds: 0n,
    count: 0,
    avg: null as bigint | null,
    held: 0n,
    first: null as number | null,
    last: null as number | null,
  }));
  for (const f of [...fills].sort((a, b) => a.ts - b.ts || a.order - b.order)) {
    let outcome = f.outcome;
    let buying = f.side === "BUY";
    let usd = BigInt(f.usd);
    const size = BigInt(f.size);
    if ((f.entryType === "MINT" && !buying) || (f.entryType === "MERGE" && buying)) {
      outcome = (1 - outcome) as 0 | 1;
      buying = !buying;
      usd = size > usd ? size - usd : 0n;
    }
    const s = sides[outcome]!;
    if (buying) {
      const price = (usd * 1_000_000n) / size;
      s.avg = ((s.avg ?? 0n) * s.held + price * size) / (s.held + size);
      s.held += size;
      s.buy += size;
      s.cost += usd;
    } else {
      s.held -= size < s.held ? size : s.held;
      s.sell += size;
      s.proceeds += usd;
    }
    s.count++;
    s.first ??= f.ts;
    s.last = f.ts;
  }
  const usd = (micro: bigint) => Number(micro) / 1e6;
  const [yes, no] = sides.map((s) => ({
    buy_tokens: usd(s.buy),
    buy_cost_usd: usd(s.cost),
    sell_tokens: usd(s.sell),
    sell_cost_usd: usd(s.proceeds),
    net_tokens: usd(s.buy - s.sell),
    net_cost_usd: usd(s.cost - s.proceeds),
    trade_count: s.count,
    avg_entry_price: s.avg === null ? null : usd(s.avg),
    first_trade_ts: s.first,
    last_trade_ts: s.last,
  }));
  return { YES: yes!, NO: no! };
}
