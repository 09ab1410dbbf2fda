/**
 * The demo's whale flips: the world `pelagic demo` makes at its defaults (its seed, WORLD_DEFAULTS, ending at the
 * hour), at the demo's thresholds (`demoThresholds`), served by the API with a Premium key, answers
 * /api/v2/whale-flips with flips of Smart Money whales, the flipping whales the world planted. The store holds the
 * whales' rows only (every market and resolution): a wallet's ledger is its own, and the flips read whales alone,
 * so their statistics and positions are the demo's at a fraction of its 300,000 fills. The history after a cut
 * nine days back is committed batch by batch through the Deriver, as the demo's ingest commits it, which takes the
 * daily position snapshots the flips compare with.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../../src/accounts/keys.js";
import { demoThresholds } from "../../src/commands/demo.js";
import { WORLD_FLAGS } from "../../src/commands/world-flags.js";
import { loadConfig } from "../../src/config/index.js";
import { Deriver } from "../../src/derive/deriver.js";
import { deriveConfig, loadWorld } from "../../src/derive/testing/stored-world.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import { WORLD_DEFAULTS, generateWorld, type World } from "../../src/sim/world/index.js";
import { CHAIN_LOGS_SOURCE, recordHistoryFrom, saveCheckpoint } from "../../src/store/checkpoints.js";
import { openTestApp, type TestApp } from "../support/app.js";
import { sqliteBackend } from "../support/backends.js";
import { historyEnd } from "../support/world-end.js";

const DAY = 86_400;

interface Flip {
  wallet: string;
  old_side: string;
  new_side: string;
  swing_usd: number;
}

describe("the demo's world has whale flips", () => {
  let world: World;
  let t: TestApp;
  let deriver: Deriver;
  let key: string;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    const end = historyEnd();
    world = generateWorld({ seed: Number(WORLD_FLAGS.seed.default), end, ...WORLD_DEFAULTS });
    const demo = demoThresholds(loadConfig({}));
    const env = {
      FLIP_MIN_SWING_USD: String(demo.whales.flipMinSwingUsd),
      // As the demo: its chain history starts at the world's first day, so wins and losses are the ledger's.
      VENUE_HISTORY_START: new Date(world.start * 1000).toISOString().slice(0, 10),
    };
    const whales = new Set(
      world.wallets.filter((w) => w.archetype === "whale" || w.archetype === "aligned_whale").map((w) => w.proxyWallet),
    );
    const opened = await sqliteBackend.open();
    dispose = opened.dispose;
    const store = opened.store;
    await saveCheckpoint(store.db, CHAIN_LOGS_SOURCE, "", end);
    await recordHistoryFrom(store.db, CHAIN_LOGS_SOURCE, world.start);
    const cut = Math.floor(end / DAY) * DAY - 9 * DAY;
    await loadWorld(store, world, { range: { to: cut }, updatedAt: end, wallets: whales });
    deriver = new Deriver({
      store,
      config: deriveConfig(env),
      clock: new ManualClock(end * 1000),
      logger: createLogger("silent"),
    });
    await deriver.start();
    await loadWorld(store, world, {
      range: { from: cut },
      updatedAt: end,
      wallets: whales,
      onBatch: (batch) => deriver.onCommitted(batch),
    });
    await deriver.idle();
    await deriver.refresh({ full: true });
    t = await openTestApp({
      env,
      storeBackend: { kind: "sqlite", open: async () => ({ store, dispose: async () => {} }) },
    });
    t.clock.set(end * 1000);
    key = (await createKey(store.db, { account: "demo-flips", plan: "premium", now: end })).key;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await deriver?.stop();
    await dispose?.();
  });

  const get = async <T>(url: string): Promise<T> => {
    const res = await t.app.inject({ method: "GET", url, headers: { "x-api-key": key } });
    expect(res.statusCode, url).toBe(200);
    return JSON.parse(res.body) as T;
  };

  it("answers /api/v2/whale-flips (7 days) with flips of Smart Money whales that the world planted as flippers", async () => {
    const { flips } = await get<{ flips: Flip[] }>("/api/v2/whale-flips?limit=100");
    console.log(`the demo's world: ${flips.length} whale flips over 7 days at the demo's thresholds`);
    expect(flips.length).toBeGreaterThan(0);
    const byAddress = new Map(world.wallets.map((w) => [w.proxyWallet, w]));
    for (const flip of flips) {
      expect(flip.swing_usd).toBeGreaterThanOrEqual(5_000);
      const stats = await t.store.db
        .selectFrom("wallet_stats")
        .select(["is_smart", "is_farmer"])
        .where("wallet", "=", flip.wallet)
        .executeTakeFirstOrThrow();
      expect(Number(stats.is_smart), flip.wallet).toBe(1);
      expect(Number(stats.is_farmer), flip.wallet).toBe(0);
      const planted = byAddress.get(flip.wallet)!;
      expect(world.population.flipper[planted.index], flip.wallet).toBe(1);
    }
    expect((await get<{ flips: Flip[] }>("/api/public/v1/whale-flips?days=7&limit=100")).flips).toEqual(flips);
  });

  it("records each flip of the last day in the scorecard's chain once, backing the new side", async () => {
    const { flips } = await get<{ flips: Array<Flip & { condition_id: string }> }>(
      "/api/public/v1/whale-flips?days=1&limit=100",
    );
    const resolved = new Set(
      (await t.store.db.selectFrom("market_resolutions").select("condition_id").execute()).map((r) => r.condition_id),
    );
    const open = flips.filter((f) => !resolved.has(f.condition_id));
    const recorded = await t.store.db
      .selectFrom("signal_ledger")
      .select(["wallet", "condition_id", "outcome_index"])
      .where("kind", "=", "whale_flip")
      .execute();
    console.log(`the demo's world: ${open.length} whale flips over the last day about open markets`);
    expect(open.length).toBeGreaterThan(0);
    const key = (wallet: string | null, condition: string, side: string) => `${wallet} ${condition} ${side}`;
    expect(recorded.map((r) => key(r.wallet, r.condition_id, r.outcome_index === 0 ? "YES" : "NO")).sort()).toEqual(
      open.map((f) => key(f.wallet, f.condition_id, f.new_side)).sort(),
    );
    // The next refresh finds the same flips and records none of them again.
    await deriver.refresh({ full: true });
    const again = await t.store.db.selectFrom("signal_ledger").select("seq").where("kind", "=", "whale_flip").execute();
    expect(again).toHaveLength(recorded.length);
  });
});
