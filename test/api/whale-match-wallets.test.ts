/**
 * whale-matches, missed-opportunities and active-whale-markets for many wallets of a simulated world (Smart Money
 * ones included, which never match themselves), every field of every row, against expectations computed here from
 * the stored positions, statistics, names and markets: the answers the process's copy of the Smart Money positions
 * gives must be those of the store.
 */
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import { describe, expect, it } from "vitest";
import { useInsightsWorld, type Pos } from "../support/api/wallet-insights.js";

const f = useInsightsWorld();

const pair = (p: { condition_id: string; outcome_index: number }) => `${p.condition_id}/${p.outcome_index}`;
const side = (outcomeIndex: number) => (outcomeIndex === 0 ? "YES" : "NO");

async function facts() {
  const stats = new Map(
    (
      await f.q<{ wallet: string; total_pnl: number; win_rate: number; profit_factor: number }>(
        "select wallet, total_pnl, win_rate, profit_factor from wallet_stats",
      )
    ).map((r) => [r.wallet, r]),
  );
  const names = new Map(
    (
      await f.q<{ address: string; name: string | null; pseudonym: string | null }>(
        "select address, name, pseudonym from wallets",
      )
    ).map((r) => [r.address, r.name || r.pseudonym || null]),
  );
  const markets = new Map(
    (
      await f.q<{
        id: string;
        condition_id: string;
        question: string;
        closed: number;
        price_yes: number | null;
        price_no: number | null;
      }>("select id, condition_id, question, closed, price_yes, price_no from markets")
    ).map((m) => [m.condition_id, m]),
  );
  return { stats, names, markets };
}

/** Wallets with positions, spread over the list, and a few Smart Money ones. */
function sampleWallets(): string[] {
  const all = [...new Set(f.positions.map((p) => p.wallet))].sort();
  const step = Math.max(1, Math.floor(all.length / 30));
  const picked = all.filter((_, i) => i % step === 0);
  return [...new Set([...picked, ...[...f.smart].sort().slice(0, 5), f.whaleFan])];
}

function sharedCounts(wallet: string): Map<string, number> {
  const mine = new Set(
    f
      .posOf(wallet)
      .filter((p) => p.total_bought > 0)
      .map(pair),
  );
  const out = new Map<string, number>();
  for (const p of f.positions) {
    if (p.wallet === wallet || !f.smart.has(p.wallet) || p.total_bought <= 0 || !mine.has(pair(p))) continue;
    out.set(p.wallet, (out.get(p.wallet) ?? 0) + 1);
  }
  return out;
}

const servedPrice = (price: number | null) => (price === null ? null : servedAs(price, AT.price));

function groups(rows: Pos[]): Pos[][] {
  const out = new Map<string, Pos[]>();
  for (const p of rows) out.set(pair(p), [...(out.get(pair(p)) ?? []), p]);
  return [...out.values()];
}

