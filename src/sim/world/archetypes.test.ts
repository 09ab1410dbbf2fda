import { describe, expect, it } from "vitest";
import { referencePnl } from "./reference-pnl.js";
import { smallWorld } from "./testing/worlds.js";
import type { Archetype } from "./types.js";

// A mid-size world: enough markets and wallets for every archetype to show its behaviour.
const world = smallWorld(2026, { markets: 160, wallets: 1_500, fills: 60_000, days: 90 });
const t = world.tables;
const members = (a: Archetype) => world.wallets.filter((w) => w.archetype === a).map((w) => w.index);
const fillsOf = (w: number) => [...world.fillsOfWallet(w)].map((f) => world.fill(f));
const volume = (w: number) => fillsOf(w).reduce((s, f) => s + f.usd / 1e6, 0);

describe("archetypes behave as labelled", () => {
  it("favourite farmers only buy above 0.95", () => {
    let active = 0;
    for (const w of members("favourite_farmer")) {
      const buys = fillsOf(w).filter((f) => f.side === "BUY");
      if (buys.length === 0) continue;
      active++;
      const usd = buys.reduce((s, f) => s + f.usd, 0);
      const weighted = buys.reduce((s, f) => s + (f.usd * f.price) / 1e6, 0);
      expect(weighted / usd).toBeGreaterThan(0.95);
    }
    expect(active).toBeGreaterThan(10);
  });

  it("volume bots make many fills under 20 USD", () => {
    const retailMedian = members("retail")
      .map((w) => world.fillsOfWallet(w).length)
      .sort((a, b) => a - b)[700]!;
    for (const w of members("volume_bot")) {
      const fills = fillsOf(w);
      expect(fills.every((f) => f.usd < 20 * 1e6)).toBe(true);
      expect(fills.length).toBeGreaterThan(10 * Math.max(1, retailMedian));
    }
  });

  it("market makers are MINT/MERGE heavy, hold both sides, and net close to zero", () => {
    let pnl = 0;
    let vol = 0;
    const ratios: number[] = [];
    // Per market, the makers' P&L there: markets move independently, so these are the group's independent draws.
    const byMarket = new Map<number, number>();
    for (const w of members("market_maker")) {
      const fills = fillsOf(w);
      const v = volume(w);
      const mintMerge = fills.filter((f) => f.entryType !== "COMPLEMENTARY").reduce((s, f) => s + f.usd / 1e6, 0);
      expect(mintMerge / v).toBeGreaterThan(0.6);
      // markets where the wallet held YES and NO at the same time
      const held = new Map<number, [number, number]>();
      const both = new Set<number>();
      const events = [
        ...fills.map((f) => ({
          ts: f.ts,
          log: f.logIndex,
          m: f.market,
          o: f.outcome,
          d: f.side === "BUY" ? f.size : -f.size,
        })),
      ];
      for (const i of world.opsOfWallet(w)) {
        const op = world.op(i);
        if (op.type === "SPLIT" || op.type === "MERGE")
          for (const o of [0, 1])
            events.push({
              ts: op.ts,
              log: op.logIndex,
              m: op.market,
              o: o as 0 | 1,
              d: op.type === "SPLIT" ? op.amount : -op.amount,
            });
      }
      events.sort((a, b) => a.ts - b.ts || a.log - b.log);
      for (const e of events) {
        const h = held.get(e.m) ?? [0, 0];
        h[e.o] += e.d;
        held.set(e.m, h);
        if (h[0] > 0 && h[1] > 0) both.add(e.m);
      }
      expect(both.size / held.size).toBeGreaterThan(0.4);
      const ref = referencePnl(world, w);
      const own = ref.totalPnl;
      for (const p of ref.positions) byMarket.set(p.market, (byMarket.get(p.market) ?? 0) + p.realizedPnl + p.cashPnl);
      for (const p of ref.closedPositions) byMarket.set(p.market, (byMarket.get(p.market) ?? 0) + p.realizedPnl);
      ratios.push(Math.abs(own) / v);
      pnl += own;
      vol += v;
    }
    // Inventory held while prices drift leaves each maker a small P&L either way; the group nets to about zero: any
    // edge under 1% of its volume, beyond three standard deviations of that drift (one world's draw of it passed
    // 1.5% of the volume on its own, so a bare 1% held for some worlds and not others).
    const drift = Math.sqrt([...byMarket.values()].reduce((s, x) => s + x * x, 0));
    expect(Math.abs([...byMarket.values()].reduce((s, x) => s + x, 0) - pnl)).toBeLessThan(1);
    expect(Math.abs(pnl)).toBeLessThan(0.01 * vol + 3 * drift);
    expect(ratios.filter((r) => r < 0.02).length / ratios.length).toBeGreaterThan(0.7);
  });

  it("wash rings trade among themselves and net to zero", () => {
    for (const ring of world.population.washRings) {
      const inRing = new Set(ring);
      let fills = 0;
      let within = 0;
      // Exact cash: what the ring paid and received, plus what it still holds at the mark (the reference P&L's
      // average prices are truncated to the micro-dollar, which leaves up to a dollar or so over a ring's positions).
      let cash = 0;
      const held = new Map<number, number>();
      const hold = (token: number, shares: number) => held.set(token, (held.get(token) ?? 0) + shares);
      for (const w of ring) {
        for (const f of fillsOf(w)) {
          fills++;
          if (inRing.has(f.counterparty)) within++;
          cash += ((f.side === "SELL" ? 1 : -1) * f.usd) / 1e6;
          hold(f.market * 2 + f.outcome, f.side === "BUY" ? f.size : -f.size);
        }
        for (const i of world.opsOfWallet(w)) {
          const op = world.op(i);
          expect(op.type).toBe("REDEEM");
          const truth = world.markets[op.market]!.truth;
          cash += (truth === 0 ? op.amount : truth === 1 ? op.amount2 : (op.amount + op.amount2) / 2) / 1e6;
          hold(op.market * 2, -op.amount);
          hold(op.market * 2 + 1, -op.amount2);
        }
      }
      if (fills === 0) continue;
      let value = 0;
      for (const [token, shares] of held) value += (shares * world.markPrice(token >> 1, token & 1, world.end)) / 1e12;
      expect(within / fills).toBe(1);
      expect(Math.abs(cash + value)).toBeLessThan(0.01);
      expect(inRing.size).toBeLessThanOrEqual(5);
    }
  });

  it("whales hold positions above 200,000 USD and some flip side", () => {
    const whales = [...members("whale"), ...members("aligned_whale")];
    let big = 0;
    let flips = 0;
    for (const w of whales) {
      const r = referencePnl(world, w);
      const cost = Math.max(
        0,
        ...r.positions.map((p) => p.size * p.avgPrice),
        ...r.closedPositions.map((p) => p.totalBought * p.avgPrice),
      );
      if (cost > 200_000) big++;
      const sold = new Map<number, number>();
      for (const f of fillsOf(w)) {
        if (f.role !== "taker") continue;
        if (f.side === "SELL") sold.set(f.market * 2 + f.outcome, f.ts);
        else if (sold.has(f.market * 2 + (1 - f.outcome)) && f.ts > sold.get(f.market * 2 + (1 - f.outcome))!) {
          flips++;
          sold.delete(f.market * 2 + (1 - f.outcome));
        }
      }
    }
    expect(big / whales.length).toBeGreaterThan(1 / 3);
    expect(flips).toBeGreaterThan(0);
  });

  it("flipping whales finish their reversals and stay profitable", () => {
    const flippers = members("whale").filter((w) => world.population.flipper[w] === 1);
    let reversals = 0;
    for (const w of flippers) {
      // Net exposure per market (cost of the YES held minus the NO held, sales at average cost) from the fills.
      const shares = new Map<number, number>();
      const cost = new Map<number, number>();
      const sign = new Map<number, number>();
      for (const f of fillsOf(w)) {
        const token = f.market * 2 + f.outcome;
        const held = shares.get(token) ?? 0;
        const paid = cost.get(token) ?? 0;
        if (f.side === "BUY") {
          shares.set(token, held + f.size);
          cost.set(token, paid + f.usd / 1e6);
        } else {
          shares.set(token, held - f.size);
          cost.set(token, held > 0 ? paid * Math.max(0, 1 - f.size / held) : 0);
        }
        const net = (cost.get(f.market * 2) ?? 0) - (cost.get(f.market * 2 + 1) ?? 0);
        const now = net >= 100 ? 1 : net <= -100 ? -1 : 0;
        if (now !== 0 && sign.has(f.market) && sign.get(f.market) !== now) reversals++;
        if (now !== 0) sign.set(f.market, now);
      }
    }
    expect(flippers.length).toBeGreaterThan(3);
    // Reversals completed (a flip of a net of at least $100 to the other side), several per flipper.
    expect(reversals).toBeGreaterThan(2 * flippers.length);
    const profitable = flippers.filter((w) => referencePnl(world, w).totalPnl > 0).length;
    expect(profitable / flippers.length).toBeGreaterThan(0.7);
  });

  it("aligned whales stand on the same side across markets of one event", () => {
    let clusters = 0;
    world.population.alignedGroups.forEach((group, g) => {
      for (const e of world.audience.groupEvents[g]!) {
        const markets = world.events[e]!.marketIndexes;
        const sides = new Map<string, number>();
        for (const w of group) {
          const net = new Map<number, number>();
          for (const f of fillsOf(w))
            if (markets.includes(f.market))
              net.set(
                f.market,
                (net.get(f.market) ?? 0) + (f.side === "BUY" ? 1 : -1) * (f.outcome === 0 ? f.usd : -f.usd),
              );
          for (const [m, v] of net)
            if (v !== 0)
              sides.set(`${m}:${v > 0 ? "YES" : "NO"}`, (sides.get(`${m}:${v > 0 ? "YES" : "NO"}`) ?? 0) + 1);
        }
        const aligned = [...sides.values()].filter((n) => n >= 3).length;
        if (group.length >= 3 && aligned >= 2) clusters++;
      }
    });
    expect(clusters).toBeGreaterThan(0);
  });

  it("NegRisk converters convert", () => {
    const converters = new Set(members("negrisk_converter"));
    const converting = new Set<number>();
    for (let i = 0; i < t.opCount; i++) if (world.op(i).type === "CONVERSION") converting.add(world.op(i).wallet);
    expect([...converting].every((w) => converters.has(w))).toBe(true);
    expect(converting.size / converters.size).toBeGreaterThan(0.5);
  });

  it("skilled wallets buy the winning side more often than the price implies; noise does not", () => {
    const edge = (a: Archetype) => {
      let sum = 0;
      let n = 0;
      for (const w of members(a)) {
        for (const f of fillsOf(w)) {
          const m = world.markets[f.market]!;
          if (f.side !== "BUY" || f.role !== "taker" || m.status !== "resolved" || m.truth === 2) continue;
          sum += (m.truth === f.outcome ? 1 : 0) - f.price / 1e6;
          n++;
        }
      }
      return sum / n;
    };
    expect(edge("skilled")).toBeGreaterThan(0.07);
    expect(Math.abs(edge("noise"))).toBeLessThan(0.05);
    expect(Math.abs(edge("retail"))).toBeLessThan(0.05);
  });
});
