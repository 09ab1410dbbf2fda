import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteBackend } from "../../test/support/backends.js";
import { ManualClock } from "../platform/clock.js";
import { generateWorld, type Archetype } from "../sim/world/index.js";
import { TEST_END } from "../sim/world/testing/worlds.js";
import type { WalletStatsTable } from "../store/schema.js";
import { rebuild } from "./rebuild.js";
import { deriveConfig, loadWorld } from "./testing/stored-world.js";

// Large enough for skilled traders to reach the badge's 30 resolved markets; bench/derive.bench.ts measures bigger worlds.
const world = generateWorld({ seed: 7, end: TEST_END, markets: 200, wallets: 600, fills: 40_000, days: 120 });
const FARMERS: readonly Archetype[] = ["favourite_farmer", "volume_bot", "market_maker", "wash_trader"];

/**
 * The wash-trading rule worked out from the world's fills (docs/METRICS.md, `wash_trading`): per counterparty and
 * token, the shares both bought from and sold to it, valued at the average buy plus the average sell price; the share
 * of the wallet's volume that its 5 largest such counterparties make.
 */
function ringShare(address: string): number {
  const w = world.wallets.find((x) => x.proxyWallet === address)!.index;
  // per counterparty and token: [shares bought, USD bought, shares sold, USD sold]
  const legs = new Map<string, number[]>();
  let volume = 0;
  for (const i of world.fillsOfWallet(w)) {
    const f = world.fill(i);
    volume += f.usd;
    const key = `${f.counterparty}:${f.token}`;
    const leg = legs.get(key) ?? [0, 0, 0, 0];
    const at = f.side === "BUY" ? 0 : 2;
    leg[at]! += f.size;
    leg[at + 1]! += f.usd;
    legs.set(key, leg);
  }
  const byCounterparty = new Map<string, number>();
  for (const [key, [bought, boughtUsd, sold, soldUsd]] of legs) {
    const matched = Math.min(bought!, sold!);
    if (matched === 0) continue;
    const counterparty = key.split(":")[0]!;
    const usd = matched * (boughtUsd! / bought! + soldUsd! / sold!);
    byCounterparty.set(counterparty, (byCounterparty.get(counterparty) ?? 0) + usd);
  }
  const ring = [...byCounterparty.values()].sort((a, b) => b - a).slice(0, 5);
  return volume > 0 ? ring.reduce((s, x) => s + x, 0) / volume : 0;
}

describe("farmer test and skill badge on a simulated world (SQLite)", () => {
  const backend = sqliteBackend;
  let dispose: () => Promise<void>;
  const stats = new Map<Archetype, WalletStatsTable[]>();

  beforeAll(async () => {
    const opened = await backend.open();
    dispose = opened.dispose;
    await loadWorld(opened.store, world);
    await rebuild(opened.store, deriveConfig(), new ManualClock((world.end + 3_600) * 1000));
    const rows = new Map(
      (await opened.store.db.selectFrom("wallet_stats").selectAll().execute()).map((row) => [row.wallet, row]),
    );
    for (const wallet of world.wallets) {
      const row = rows.get(wallet.proxyWallet);
      if (row) stats.set(wallet.archetype, [...(stats.get(wallet.archetype) ?? []), row]);
    }
  });
  afterAll(() => dispose());

  it("catches every farmer, bot, market maker and wash trader, and names the test each failed", () => {
    for (const archetype of FARMERS) {
      const all = stats.get(archetype)!;
      expect(all.length).toBeGreaterThan(5);
      // A planted wash trader is one by the rule only when its ring share reaches the threshold (some of the sim's
      // hold what their ring minted against them to resolution): those, well above it, and more than half of them.
      const rows = archetype === "wash_trader" ? all.filter((row) => ringShare(row.wallet) >= 0.25) : all;
      expect(rows.length / all.length).toBeGreaterThan(0.5);
      for (const row of rows) {
        expect(row.is_farmer, `${archetype} ${row.wallet}`).toBe(1);
        expect(row.farmer_reason).toMatch(/^(favourite_farming|reward_volume_farming|two_sided_farming|wash_trading)$/);
        expect(row.is_smart).toBe(0);
      }
    }
    expect(stats.get("favourite_farmer")!.every((row) => row.farmer_reason === "favourite_farming")).toBe(true);
  });

  it("spares the skilled traders, and gives the skill badge to skilled traders only, never to lucky noise", () => {
    const skilled = stats.get("skilled")!;
    expect(skilled.every((row) => row.is_farmer === 0)).toBe(true);
    expect(skilled.filter((row) => row.is_smart === 1).length).toBeGreaterThan(skilled.length / 2);
    const badged = [...stats].flatMap(([archetype, rows]) =>
      rows.filter((row) => row.has_skill === 1).map((row) => ({ archetype, row })),
    );
    expect(badged.length).toBeGreaterThan(0);
    expect(badged.every(({ archetype }) => archetype === "skilled")).toBe(true);
    for (const { row } of badged) {
      expect(row.skill_z!).toBeGreaterThanOrEqual(2.33);
      expect(row.skill_sample).toBeGreaterThan(0);
      expect(row.edge_bps!).toBeGreaterThan(0);
    }
    // Noise traders win by luck only: none earns the badge, whatever its win rate.
    expect(stats.get("noise")!.some((row) => row.has_skill === 1)).toBe(false);
  });
});