describe("whale matches for every kind of wallet", () => {
  it("answers every field of whale-matches, missed-opportunities and active-whale-markets as the store says", async () => {
    const { stats, names, markets } = await facts();
    /** The listed whales: the 20 (WHALE_GROUP_WHALES_LISTED) with the largest figure, ties by address. */
    const whalesOf = (rows: Pos[], figure: (p: Pos) => number) =>
      [...rows]
        .sort((a, b) => figure(b) - figure(a) || (a.wallet < b.wallet ? -1 : 1))
        .slice(0, 20)
        .map((p) => ({ wallet: p.wallet, name: names.get(p.wallet) ?? null }));
    const costOf = (p: Pos) => (p.shares / 1e6) * p.avg_price;
    let nonEmpty = 0;
    for (const wallet of sampleWallets()) {
      const shared = sharedCounts(wallet);
      const own = f.posOf(wallet);
      const considered = own.filter((p) => p.total_bought > 0).length;

      const matches = (await f.get(`/api/v2/wallet/${wallet}/whale-matches?limit=100`)).body;
      const ranked = [...shared]
        .sort(([a, x], [b, y]) => y - x || stats.get(b)!.total_pnl - stats.get(a)!.total_pnl || (a < b ? -1 : 1))
        .slice(0, 100)
        .map(([w, n]) => ({
          wallet: w,
          name: names.get(w) ?? null,
          shared_positions: n,
          overlap_pct: servedAs(considered > 0 ? (100 * n) / considered : 0, AT.percent),
          total_pnl: servedAs(stats.get(w)!.total_pnl, AT.usd),
          win_rate: servedAs(stats.get(w)!.win_rate, AT.percent),
          profit_factor: servedAs(stats.get(w)!.profit_factor, AT.percent),
        }));
      expect(matches, wallet).toEqual({
        address: wallet,
        positions_considered: considered,
        matched_whales: shared.size,
        matches: ranked,
      });

      const present = new Set(own.map((p) => p.condition_id));
      const won = groups(
        f.positions.filter(
          (p) =>
            shared.has(p.wallet) &&
            p.total_bought > 0 &&
            !present.has(p.condition_id) &&
            f.resolutionOf.get(p.condition_id) === side(p.outcome_index),
        ),
      )
        .filter((rows) => rows.length >= 3)
        .map((rows) => ({ rows, pnl: rows.reduce((a, p) => a + p.net, 0) }))
        .sort((a, b) => b.rows.length - a.rows.length || b.pnl - a.pnl);
      const missed = (await f.get(`/api/v2/wallet/${wallet}/missed-opportunities?limit=50`)).body;
      expect([missed.address, missed.matched_whales, missed.min_whales], wallet).toEqual([wallet, shared.size, 3]);
      expect(missed.markets.length).toBe(Math.min(50, won.length));
      missed.markets.forEach((m: any, i: number) => {
        const { rows, pnl } = won[i]!;
        const cid = rows[0]!.condition_id;
        const { whales_pnl, ...rest } = m;
        expect(rest).toEqual({
          condition_id: cid,
          market_id: markets.get(cid)?.id ?? null,
          question: markets.get(cid)?.question ?? null,
          category: f.categoryOf.get(cid) ?? null,
          winning_side: side(rows[0]!.outcome_index),
          whale_count: rows.length,
          whales: whalesOf(rows, (p) => p.net),
        });
        expectServed(whales_pnl, pnl, AT.usd);
      });

      const held = new Set(own.filter((p) => p.status === "open" && p.shares > 0).map(pair));
      const active = groups(
        f.positions.filter(
          (p) =>
            shared.has(p.wallet) &&
            p.status === "open" &&
            p.shares > 0 &&
            !held.has(pair(p)) &&
            markets.get(p.condition_id)?.closed === 0 &&
            !f.resolutionOf.get(p.condition_id),
        ),
      )
        .filter((rows) => rows.length >= 3)
        .map((rows) => ({ rows, cost: rows.reduce((a, p) => a + (p.shares / 1e6) * p.avg_price, 0) }))
        .sort((a, b) => b.rows.length - a.rows.length || b.cost - a.cost);
      const open = (await f.get(`/api/v2/wallet/${wallet}/active-whale-markets?limit=50`)).body;
      expect([open.address, open.matched_whales, open.min_whales], wallet).toEqual([wallet, shared.size, 3]);
      expect(open.markets.length).toBe(Math.min(50, active.length));
      open.markets.forEach((m: any, i: number) => {
        const { rows, cost } = active[i]!;
        const p = rows[0]!;
        const market = markets.get(p.condition_id)!;
        const { whales_cost_usd, ...rest } = m;
        expect(rest).toEqual({
          condition_id: p.condition_id,
          market_id: market.id,
          question: market.question,
          category: f.categoryOf.get(p.condition_id) ?? null,
          side: side(p.outcome_index),
          price: servedPrice(p.outcome_index === 0 ? market.price_yes : market.price_no),
          whale_count: rows.length,
          wallet_holds_opposite: held.has(pair({ condition_id: p.condition_id, outcome_index: 1 - p.outcome_index })),
          whales: whalesOf(rows, costOf),
        });
        expectServed(whales_cost_usd, cost, AT.usd);
      });
      if (ranked.length > 0 && won.length > 0 && active.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(3);
  }, 120_000);
});
