/**
 * The deterministic report quotes the wallet's figures as the API serves them at generation time: its saved inputs
 * equal the overview (and the insights, hold and changes-since pages it draws on) read at that moment, and every
 * figure in its text is one of those inputs as written. On every store backend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { openWorldApp, type WorldApp } from "../../test/support/world-app.js";
import { countText, decimalText, pctText, quotedFigures, unsupportedFigures, usdText } from "./figures.js";
import { cleanText, MAX_QUESTION_CHARS, type AnalysisInputs } from "./inputs.js";
import { adviceIn } from "./advice.js";
import { deterministicReport } from "./deterministic.js";
import { renderReport } from "./sections.js";
import { AT, expectServed, servedTree } from "../../test/support/served-numbers.js";

const DAY = 86_400;

describe.each(storeBackends)("deterministic report on $kind", (backend) => {
  let w: WorldApp;
  let wallets: string[];
  const json = async (url: string) => (await w.app.inject(url)).json();

  beforeAll(async () => {
    w = await openWorldApp({
      storeBackend: backend,
      env: { SMART_MIN_RESOLVED_MARKETS: "3", RANK_MIN_RESOLVED_MARKETS: "3" },
    });
    const q = w.store.db.selectFrom("wallet_stats").select("wallet").where("total_trades", ">", 0);
    const pick = async (where: (b: typeof q) => typeof q) =>
      (await where(q).orderBy("total_trades", "desc").orderBy("wallet").limit(2).execute()).map((r) => r.wallet);
    wallets = [
      ...new Set([
        ...(await pick((b) => b.where("is_smart", "=", 1))),
        ...(await pick((b) => b.where("is_farmer", "=", 1))),
        ...(await pick((b) => b.where("rank_pnl", "is not", null).where("is_smart", "=", 0))),
        ...(await pick((b) => b.where("resolved", "=", 0))),
      ]),
    ];
  }, 120_000);
  afterAll(async () => w?.close());

  it("covers Smart Money, farmers, ranked and unresolved wallets", () => {
    expect(wallets.length).toBeGreaterThanOrEqual(6);
  });

  it("saves inputs equal to the overview, insights, hold and changes-since at generation time", async () => {
    for (const wallet of wallets) {
      const generated = (
        await w.app.inject({ method: "POST", url: `/api/v2/wallet/${wallet}/ai-analysis/generate?force=true` })
      ).json();
      expect(generated.generator).toBe("deterministic");
      const x = generated.inputs as AnalysisInputs;
      const now = w.clock.now();
      const [overview, insights, hold, changes] = await Promise.all([
        json(`/api/v2/wallet/${wallet}`),
        json(`/api/v2/wallet/${wallet}/insights`),
        json(`/api/v2/wallet/${wallet}/hold`),
        json(`/api/v2/wallet/${wallet}/changes-since?since=${now - 7 * DAY}`),
      ]);
      expect(x.generated_for).toBe(now);
      expect(x.as_of).toBe(overview.as_of);
      expect(x.wallet).toEqual({ address: wallet, name: overview.profile.name, pseudonym: overview.profile.pseudonym });
      expect(x.stats).toEqual(overview.stats);
      const { profit_factor: _pf, ...counts } = overview.overview;
      expect(x.overview).toEqual({
        ...counts,
        last_trade_date: new Date(overview.overview.last_trade * 1000).toISOString().slice(0, 10),
      });
      const { is_smart: _smart, ...rankings } = overview.rankings;
      expect(x.rankings).toEqual(rankings);
      const traded = insights.categories.filter(
        (c: { volume_share_pct: number; closed_positions: number }) => c.volume_share_pct > 0 || c.closed_positions > 0,
      );
      expect(x.categories).toEqual(expect.arrayContaining(traded));
      expect(x.categories).toHaveLength(traded.length);
      for (const c of x.categories) expect(c.volume_share_pct).toBe(overview.categories[c.category]);
      expect(x.entry_prices).toEqual(
        insights.entry_price_buckets.filter((b: { closed_positions: number }) => b.closed_positions > 0),
      );
      const { address: _a, min_positions: _m, distribution: _d, hold_positions_count: _h, ...holdFigures } = hold;
      expect(x.hold).toEqual({ ...holdFigures, avg_hold_days_all_closed: insights.avg_hold_days });
      const move = changes.last_move;
      expect(x.recent).toEqual({
        days: 7,
        trades_count: changes.trades_count,
        volume_usd: changes.volume_usd,
        pnl_delta: changes.pnl_delta,
        last_move: move
          ? {
              question: cleanText(move.question, MAX_QUESTION_CHARS),
              action_label: move.action_label,
              usd: move.usd,
              date: new Date(move.ts * 1000).toISOString().slice(0, 10),
            }
          : null,
      });
      const o = overview.overview;
      // Served in cents, from a served total that is itself rounded to cents.
      expectServed(x.sizes.avg_fill_usd, o.total_volume / o.total_trades, AT.usd, [AT.usd], "avg_fill_usd");
      expectServed(x.sizes.volume_per_market_usd, o.total_volume / o.total_markets, AT.usd, [AT.usd], "per market");
      const board = await w.store.db
        .selectFrom("wallet_stats")
        .select(["avg_entry_price", "volume_30d"])
        .where("wallet", "=", wallet)
        .executeTakeFirstOrThrow();
      expect([x.sizes.avg_entry_price, x.sizes.volume_30d]).toEqual(
        servedTree([board.avg_entry_price, board.volume_30d]),
      );
    }
  });

  it("quotes no figure that is not one of those inputs, and quotes the overview's main figures", async () => {
    for (const wallet of wallets) {
      const { report, inputs, sections } = (
        await w.app.inject({ method: "POST", url: `/api/v2/wallet/${wallet}/ai-analysis/generate` })
      ).json();
      const x = inputs as AnalysisInputs;
      expect(sections).toHaveLength(7);
      expect(unsupportedFigures(report, x)).toEqual([]);
      expect(adviceIn(report)).toBeNull();
      expect(quotedFigures(report).length).toBeGreaterThan(15);
      for (const figure of [
        usdText(x.stats.total_pnl),
        pctText(x.stats.win_rate),
        countText(x.overview.total_trades),
        decimalText(x.stats.profit_factor),
        usdText(x.overview.total_volume),
      ]) {
        expect(report).toContain(figure);
      }
      expect(report).toContain(x.stats.is_smart ? "This wallet is Smart Money" : "This wallet is not Smart Money");
      if (x.stats.is_farmer) expect(report).toContain(`by the ${x.stats.farmer_reason} test`);
      // The check is not blind: one figure changed by a cent is caught.
      const altered = report.replace(
        usdText(x.stats.total_pnl),
        usdText(x.stats.total_pnl + (x.stats.total_pnl < 0 ? -0.01 : 0.01)),
      );
      expect(unsupportedFigures(altered, x)).toEqual([usdText(Math.abs(x.stats.total_pnl) + 0.01).replace("-", "")]);
    }
  });

  it("quotes venue names and questions inert: no markup, URLs defanged, and never advice", async () => {
    const wallet = wallets[0]!;
    const { inputs } = (
      await w.app.inject({ method: "POST", url: `/api/v2/wallet/${wallet}/ai-analysis/generate` })
    ).json();
    const x = inputs as AnalysisInputs;
    const hostile: AnalysisInputs = {
      ...x,
      wallet: { ...x.wallet, name: "<img src=x onerror=alert(1)>", pseudonym: "[win](https://evil.example/p)" },
      recent: {
        ...x.recent,
        last_move: {
          question: "Will <script>steal()</script> happen? www.evil.example",
          action_label: "Bought YES",
          usd: 12.5,
          date: "2026-11-20",
        },
      },
    };
    const report = renderReport(deterministicReport(hostile));
    expect(report).toContain('"\uff1cimg src=x onerror=alert(1)\uff1e"');
    expect(report).toContain('"\uff3bwin\uff3d(hxxps://evil[.]example/p)"');
    expect(report).toContain('"Will \uff1cscript\uff1esteal()\uff1c/script\uff1e happen? www[.]evil[.]example"');
    for (const markup of ["<", ">", "](", "https://", "www.evil"]) expect(report, markup).not.toContain(markup);
    expect(adviceIn(report)).toBeNull();
    expect(adviceIn(renderReport(deterministicReport(x)))).toBeNull();
    expect(unsupportedFigures(report, hostile)).toEqual([]);
  });
});
