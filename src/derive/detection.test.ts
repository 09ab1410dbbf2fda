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
      const rows = stats.get(archetype)!;
      expect(rows.length).toBeGreaterThan(5);
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
