import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { ManualClock } from "../platform/clock.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import type { Store } from "../store/database.js";
import { insertFills, type NewFill } from "../store/fills.js";
import { fillWalletFeesFromFills } from "../store/wallet-fees.js";
import { rebuild } from "./rebuild.js";
import { deriveConfig, loadWorld, worldFillRows } from "./testing/stored-world.js";

const world = smallWorld(11);

/** The table's rows, as comparable text. */
async function tableRows(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom("wallet_fees").selectAll().execute();
  return rows
    .map((r) =>
      [
        r.wallet,
        r.month,
        r.entry_type,
        r.role,
        Number(r.fees),
        Number(r.volume),
        Number(r.fills),
        Number(r.charged),
      ].join(" "),
    )
    .sort();
}

/** The fills summed here, one by one, per wallet, UTC month, entry type and role. */
async function replay(store: Store): Promise<string[]> {
  const fills = await store.db
    .selectFrom("fills")
    .select(["wallet", "ts", "entry_type", "role", "fee", "usd"])
    .execute();
  const sums = new Map<string, [number, number, number, number]>();
  for (const f of fills) {
    const date = new Date(Number(f.ts) * 1000);
    const month = `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
    const key = [f.wallet, month, f.entry_type ?? "UNCLASSIFIED", f.role ?? "unknown"].join(" ");
    const sum = sums.get(key) ?? [0, 0, 0, 0];
    const fee = Number(f.fee ?? 0);
    sums.set(key, [sum[0] + fee, sum[1] + Number(f.usd), sum[2] + 1, sum[3] + (fee > 0 ? 1 : 0)]);
  }
  return [...sums].map(([key, s]) => `${key} ${s.join(" ")}`).sort();
}

describe.each(storeBackends)("wallet_fees on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });

  it("holds each wallet's fills summed per UTC month, entry type and role, as a replay of the fills, whether rebuild or the migration fills it", async () => {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    const clock = new ManualClock((world.end + 3_600) * 1000);
    await loadWorld(store, world, { updatedAt: clock.now() });
    // Fills without a role or an entry type, on either side of a month's end.
    const [model] = worldFillRows(world);
    const monthEnd = Date.UTC(2026, 4, 1) / 1000;
    const extra: NewFill[] = [monthEnd - 1, monthEnd, monthEnd + 1].map((ts, i) => ({
      ...model!,
      fill_key: `test:fees:${i}`,
      source: "data_api",
      log_index: null,
      block_number: null,
      role: null,
      entry_type: null,
      fee: i === 1 ? 0 : 12_345 * (i + 1),
      usd: 1_000_000 + i,
      ts,
    }));
    await store.transaction((tx) => insertFills(tx, extra));

    await rebuild(store, deriveConfig(), clock);
    const expected = await replay(store);
    expect(expected.length).toBeGreaterThan(400);
    expect(expected.filter((r) => r.includes(" UNCLASSIFIED unknown "))).toHaveLength(2);
    expect(await tableRows(store)).toEqual(expected);

    await fillWalletFeesFromFills(store.db, store.kind);
    expect(await tableRows(store)).toEqual(expected);
  });
});
