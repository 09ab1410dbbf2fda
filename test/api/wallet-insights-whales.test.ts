/**
 * Whale-match endpoints (alignment, whale-matches, missed-opportunities, active-whale-markets) and the wallet's
 * related markets and similar traders, over a simulated world. Expectations are computed here from the stored
 * positions, statistics and markets, never by the analytics under test.
 */
import { POSITION_STATUS_CODE } from "../../src/store/position-status.js";
import { updatePositionsSql } from "../../src/store/testing/positions.js";
import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "../../src/venue/categories.js";
import { AT, expectServed } from "../support/served-numbers.js";
import { describeWalletErrors, useInsightsWorld, type Pos } from "../support/api/wallet-insights.js";

const f = useInsightsWorld();

describe("alignment", () => {
  it("compares each open net position with the other whales' consensus", async () => {
    const { status, body } = await f.get(`/api/v2/wallet/${f.whaleFan}/alignment`);
    expect(status).toBe(200);
    const netOf = (wallet: string) => {
      const m = new Map<string, number>();
      for (const p of f.posOf(wallet).filter((p) => p.status === "open" && p.shares > 0)) {
        const cost = (p.shares / 1e6) * p.avg_price;
        m.set(p.condition_id, (m.get(p.condition_id) ?? 0) + (p.outcome_index === 0 ? cost : -cost));
      }
      return m;
    };
    const mine = [...netOf(f.whaleFan).entries()].filter(([, n]) => n !== 0);
    const whaleNets = [...f.smart].filter((s) => s !== f.whaleFan).map(netOf);
    expect(body.positions).toBe(mine.length);
    expect(body.markets.map((m: any) => m.cost_usd)).toEqual(
      [...body.markets.map((m: any) => m.cost_usd)].sort((a, b) => b - a),
    );
    for (const [cid, n] of mine) {
      const row = body.markets.find((m: any) => m.condition_id === cid);
      const yes = whaleNets.filter((x) => (x.get(cid) ?? 0) >= 100).length;
      const no = whaleNets.filter((x) => (x.get(cid) ?? 0) <= -100).length;
      const side = n > 0 ? "YES" : "NO";
      const consensus = yes > no ? "YES" : no > yes ? "NO" : null;
      expect([row.side, row.whales_yes, row.whales_no, row.consensus_side]).toEqual([side, yes, no, consensus]);
      expect(row.alignment).toBe(consensus === null ? "no_consensus" : consensus === side ? "aligned" : "against");
      expectServed(row.cost_usd, Math.abs(n), AT.usd);
    }
    expect(body.aligned + body.against + body.no_consensus).toBe(mine.length);
  });
});

/** Smart Money wallets sharing (market, side) positions with the wallet, by count. */
function sharedCounts(wallet: string): Map<string, number> {
  const mine = new Set(
    f
      .posOf(wallet)
      .filter((p) => p.total_bought > 0)
      .map((p) => `${p.condition_id}/${p.outcome_index}`),
  );
  const out = new Map<string, number>();
  for (const p of f.positions) {
    if (
      p.wallet === wallet ||
      !f.smart.has(p.wallet) ||
      p.total_bought <= 0 ||
      !mine.has(`${p.condition_id}/${p.outcome_index}`)
    )
      continue;
    out.set(p.wallet, (out.get(p.wallet) ?? 0) + 1);
  }
  return out;
}

describe("whale-matches", () => {
  it("ranks whales by shared (market, side) positions, default limit 10", async () => {
    const { status, body } = await f.get(`/api/v2/wallet/${f.whaleFan}/whale-matches`);
    expect(status).toBe(200);
    const shared = sharedCounts(f.whaleFan);
    expect(body.matched_whales).toBe(shared.size);
    expect(shared.size).toBeGreaterThan(10);
    expect(body.matches).toHaveLength(10);
    const counts = [...shared.values()].sort((a, b) => b - a);
    expect(body.matches.map((m: any) => m.shared_positions)).toEqual(counts.slice(0, 10));
    for (const m of body.matches) expect(m.shared_positions).toBe(shared.get(m.wallet));
    expect(body.positions_considered).toBe(f.posOf(f.whaleFan).filter((p) => p.total_bought > 0).length);
    expect((await f.get(`/api/v2/wallet/${f.whaleFan}/whale-matches?limit=3`)).body.matches).toEqual(
      body.matches.slice(0, 3),
    );
  });

  it("validates limit", async () => {
    for (const bad of ["0", "101", "x"])
      expect((await f.get(`/api/v2/wallet/${f.whaleFan}/whale-matches?limit=${bad}`)).status).toBe(422);
    expect((await f.get(`/api/v2/wallet/${f.whaleFan}/whale-matches?limit=100`)).status).toBe(200);
  });
});

