/**
 * GET /api/v2/wallet/{address}/fees reads the sums the Deriver keeps per wallet and month (`wallet_fees`): a fill
 * committed after the Deriver started shows in the answer once its batch is applied. Expectations are the fills'
 * own sums, computed here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Deriver } from "../../src/derive/deriver.js";
import { deriveConfig, loadWorld, worldFillRows } from "../../src/derive/testing/stored-world.js";
import { ManualClock } from "../../src/platform/clock.js";
import { createLogger } from "../../src/platform/logger.js";
import { smallWorld } from "../../src/sim/world/testing/worlds.js";
import type { Store } from "../../src/store/database.js";
import { insertFills, type NewFill } from "../../src/store/fills.js";
import { openTestApp, type TestApp } from "../support/app.js";
import { storeBackends } from "../support/backends.js";
import { AT, expectServed, servedAs } from "../support/served-numbers.js";

const world = smallWorld(7);
const MICRO = 1_000_000;

describe.each(storeBackends)("fees kept by the Deriver, on $kind", (backend) => {
  let store: Store;
  let disposeStore: () => Promise<void>;
  let deriver: Deriver;
  let t: TestApp;
  const clock = new ManualClock((world.end + 3_600) * 1000);

  beforeAll(async () => {
    ({ store, dispose: disposeStore } = await backend.open());
    await loadWorld(store, world, { updatedAt: clock.now() });
    deriver = new Deriver({ store, config: deriveConfig(), clock, logger: createLogger("silent") });
    await deriver.start();
    t = await openTestApp({
      storeBackend: { kind: backend.kind, open: async () => ({ store, dispose: async () => {} }) },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await deriver?.stop();
    await disposeStore?.();
  });

  const fees = async (wallet: string) => {
    const res = await t.app.inject(`/api/v2/wallet/${wallet}/fees`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const stored = async (wallet: string) => {
    const [sums] = await store.db
      .selectFrom("fills")
      .select((eb) => [eb.fn.sum<number>("fee").as("fee"), eb.fn.countAll<number>().as("n")])
      .where("wallet", "=", wallet)
      .execute();
    return { fee: Number(sums!.fee), n: Number(sums!.n) };
  };

  it("answers a new fill's fee once the Deriver has applied its batch", async () => {
    const model = [...worldFillRows(world)].find((f) => f.fee > 0)!;
    const wallet = model.wallet;
    const before = await fees(wallet);
    const had = await stored(wallet);
    expect(before.fills).toBe(had.n);
    expectServed(before.total_fees_usd, had.fee / MICRO, AT.usd);

    // A taker fill of the next month, without an entry type, paying 1.234567 USD.
    const ts = world.end + 60;
    const fill: NewFill = {
      ...model,
      fill_key: "test:new-fee",
      source: "data_api",
      log_index: null,
      block_number: null,
      role: "taker",
      entry_type: null,
      fee: 1_234_567,
      usd: 50_000_000,
      ts,
    };
    await store.transaction((tx) => insertFills(tx, [fill]));
    await deriver.onCommitted({ fills: [fill], activity: [], resolutions: [] });
    await deriver.idle();

    const after = await fees(wallet);
    expect(after.fills).toBe(had.n + 1);
    expect(after.fills_charged).toBe(before.fills_charged + 1);
    expectServed(after.total_fees_usd, (had.fee + fill.fee) / MICRO, AT.usd);
    const month = new Date(ts * 1000).toISOString().slice(0, 7);
    expect(before.by_month.map((m: { month: string }) => m.month)).not.toContain(month);
    expect(after.by_month.at(-1)).toEqual({
      month,
      fees_usd: servedAs(fill.fee / MICRO, AT.usd),
      volume_usd: servedAs(fill.usd / MICRO, AT.usd),
    });
    const unclassified = (body: { by_entry_type: Array<{ entry_type: string; fills: number }> }) =>
      body.by_entry_type.find((r) => r.entry_type === "UNCLASSIFIED")?.fills ?? 0;
    expect(unclassified(after)).toBe(unclassified(before) + 1);
  });
});
