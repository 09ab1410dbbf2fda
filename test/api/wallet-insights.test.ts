/**
 * Wallet insights (insights, closed-insights, highlights, hold) over a simulated world. Expectations are computed
 * here from the stored tables with SQL and plain loops (never by the analytics under test); streaks and holds are
 * also checked against the ledger's own wallet statistics, which come from the raw fills.
 */
import { storedPnlPoints } from "../../src/store/testing/pnl-points.js";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../src/venue/categories.js";
import { AT, expectServed, servedAs } from "../support/served-numbers.js";
import {
  DAY,
  UNKNOWN,
  close,
  describeWalletErrors,
  useInsightsWorld,
  type Pos,
} from "../support/api/wallet-insights.js";

const f = useInsightsWorld();

function tally(list: Pos[]) {
  const wins = list.filter((p) => p.net > 0).length;
  const losses = list.filter((p) => p.net < 0).length;
  return {
    closed_positions: list.length,
    wins,
    losses,
    win_rate: wins + losses ? servedAs((100 * wins) / (wins + losses), AT.percent) : null,
    pnl: list.reduce((a, p) => a + p.net, 0),
  };
}

describe("insights", () => {
  it("breaks closed positions down by category and entry price", async () => {
    const { status, body } = await f.get(`/api/v2/wallet/${f.rich.toUpperCase().replace("0X", "0x")}/insights`);
    expect(status).toBe(200);
    expect(body.address).toBe(f.rich);
    const closed = f.posOf(f.rich).filter((p) => p.status === "closed");
    const all = tally(closed);
    expect(body.closed_positions).toBe(closed.length);
    expect(body.open_positions).toBe(f.posOf(f.rich).length - closed.length);
    expect([body.wins, body.losses, body.win_rate]).toEqual([all.wins, all.losses, all.win_rate]);
    expectServed(body.realized_pnl, all.pnl, AT.usd);
    const stats = (
      await f.q<{ profit_factor: number; median_hold_days: number | null; categories: string }>(
        "select * from wallet_stats where wallet = ?",
        [f.rich],
      )
    )[0]!;
    expectServed(body.profit_factor, stats.profit_factor, AT.percent);
    expect(body.median_hold_days).toBe(stats.median_hold_days);
    expect(body.categories.map((c: any) => c.category)).toEqual([...CATEGORIES]);
    for (const c of body.categories) {
      const t = tally(closed.filter((p) => f.categoryOf.get(p.condition_id) === c.category));
      expect([c.closed_positions, c.wins, c.losses, c.win_rate]).toEqual([
        t.closed_positions,
        t.wins,
        t.losses,
        t.win_rate,
      ]);
      expectServed(c.realized_pnl, t.pnl, AT.usd);
      expectServed(c.volume_share_pct, JSON.parse(stats.categories)[c.category], AT.percent);
    }
    const traded = body.categories.filter((c: any) => c.closed_positions > 0);
    const maxPnl = Math.max(...traded.map((c: any) => c.realized_pnl));
    expect(body.best_category).toBe(maxPnl > 0 ? traded.find((c: any) => c.realized_pnl === maxPnl).category : null);
    const edges = [0, 0.2, 0.4, 0.6, 0.8, 1];
    expect(body.entry_price_buckets).toHaveLength(5);
    body.entry_price_buckets.forEach((b: any, i: number) => {
      expect([b.min_price, b.max_price]).toEqual([edges[i], edges[i + 1]]);
      const t = tally(
        closed.filter(
          (p) => p.avg_price >= edges[i]! - 1e-12 && (i === 4 ? p.avg_price <= 1 : p.avg_price < edges[i + 1]! - 1e-12),
        ),
      );
      expect(b.closed_positions).toBe(t.closed_positions);
      expectServed(b.realized_pnl, t.pnl, AT.usd);
    });
    close(body.avg_hold_days, closed.reduce((a, p) => a + (p.closed_ts! - p.first_ts), 0) / closed.length / DAY);
  });
});

