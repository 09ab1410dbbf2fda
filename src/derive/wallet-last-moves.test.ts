import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { loadConfig } from "../config/index.js";
import { ManualClock } from "../platform/clock.js";
import { createLogger } from "../platform/logger.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import type { Store } from "../store/database.js";
import { insertFills, type NewFill } from "../store/fills.js";
import { deleteAll } from "../store/derived-tables.js";
import { fillWalletLastMovesFromFills } from "../store/wallet-last-moves.js";
import { Deriver } from "./deriver.js";
import { deriveFromStore, derivedTables, rebuild, writeDerivedTables } from "./rebuild.js";
import { WalletLastMoves } from "./wallet-last-moves.js";
import { deriveConfig, loadWorld, worldFillRows } from "./testing/stored-world.js";

const world = smallWorld(5);

/** Every wallet's latest fill per market, found here by walking all fills in (ts, id) order. */
async function latestByWalk(store: Store): Promise<string[]> {
  const fills = await store.db.selectFrom("fills").selectAll().orderBy("ts").orderBy("id").execute();
  const latest = new Map<string, (typeof fills)[number]>();
  for (const f of fills) latest.set(`${f.wallet} ${f.condition_id}`, f);
  return [...latest.values()]
    .map((f) =>
      [f.wallet, f.condition_id, f.ts, f.id, f.side, f.outcome_index, f.entry_type, f.size, f.usd, f.price].join(" "),
    )
    .sort();
}

async function tableRows(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom("wallet_last_moves").selectAll().execute();
  return rows
    .map((r) =>
      [r.wallet, r.condition_id, r.ts, r.fill_id, r.side, r.outcome_index, r.entry_type, r.size, r.usd, r.price].join(
        " ",
      ),
    )
    .sort();
}

/** Three fills of the model's wallet and market on one second, each at another price. */
function sameSecond(model: NewFill, ts: number, tag: string): NewFill[] {
  return [0, 1, 2].map((i) => ({
    ...model,
    fill_key: `test:moves:${tag}:${i}`,
    source: "data_api",
    log_index: null,
    block_number: null,
    side: i === 1 ? "SELL" : "BUY",
    price: 0.2 + 0.1 * i,
    size: 5_000_000 + i,
    usd: Math.round((0.2 + 0.1 * i) * (5_000_000 + i)),
    ts,
  }));
}

describe.each(storeBackends)("wallet_last_moves on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });

  async function stored(clock: ManualClock, tag: string) {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    await loadWorld(store, world, { updatedAt: clock.now() });
    const model = worldFillRows(world).next().value as NewFill;
    await store.transaction((tx) => insertFills(tx, sameSecond(model, world.end - 30, tag)));
    return { store, model };
  }

  it("holds each wallet's latest fill per market, whether rebuild or the migration's statement fills it", async () => {
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const { store } = await stored(clock, "rebuild");
    const expected = await latestByWalk(store);
    expect(expected.length).toBeGreaterThan(100);

    await rebuild(store, deriveConfig(), clock);
    expect(await tableRows(store)).toEqual(expected);
    // The same-second fills' latest is the last stored, the third.
    const third = await store.db
      .selectFrom("fills")
      .select(["id", "wallet", "condition_id"])
      .where("fill_key", "=", "test:moves:rebuild:2")
      .executeTakeFirstOrThrow();
    const row = (await tableRows(store)).find((r) => r.startsWith(`${third.wallet} ${third.condition_id} `))!;
    expect(row.split(" ")[3]).toBe(String(third.id));

    await store.transaction((tx) => deleteAll(tx, "wallet_last_moves"));
    await fillWalletLastMovesFromFills(store.db);
    expect(await tableRows(store)).toEqual(expected);
  });

  it("writes the same rows when a warm start's watermark splits one second's fills: SQL up to it, the replay's after", async () => {
    const clock = new ManualClock((world.end + 3_600) * 1000);
    const { store } = await stored(clock, "split");
    const first = await store.db
      .selectFrom("fills")
      .select("id")
      .where("fill_key", "=", "test:moves:split:0")
      .executeTakeFirstOrThrow();
    const watermark = Number(first.id);
    const derived = await deriveFromStore(store, deriveConfig(), clock.now());
    const tables = await derivedTables(store, derived, clock.now());
    const after = await store.db.selectFrom("fills").selectAll().where("id", ">", watermark).execute();
    expect(after.length).toBe(2);
    const moves = new WalletLastMoves();
    for (const f of after)
      moves.add(
        {
          ...f,
          ts: Number(f.ts),
          usd: Number(f.usd),
          size: Number(f.size),
          price: Number(f.price),
          outcome_index: Number(f.outcome_index),
        },
        Number(f.id),
      );
    await writeDerivedTables(
      store,
      { ...tables, fillTablesInSqlThrough: watermark, walletLastMoves: moves.rows() },
      derived.snapshots,
    );
    expect(await tableRows(store)).toEqual(await latestByWalk(store));
  });

  it("moves a wallet's last move with the Deriver's batches: same-second fills by their ids, a late fill left out", async () => {
    const clock = new ManualClock((world.end + 600) * 1000);
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    await loadWorld(store, world, { updatedAt: clock.now() });
    const deriver = new Deriver({ store, config: loadConfig({}), clock, logger: createLogger("silent") });
    disposers.push(async () => deriver.stop());
    await deriver.start();
    expect(await tableRows(store)).toEqual(await latestByWalk(store));

    const [model] = worldFillRows(world, { from: world.end - 86_400 });
    const key = `${model!.wallet} ${model!.condition_id} `;
    const latestOf = async () => (await tableRows(store)).find((r) => r.startsWith(key))!;
    const fresh = await store.transaction((tx) => insertFills(tx, sameSecond(model!, world.end - 60, "batch")));
    await deriver.onCommitted({ fills: fresh, activity: [], resolutions: [] });
    await deriver.idle();
    const third = await store.db
      .selectFrom("fills")
      .select("id")
      .where("fill_key", "=", "test:moves:batch:2")
      .executeTakeFirstOrThrow();
    expect((await latestOf()).split(" ")[3]).toBe(String(third.id));
    expect(await tableRows(store)).toEqual(await latestByWalk(store));

    const [late] = sameSecond(model!, world.end - 120, "late");
    const lateStored = await store.transaction((tx) => insertFills(tx, [late!]));
    await deriver.onCommitted({ fills: lateStored, activity: [], resolutions: [] });
    await deriver.idle();
    expect((await latestOf()).split(" ")[3]).toBe(String(third.id));
    expect(await tableRows(store)).toEqual(await latestByWalk(store));
  });
});