describe("missed-opportunities", () => {
  it("lists resolved markets that 3+ matched whales won on one side while the wallet stayed out", async () => {
    const matched = new Set(sharedCounts(f.whaleFan).keys());
    const present = new Set(f.posOf(f.whaleFan).map((p) => p.condition_id));
    const bySide = new Map<string, Pos[]>();
    for (const p of f.positions) {
      if (!matched.has(p.wallet) || p.total_bought <= 0 || present.has(p.condition_id)) continue;
      const r = f.resolutionOf.get(p.condition_id);
      if (r !== (p.outcome_index === 0 ? "YES" : "NO")) continue;
      const key = p.condition_id;
      bySide.set(key, [...(bySide.get(key) ?? []), p]);
    }
    const expected = [...bySide.entries()]
      .filter(([, ps]) => ps.length >= 3)
      .map(([cid, ps]) => ({ cid, n: ps.length, pnl: ps.reduce((a, p) => a + p.net, 0) }))
      .sort((a, b) => b.n - a.n || b.pnl - a.pnl);
    expect(expected.length).toBeGreaterThan(0);
    const { body } = await f.get(`/api/v2/wallet/${f.whaleFan}/missed-opportunities?limit=50`);
    expect(body.markets.map((m: any) => [m.condition_id, m.whale_count])).toEqual(
      expected.slice(0, 50).map((e) => [e.cid, e.n]),
    );
    for (const m of body.markets) expect(m.whales).toHaveLength(Math.min(m.whale_count, 20));
    expect((await f.get(`/api/v2/wallet/${f.whaleFan}/missed-opportunities`)).body.markets).toHaveLength(
      Math.min(5, expected.length),
    );
    expect((await f.get(`/api/v2/wallet/${f.whaleFan}/missed-opportunities?limit=51`)).status).toBe(422);
  });
});