describe("closed-insights", () => {
  it("sums wins and losses and lists the biggest of each", async () => {
    const { status, body } = await f.get(`/api/v2/wallet/${f.rich}/closed-insights`);
    expect(status).toBe(200);
    const closed = f.posOf(f.rich).filter((p) => p.status === "closed");
    const wins = closed.filter((p) => p.net > 0).sort((a, b) => b.net - a.net);
    const losses = closed.filter((p) => p.net < 0).sort((a, b) => a.net - b.net);
    const gp = wins.reduce((a, p) => a + p.net, 0);
    const gl = -losses.reduce((a, p) => a + p.net, 0);
    expect([body.wins, body.losses, body.breakeven]).toEqual([
      wins.length,
      losses.length,
      closed.length - wins.length - losses.length,
    ]);
    expectServed(body.gross_profit, gp, AT.usd);
    expectServed(body.gross_loss, gl, AT.usd);
    expectServed(body.net_pnl, gp - gl, AT.usd);
    expectServed(body.profit_factor, gl > 0 ? Math.min(99.99, gp / gl) : gp > 0 ? 99.99 : 0, AT.percent);
    const pnls = (list: Pos[]) => list.slice(0, 5).map((p) => servedAs(p.net, AT.usd));
    expect(body.biggest_wins.map((p: any) => p.pnl)).toEqual(pnls(wins));
    expect(body.biggest_losses.map((p: any) => p.pnl)).toEqual(pnls(losses));
    if (wins.length > 0) expect(body.biggest_wins[0].condition_id).toBe(wins[0]!.condition_id);
  });

  it("reads the proxy wallet when given, and validates it", async () => {
    const other = f.whaleFan;
    expect((await f.get(`/api/v2/wallet/${f.rich}/closed-insights?proxy=${other}`)).body.address).toBe(other);
    expect((await f.get(`/api/v2/wallet/${f.rich}/closed-insights?proxy=nope`)).status).toBe(422);
    expect((await f.get(`/api/v2/wallet/${f.rich}/closed-insights?proxy=${UNKNOWN}`)).status).toBe(404);
  });
});

/**
 * Per UTC day: settled net P&L as the ledger's daily points book it (plus what positions settled after the last
 * point, on the day of the latest trade or close), and positions closed that day.
 */
async function days(wallet: string) {
  const points = await storedPnlPoints(f.w.store, { wallet, resolution: "day" });
  const out = new Map<number, { pnl: number; closes: number }>();
  const add = (d: number, pnl: number, closes: number) =>
    out.set(d, { pnl: (out.get(d)?.pnl ?? 0) + pnl, closes: (out.get(d)?.closes ?? 0) + closes });
  let prev = 0;
  for (const p of points) {
    add(p.t / DAY - 1, p.pnl - prev, 0);
    prev = p.pnl;
  }
  const mine = f.posOf(wallet);
  for (const p of mine.filter((p) => p.status === "closed")) add(Math.floor(p.closed_ts! / DAY), 0, 1);
  // Settled, as the points are: a position its market's resolution closed with shares left adds their payout less their cost.
  const [extra] = await f.q<{ micro: number; unredeemed: number; latest: number }>(
    `select sum(p.realized_pnl - p.fees) as micro,
       sum(case when p.status = 'closed' and p.shares > 0 then p.shares * (case coalesce(r.resolution, m.resolution)
         when '50-50' then 0.5 when 'YES' then 1 - p.outcome_index when 'NO' then p.outcome_index else p.avg_price end - p.avg_price)
         else 0 end) as unredeemed,
       max(case when p.closed_ts > p.last_ts then p.closed_ts else p.last_ts end) as latest
     from positions p left join markets m on m.condition_id = p.condition_id
       left join market_resolutions r on r.condition_id = p.condition_id where p.wallet = ?`,
    [wallet],
  );
  const lastDay = points.length ? points.at(-1)!.t / DAY - 1 : -Infinity;
  const remainder = (Number(extra?.micro ?? 0) + Number(extra?.unredeemed ?? 0)) / 1e6 - prev;
  if (extra?.latest && Math.floor(extra.latest / DAY) > lastDay && Math.abs(remainder) > 1e-6)
    add(Math.floor(extra.latest / DAY), remainder, 0);
  return out;
}

/** The streak a wallet has at `now` from its days, as the contract defines it (ending today or yesterday). */
function currentStreak(d: Map<number, { pnl: number; closes: number }>, now: number) {
  const good = (day: number) => (d.get(day)?.pnl ?? 0) > 0 && (d.get(day)?.closes ?? 0) > 0;
  let day = Math.floor(now / DAY);
  if (!good(day)) day--;
  let streak = 0;
  while (good(day--)) streak++;
  return streak;
}

