/**
 * missed-opportunities and active-whale-markets (the ranked whale groups of the API's Smart Money copy, walked to the
 * limit) against an independent grouping of the stored positions, on a simulated world derived in two steps: the
 * first part of its fills and resolutions through the Deriver's warm start, the rest batch by batch as an ingest
 * commits them. After the later fills the copy is loaded again (the refresh window passed): every answer must be
 * the store's again, at every limit (a walk stopping early must not drop a row the full grouping ranks first).
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import type { Store } from "../../src/store/database.js";
import { AT, servedAs } from "../support/served-numbers.js";
import { TWO_STEP_ENV, useTwoStepWorld } from "../support/api/two-step-world.js";
import { sqlRows } from "../support/api/wallet-insights.js";

const LIMITS = [1, 2, 5, 50];

interface Row {
  wallet: string;
  condition_id: string;
  outcome_index: number;
  shares: number;
  avg_price: number;
  total_bought: number;
  realized_pnl: number;
  fees: number;
  status: string;
}

const pair = (p: { condition_id: string; outcome_index: number }) => `${p.condition_id}/${p.outcome_index}`;
const side = (outcomeIndex: number) => (outcomeIndex === 0 ? "YES" : "NO");
const price = (p: number | null) => (p === null ? null : servedAs(p, AT.price));

/** Both answers for every wallet, computed from the stored positions, Smart Money set, names and markets. */
async function expectations(store: Store) {
  const q = sqlRows(() => ({ store }) as never);
  const positions = await q<Row>(
    "select wallet, condition_id, outcome_index, shares, avg_price, total_bought, realized_pnl, fees, status from positions",
  );
  const smart = new Set(
    (await q<{ wallet: string }>("select wallet from wallet_stats where is_smart = 1")).map((r) => r.wallet),
  );
  const names = new Map(
    (
      await q<{ address: string; name: string | null; pseudonym: string | null }>(
        "select address, name, pseudonym from wallets",
      )
    ).map((r) => [r.address, r.name || r.pseudonym || null]),
  );
  const markets = new Map(
    (
      await q<{
        id: string;
        condition_id: string;
        question: string;
        closed: number;
        price_yes: number | null;
        price_no: number | null;
        resolution: string | null;
      }>(
        "select m.id, m.condition_id, m.question, m.closed, m.price_yes, m.price_no, coalesce(r.resolution, m.resolution) as resolution from markets m left join market_resolutions r on r.condition_id = m.condition_id",
      )
    ).map((m) => [m.condition_id, m]),
  );
  const whalePositions = positions.filter((p) => smart.has(p.wallet));
  const byWallet = new Map<string, Row[]>();
  for (const p of positions) byWallet.set(p.wallet, [...(byWallet.get(p.wallet) ?? []), p]);

  const grouped = (rows: Row[], figure: (p: Row) => number) => {
    const out = new Map<string, Row[]>();
    for (const p of [...rows].sort((a, b) => (a.wallet < b.wallet ? -1 : 1)))
      out.set(pair(p), [...(out.get(pair(p)) ?? []), p]);
    return [...out.values()]
      .filter((g) => g.length >= 3)
      .map((g) => ({ g, sum: g.reduce((a, p) => a + figure(p), 0) }))
      .sort(
        (a, b) =>
          b.g.length - a.g.length ||
          b.sum - a.sum ||
          (a.g[0]!.condition_id < b.g[0]!.condition_id ? -1 : a.g[0]!.condition_id > b.g[0]!.condition_id ? 1 : 0) ||
          a.g[0]!.outcome_index - b.g[0]!.outcome_index,
      );
  };
  /** The listed whales: the WHALE_GROUP_WHALES_LISTED with the largest figures, ties by address. */
  const whales = (g: Row[], figure: (p: Row) => number) =>
    [...g]
      .sort((a, b) => figure(b) - figure(a) || (a.wallet < b.wallet ? -1 : 1))
      .slice(0, loadConfig(TWO_STEP_ENV).insights.groupWhalesListed)
      .map((p) => ({ wallet: p.wallet, name: names.get(p.wallet) ?? null }));
  const net = (p: Row) => (p.realized_pnl - p.fees) / 1e6;
  const cost = (p: Row) => (p.shares / 1e6) * p.avg_price;

  /** Wallets spread over the address order, the busiest ones (most positions) and a few Smart Money ones. */
  const byAddress = [...byWallet.keys()].sort();
  const step = Math.max(1, Math.floor(byAddress.length / 40));
  const busiest = [...byWallet].sort(([, a], [, b]) => b.length - a.length).map(([w]) => w);
  const sample = new Set([
    ...byAddress.filter((_, i) => i % step === 0),
    ...busiest.slice(0, 5),
    ...[...smart].sort().slice(0, 3),
  ]);
  const answers = (wallet: string) => {
    const own = byWallet.get(wallet) ?? [];
    const mine = new Set(own.filter((p) => p.total_bought > 0).map(pair));
    const matched = new Set(
      whalePositions.filter((p) => p.wallet !== wallet && p.total_bought > 0 && mine.has(pair(p))).map((p) => p.wallet),
    );
    const present = new Set(own.map((p) => p.condition_id));
    const held = new Set(own.filter((p) => p.status === "open" && p.shares > 0).map(pair));
    const missed = grouped(
      whalePositions.filter(
        (p) =>
          matched.has(p.wallet) &&
          p.total_bought > 0 &&
          !present.has(p.condition_id) &&
          markets.get(p.condition_id)?.resolution === side(p.outcome_index),
      ),
      net,
    ).map(({ g, sum }) => ({
      condition_id: g[0]!.condition_id,
      market_id: markets.get(g[0]!.condition_id)?.id ?? null,
      question: markets.get(g[0]!.condition_id)?.question ?? null,
      winning_side: side(g[0]!.outcome_index),
      whale_count: g.length,
      whales_pnl: servedAs(sum, AT.usd),
      whales: whales(g, net),
    }));
    const active = grouped(
      whalePositions.filter((p) => {
        const m = markets.get(p.condition_id);
        return (
          matched.has(p.wallet) &&
          p.status === "open" &&
          p.shares > 0 &&
          !held.has(pair(p)) &&
          m?.closed === 0 &&
          !m.resolution
        );
      }),
      cost,
    ).map(({ g, sum }) => ({
      condition_id: g[0]!.condition_id,
      market_id: markets.get(g[0]!.condition_id)!.id,
      question: markets.get(g[0]!.condition_id)!.question,
      side: side(g[0]!.outcome_index),
      price: price(
        g[0]!.outcome_index === 0
          ? markets.get(g[0]!.condition_id)!.price_yes
          : markets.get(g[0]!.condition_id)!.price_no,
      ),
      whale_count: g.length,
      whales_cost_usd: servedAs(sum, AT.usd),
      wallet_holds_opposite: held.has(pair({ ...g[0]!, outcome_index: 1 - g[0]!.outcome_index })),
      whales: whales(g, cost),
    }));
    return { matched: matched.size, missed, active };
  };
  return { sample: [...sample], answers };
}