describe("active-whale-markets", () => {
  async function expected(wallet: string) {
    const matched = new Set(sharedCounts(wallet).keys());
    const held = new Set(
      f
        .posOf(wallet)
        .filter((p) => p.status === "open" && p.shares > 0)
        .map((p) => `${p.condition_id}/${p.outcome_index}`),
    );
    const active = new Set(
      (await f.q<{ condition_id: string }>("select condition_id from markets where closed = 0")).map(
        (m) => m.condition_id,
      ),
    );
    const groups = new Map<string, Pos[]>();
    for (const p of f.positions) {
      const key = `${p.condition_id}/${p.outcome_index}`;
      if (
        !matched.has(p.wallet) ||
        p.status !== "open" ||
        p.shares <= 0 ||
        held.has(key) ||
        !active.has(p.condition_id) ||
        f.resolutionOf.get(p.condition_id)
      )
        continue;
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    return [...groups.entries()]
      .filter(([, ps]) => ps.length >= 3)
      .map(([key, ps]) => ({ key, n: ps.length, cost: ps.reduce((a, p) => a + (p.shares / 1e6) * p.avg_price, 0) }))
      .sort((a, b) => b.n - a.n || b.cost - a.cost);
  }

  it("lists open markets where 3+ matched whales hold a side the wallet does not", async () => {
    const want = await expected(f.whaleFan);
    expect(want.length).toBeGreaterThan(0);
    const { body } = await f.get(`/api/v2/wallet/${f.whaleFan}/active-whale-markets?limit=50`);
    expect(body.markets.map((m: any) => [`${m.condition_id}/${m.side === "YES" ? 0 : 1}`, m.whale_count])).toEqual(
      want.slice(0, 50).map((e) => [e.key, e.n]),
    );
    body.markets.forEach((m: any, i: number) => expectServed(m.whales_cost_usd, want[i]!.cost, AT.usd));
    expect((await f.get(`/api/v2/wallet/${f.whaleFan}/active-whale-markets`)).body.markets).toHaveLength(
      Math.min(5, want.length),
    );
  });
});

describe("related-markets and similar-traders", () => {
  it("suggests active, non-extreme markets of the top 2 categories by 24 h volume", async () => {
    // Distinct 24 h volumes so that the order is meaningful.
    await f.q("update markets set volume_24h = (length(question) * 37) % 1000 + length(slug)");
    const wallet = f.rich;
    const shares = JSON.parse(
      (await f.q<{ categories: string }>("select categories from wallet_stats where wallet = ?", [wallet]))[0]!
        .categories,
    ) as Record<Category, number>;
    const top = CATEGORIES.filter((c) => shares[c] >= 5)
      .sort((a, b) => shares[b] - shares[a])
      .slice(0, 2);
    const markets = await f.q<{
      condition_id: string;
      price_yes: number | null;
      volume_24h: number;
      closed: number;
      end_date: number | null;
    }>("select condition_id, price_yes, volume_24h, closed, end_date from markets");
    const { body } = await f.get(`/api/v2/wallet/${wallet}/related-markets`);
    expect(body.categories.map((c: any) => c.category)).toEqual(top);
    for (const c of body.categories) {
      const want = markets
        .filter(
          (m) =>
            f.categoryOf.get(m.condition_id) === c.category &&
            m.closed === 0 &&
            (m.end_date ?? 0) > f.w.now &&
            m.price_yes !== null &&
            m.price_yes >= 0.03 &&
            m.price_yes <= 0.97,
        )
        .sort((a, b) => b.volume_24h - a.volume_24h || a.condition_id.localeCompare(b.condition_id))
        .slice(0, 5);
      expect(c.markets.map((m: any) => m.condition_id)).toEqual(want.map((m) => m.condition_id));
    }
    expect(body.categories.some((c: any) => c.markets.length > 0)).toBe(true);
  });

  /** The stored statistics, and the wallets the contract picks for `wallet`: computed here from every row. */
  async function expectedSimilar(wallet: string) {
    const stats = await f.q<{ wallet: string; categories: string; total_pnl: number; is_smart: number }>(
      "select wallet, categories, total_pnl, is_smart from wallet_stats",
    );
    const primary = (json: string) => {
      const s = JSON.parse(json) as Record<Category, number>;
      const best = CATEGORIES.reduce((a, c) => (s[c] > s[a] ? c : a), CATEGORIES[0]);
      return s[best] > 0 ? best : null;
    };
    const mine = stats.find((s) => s.wallet === wallet)!;
    const want = stats
      .filter(
        (s) =>
          s.wallet !== wallet &&
          s.is_smart === 1 &&
          s.total_pnl > 0 &&
          primary(s.categories) === primary(mine.categories),
      )
      .sort((a, b) => b.total_pnl - a.total_pnl || (a.wallet < b.wallet ? -1 : 1))
      .slice(0, 4);
    return { stats, mine, primary: primary(mine.categories), want };
  }

  it("picks up to 4 profitable whales with the same primary category, by total P&L", async () => {
    const { stats, mine, primary, want } = await expectedSimilar(f.rich);
    const { status, body } = await f.get(`/api/v2/wallet/${f.rich}/similar-traders`);
    expect(status).toBe(200);
    expect(body.wallet).toBe(f.rich);
    expect(body.primary_category).toBe(primary);
    expect(body.similar.map((s: any) => s.wallet)).toEqual(want.map((s) => s.wallet));
    for (const s of body.similar) {
      const theirs = JSON.parse(stats.find((x) => x.wallet === s.wallet)!.categories);
      const ours = JSON.parse(mine.categories);
      expect(s.shared_categories).toEqual(CATEGORIES.filter((c) => ours[c] >= 5 && theirs[c] >= 5));
      expect(["Very similar", "Similar", "Some overlap"]).toContain(s.overlap_label);
    }
  });

  it("leaves the asking whale out of its own category's most profitable, and lists the next ones", async () => {
    // Every profitable smart whale asks: the top ones of each category are among the candidates read for all.
    const { stats } = await expectedSimilar(f.rich);
    const whales = stats.filter((s) => s.is_smart === 1 && s.total_pnl > 0).map((s) => s.wallet);
    expect(whales.length).toBeGreaterThan(4);
    let full = 0;
    for (const wallet of whales) {
      const { primary, want } = await expectedSimilar(wallet);
      const { status, body } = await f.get(`/api/v2/wallet/${wallet}/similar-traders`);
      expect(status).toBe(200);
      expect(body.primary_category).toBe(primary);
      expect(body.similar.map((s: any) => s.wallet)).toEqual(want.map((s) => s.wallet));
      if (want.length === 4) full++;
    }
    expect(full).toBeGreaterThan(0);
  });
});

describe("caching windows", () => {
  it("serves related-markets for 5 min, similar-traders for 10 min and active-whale-markets for 60 s", async () => {
    const start = f.w.clock.nowMs();
    try {
      const related = (await f.get(`/api/v2/wallet/${f.rich}/related-markets`)).body;
      const similar = (await f.get(`/api/v2/wallet/${f.rich}/similar-traders`)).body;
      const active = (await f.get(`/api/v2/wallet/${f.whaleFan}/active-whale-markets?limit=50`)).body;
      const first = related.categories.find((c: any) => c.markets.length > 0).markets[0];
      await f.q("update markets set volume_24h = 0 where condition_id = ?", [first.condition_id]);
      const dropped = similar.similar[0].wallet;
      await f.q("update wallet_stats set total_pnl = -total_pnl where wallet = ?", [dropped]);
      const gone = active.markets[0];
      // As the Deriver writes them: the positions with their wallets' statistics rows (what the copy's reload and
      // the kept answers look at).
      const side = [gone.condition_id, gone.side === "YES" ? 0 : 1];
      await f.q(
        "update wallet_stats set computed_at = computed_at + 1 where wallet in (select wallet from positions where status = 'open' and condition_id = ? and outcome_index = ?)",
        side,
      );
      await f.q(
        updatePositionsSql(
          `status = ${POSITION_STATUS_CODE.closed}`,
          "status = 'open' and condition_id = ? and outcome_index = ?",
        ),
        side,
      );

      f.w.clock.set(start + 59_000);
      expect((await f.get(`/api/v2/wallet/${f.whaleFan}/active-whale-markets?limit=50`)).body).toEqual(active);
      f.w.clock.set(start + 61_000);
      expect((await f.get(`/api/v2/wallet/${f.whaleFan}/active-whale-markets?limit=50`)).body.markets[0]).not.toEqual(
        gone,
      );

      f.w.clock.set(start + 299_000);
      expect((await f.get(`/api/v2/wallet/${f.rich}/related-markets`)).body).toEqual(related);
      f.w.clock.set(start + 301_000);
      expect((await f.get(`/api/v2/wallet/${f.rich}/related-markets`)).body).not.toEqual(related);

      f.w.clock.set(start + 599_000);
      expect((await f.get(`/api/v2/wallet/${f.rich}/similar-traders`)).body).toEqual(similar);
      f.w.clock.set(start + 601_000);
      expect(
        (await f.get(`/api/v2/wallet/${f.rich}/similar-traders`)).body.similar.map((s: any) => s.wallet),
      ).not.toContain(dropped);
    } finally {
      f.w.clock.set(start);
    }
  });
});

describeWalletErrors(
  () => ({ get: f.get, known: f.whaleFan }),
  ["alignment", "related-markets", "similar-traders", "whale-matches", "missed-opportunities", "active-whale-markets"],
);

describe("cost of the whale-match reads", () => {
  it("whale-matches, missed-opportunities and active-whale-markets each take 1 request of the budget", async () => {
    for (const path of ["whale-matches", "missed-opportunities", "active-whale-markets"]) {
      const url = `/api/v2/wallet/${f.whaleFan}/${path}?limit=7`;
      const remaining = async () => {
        const res = await f.w.app.inject({ url, remoteAddress: "198.51.100.24" });
        expect(res.statusCode, path).toBe(200);
        return Number(res.headers["x-ratelimit-remaining"]);
      };
      const first = await remaining();
      expect(first - (await remaining()), path).toBe(1);
    }
  });
});
