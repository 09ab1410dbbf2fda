import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LedgerFill } from "../ledger/index.js";
import { T0, buy, market, tokenOf } from "../ledger/testing/events.js";
import { Derivation } from "./derivation.js";
import { HOUR, HourlyPointColumns, LiveHours, PriceHistory, StreamedHours } from "./hourly-points.js";
import { rowChunks } from "../store/derived-tables.js";
import { deriveConfig } from "./testing/stored-world.js";

const W = "0x1111000000000000000000000000000000000001";
const V = "0x2222000000000000000000000000000000000002";
const at = (hours: number, minutes = 0) => T0 + hours * HOUR + minutes * 60;

// m1 resolves YES at 13:30. W buys 100 YES at 0.40 at 10:15; V buys 50 YES at 0.50 at 11:20.
const facts = [market("m1", { resolution: "YES", resolvedAt: at(13, 30) })];
const events: LedgerFill[] = [
  buy(W, "m1", 0, 100, 0.4, { ts: at(10, 15) }),
  buy(V, "m1", 0, 50, 0.5, { ts: at(11, 20) }),
];
const now = at(15);
const sorted = <T extends { wallet: string; t: number }>(rows: T[]) =>
  [...rows].sort((a, b) => a.t - b.t || (a.wallet < b.wallet ? -1 : 1));

// By hand: 11:00, W's own fill in the hour before, worth 100 x (0.40 - 0.40) = 0. 12:00, V's fill moved the price W
// holds at to 0.50: W 100 x 0.10 = 10, V (its own fill) 50 x 0 = 0. 13:00: nothing happened. 14:00, m1 resolved in
// the hour before: W 100 x (1 - 0.40) = 60, V 50 x (1 - 0.50) = 25.
const expected = [
  { wallet: W, resolution: "hour", t: at(11), pnl: 0 },
  { wallet: W, resolution: "hour", t: at(12), pnl: 10 },
  { wallet: V, resolution: "hour", t: at(12), pnl: 0 },
  { wallet: W, resolution: "hour", t: at(14), pnl: 60 },
  { wallet: V, resolution: "hour", t: at(14), pnl: 25 },
];

function observe(prices: PriceHistory, fill: LedgerFill): void {
  prices.observe(fill.tokenId, fill.conditionId, fill.ts, null, fill.usd, fill.size);
}

describe("hourly P&L points", () => {
  it("are taken at each boundary after an event, a trade in a held token or a resolution, at the last fill's price", () => {
    const d = new Derivation(facts, deriveConfig());
    const live = new LiveHours(new PriceHistory(T0), T0 + HOUR, [], 8);
    for (const fill of events) {
      observe(live.prices, fill);
      live.upTo(d, fill.ts, now);
      d.apply(fill, { ts: fill.ts, logIndex: null, kind: 0 });
      live.eventApplied(fill.wallet);
    }
    live.upTo(d, now, now);
    expect(sorted(live.pending)).toEqual(expected);
  });

  it("are the same when a rebuild streams the wallets one after the other, with the window's prices read first", () => {
    const d = new Derivation(facts, deriveConfig());
    const prices = new PriceHistory(T0);
    for (const fill of events) observe(prices, fill);
    const hours = new StreamedHours(T0 + HOUR, now, prices, () => Number.NEGATIVE_INFINITY);
    // V's events first, then W's: wallets never see each other but through the prices.
    for (const fill of [...events].reverse()) {
      hours.before(d.state, fill.wallet, fill.wallet, fill.ts);
      d.state.apply(fill);
      hours.after(fill.wallet, fill.ts);
    }
    hours.finish(
      d.state,
      [W, V].map((address) => ({ address, key: address })),
      now,
    );
    expect(sorted([...hours.points.rows()])).toEqual(expected);
  });

  it("keep only the prices a window needs: before its start, the last fill", () => {
    const prices = new PriceHistory(T0);
    const token = tokenOf("m1", 0);
    for (const [hour, price] of [
      [1, 0.3],
      [2, 0.35],
      [5, 0.6],
    ] as const)
      prices.observe(token, "m1", at(hour, 10), null, price * 1e8, 1e8);
    prices.moveWindow(at(3));
    expect(prices.priceBefore(token, at(3))).toBe(350_000);
    expect(prices.priceBefore(token, at(6))).toBe(600_000);
    expect(prices.tradedIn(token, at(5))).toBe(true);
    expect(prices.tradedIn(token, at(2))).toBe(false);
    expect([...prices.marketsTradedIn(at(5))]).toEqual(["m1"]);
  });
});

describe("HourlyPointColumns", () => {
  it("gives back every point pushed, in order (and in chunks of rowChunks), past its growth", () => {
    const wallets = [W, V, "0x3333000000000000000000000000000000000003"];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 1, max: 700 }),
        fc.double(),
        (count, size, scale) => {
          const rows = Array.from({ length: count }, (_, i) => ({
            wallet: wallets[(i * 7) % 3]!,
            resolution: "hour" as const,
            t: T0 + i * HOUR,
            pnl: (i - count / 2) * scale,
          }));
          const columns = new HourlyPointColumns();
          for (const row of rows) columns.push(row);
          expect(columns.length).toBe(count);
          expect([...columns.rows()]).toEqual(rows);
          const chunks = [...rowChunks(columns.rows(), size)];
          expect(chunks.slice(0, -1).every((chunk) => chunk.length === size)).toBe(true);
          expect(chunks.flat()).toEqual(rows);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("gives each wallet's points once, in the order taken, then the wallets' not taken", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 400, size: "max" }),
        fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 8 }),
        (walletOfPoint, takenOrder) => {
          const address = (n: number) => `0x${String(n).padStart(40, "0")}`;
          const rows = walletOfPoint.map((n, i) => ({
            wallet: address(n),
            resolution: "hour" as const,
            t: T0 + i * HOUR,
            pnl: i,
          }));
          const columns = new HourlyPointColumns();
          for (const row of rows) columns.push(row);
          const byWallet = columns.byWallet();
          const given = takenOrder.flatMap((n) => byWallet.take(address(n)));
          const taken = new Set(takenOrder.map(address));
          for (const wallet of taken)
            expect(given.filter((r) => r.wallet === wallet)).toEqual(rows.filter((r) => r.wallet === wallet));
          const rest = [...byWallet.rest()];
          expect(rest.every((r) => !taken.has(r.wallet))).toBe(true);
          expect([...given, ...rest].sort((a, b) => a.t - b.t)).toEqual(rows);
        },
      ),
      { numRuns: 100 },
    );
  });
  it("gives each wallet's latest point at or before a cutoff, the first of equal times", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 30 })), {
          maxLength: 300,
          size: "max",
        }),
        fc.integer({ min: -1, max: 31 }),
        (points, cutoffHour) => {
          const address = (n: number) => `0x${String(n).padStart(40, "0")}`;
          const columns = new HourlyPointColumns();
          points.forEach(([wallet, hour], i) =>
            columns.push({ wallet: address(wallet), resolution: "hour", t: T0 + hour * HOUR, pnl: i }),
          );
          const cutoff = T0 + cutoffHour * HOUR;
          const expected = new Map<string, { t: number; p: number }>();
          points.forEach(([wallet, hour], i) => {
            const t = T0 + hour * HOUR;
            const known = expected.get(address(wallet));
            if (t <= cutoff && (!known || t > known.t)) expected.set(address(wallet), { t, p: i });
          });
          expect(columns.latestAtOrBefore(cutoff)).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