describe("highlights", () => {
  it("counts streaks of profitable UTC days and finds the biggest win", async () => {
    const wallets = await f.q<{ wallet: string }>(
      "select wallet from wallet_stats where is_farmer = 0 order by profitable_streak desc, wallet limit 40",
    );
    for (const { wallet } of wallets) {
      const { body } = await f.get(`/api/v2/wallet/${wallet}/highlights`);
      const d = await days(wallet);
      const good = (day: number) => (d.get(day)?.pnl ?? 0) > 0 && (d.get(day)?.closes ?? 0) > 0;
      let best = 0;
      let run = 0;
      const sorted = [...d.keys()].sort((a, b) => a - b);
      for (let x = sorted[0] ?? 0; x <= (sorted.at(-1) ?? -1); x++) {
        run = good(x) ? run + 1 : 0;
        best = Math.max(best, run);
      }
      expect(body.current_streak_days).toBe(currentStreak(d, f.w.now));
      expect(body.best_streak_days).toBe(best);
      expect(body.profitable_days).toBe(sorted.filter(good).length);
      const top = f
        .posOf(wallet)
        .filter((p) => p.status === "closed" && p.net > 0)
        .sort((a, b) => b.net - a.net)[0];
      expect(body.biggest_win?.pnl ?? null).toEqual(top ? servedAs(top.net, AT.usd) : null);
    }
  });

  it("agrees with the ledger's profitable_streak at the ledger's as-of instant (its latest stored event)", async () => {
    const [fills] = await f.q<{ t: number }>("select max(ts) as t from fills");
    const [activity] = await f.q<{ t: number | null }>(
      "select max(ts) as t from wallet_activity where type not in ('REWARD', 'MAKER_REBATE', 'TAKER_REBATE')",
    );
    const asOf = Math.max(fills!.t, activity?.t ?? 0);
    const stats = await f.q<{ wallet: string; profitable_streak: number }>(
      "select wallet, profitable_streak from wallet_stats where is_farmer = 0 order by profitable_streak desc, wallet limit 40",
    );
    expect(stats.some((s) => s.profitable_streak > 0)).toBe(true);
    const start = f.w.clock.nowMs();
    try {
      f.w.clock.set(asOf * 1000);
      for (const s of stats)
        expect((await f.get(`/api/v2/wallet/${s.wallet}/highlights`)).body.current_streak_days, s.wallet).toBe(
          s.profitable_streak,
        );
    } finally {
      f.w.clock.set(start);
    }
  });
});

describe("hold", () => {
  it("medians the holds of positions closed in the window, as the wallet statistics do", async () => {
    const stats = await f.q<{ wallet: string; median_hold_days: number | null; hold_positions_count: number }>(
      "select wallet, median_hold_days, hold_positions_count from wallet_stats order by wallet limit 80",
    );
    for (const s of stats) {
      const { body } = await f.get(`/api/v2/wallet/${s.wallet}/hold`);
      const holds = f
        .posOf(s.wallet)
        .filter((p) => p.status === "closed" && p.closed_ts! >= f.w.now - 90 * DAY)
        .map((p) => (p.closed_ts! - p.first_ts) / DAY)
        .sort((a, b) => a - b);
      const n = holds.length;
      const median = n < 3 ? null : n % 2 ? holds[(n - 1) / 2]! : (holds[n / 2 - 1]! + holds[n / 2]!) / 2;
      expect(body.hold_positions_count).toBe(n);
      expect(body.hold_positions_count).toBe(s.hold_positions_count);
      if (median === null) expect(body.median_hold_days).toBeNull();
      else close(body.median_hold_days, median);
      if (s.median_hold_days === null) expect(body.median_hold_days).toBeNull();
      else close(body.median_hold_days, s.median_hold_days);
      expect(body.distribution.reduce((a: number, b: any) => a + b.count, 0)).toBe(n);
      expect(body.distribution[0].count).toBe(holds.filter((h) => h < 1).length);
      const open = f.posOf(s.wallet).filter((p) => p.status === "open");
      expect(body.open_positions).toBe(open.length);
      // Mean, extremes and the open positions' average age, from every position row read here.
      if (n < 3) expect(body.mean_hold_days).toBeNull();
      else close(body.mean_hold_days, holds.reduce((a, h) => a + h, 0) / n);
      if (n === 0) expect([body.shortest_hold_days, body.longest_hold_days]).toEqual([null, null]);
      else {
        close(body.shortest_hold_days, holds[0]!);
        close(body.longest_hold_days, holds[n - 1]!);
      }
      if (open.length === 0) expect(body.open_avg_age_days).toBeNull();
      else close(body.open_avg_age_days, open.reduce((a, p) => a + (f.w.now - p.first_ts), 0) / open.length / DAY);
    }
  });

  it("is kept for its second only: the open positions' ages move with the clock", async () => {
    const wallet = f.rich;
    const open = f.posOf(wallet).filter((p) => p.status === "open");
    expect(open.length).toBeGreaterThan(0);
    const first = (await f.get(`/api/v2/wallet/${wallet}/hold`)).body;
    const start = f.w.clock.nowMs();
    f.w.clock.advance(DAY * 1000);
    try {
      const later = (await f.get(`/api/v2/wallet/${wallet}/hold`)).body;
      close(later.open_avg_age_days, first.open_avg_age_days + 1);
    } finally {
      f.w.clock.set(start);
    }
    close((await f.get(`/api/v2/wallet/${wallet}/hold`)).body.open_avg_age_days, first.open_avg_age_days);
  });
});

describeWalletErrors(() => ({ get: f.get, known: f.rich }), ["insights", "closed-insights", "highlights", "hold"]);