describe("missed-opportunities and active-whale-markets as fills arrive", () => {
  const twoStep = useTwoStepWorld();

  const check = async () => {
    const two = twoStep();
    const { sample, answers } = await expectations(two.store);
    let rows = 0;
    let listedInPart = 0;
    const seen: unknown[] = [];
    for (const wallet of sample) {
      const want = answers(wallet);
      for (const limit of LIMITS) {
        for (const [path, list] of [
          ["missed-opportunities", want.missed],
          ["active-whale-markets", want.active],
        ] as const) {
          const res = await two.t.app.inject(`/api/v2/wallet/${wallet}/${path}?limit=${limit}`);
          expect(res.statusCode, `${path} ${wallet}`).toBe(200);
          const body = res.json();
          expect([body.matched_whales, body.min_whales], `${path} ${wallet}`).toEqual([want.matched, 3]);
          expect(
            body.markets.map(({ category: _c, ...m }: Record<string, unknown>) => m),
            `${path} ${wallet} limit ${limit}`,
          ).toEqual(list.slice(0, limit));
          if (limit === 50) {
            rows += list.length;
            listedInPart += list.filter((m) => m.whale_count > m.whales.length).length;
            seen.push(body);
          }
        }
      }
    }
    return { rows, seen, listedInPart };
  };

  it("answers as the stored positions group, before and after later fills and resolutions", async () => {
    const two = twoStep();
    const before = await check();
    expect(before.rows).toBeGreaterThan(10);
    expect(before.listedInPart).toBeGreaterThan(0);
    await two.deliverRest();
    two.t.clock.set(two.clock.nowMs() + 61_000);
    const after = await check();
    expect(after.rows).toBeGreaterThan(10);
    // The later fills and resolutions changed the answers: the copy was loaded again.
    expect(after.seen).not.toEqual(before.seen);
  }, 240_000);
});
