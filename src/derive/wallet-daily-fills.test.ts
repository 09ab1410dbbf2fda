import { afterEach, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { ManualClock } from "../platform/clock.js";
import { smallWorld } from "../sim/world/testing/worlds.js";
import type { Store } from "../store/database.js";
import { insertFills, type NewFill } from "../store/fills.js";
import { fillWalletDailyFillsFromFills, walletFillTotals } from "../store/wallet-daily-fills.js";
import { rebuild } from "./rebuild.js";
import { deriveConfig, loadWorld, worldFillRows } from "./testing/stored-world.js";

const world = smallWorld(11);
const DAY = 86_400;

async function tableRows(store: Store): Promise<string[]> {
  const rows = await store.db.selectFrom("wallet_daily_fills").selectAll().execute();
  return rows.map((r) => [r.wallet, Number(r.day), Number(r.fills), Number(r.usd)].join(" ")).sort();
}

type Fill = { wallet: string; ts: number; usd: number };

async function storedFills(store: Store): Promise<Fill[]> {
  const rows = await store.db.selectFrom("fills").select(["wallet", "ts", "usd"]).execute();
  return rows.map((r) => ({ wallet: r.wallet, ts: Number(r.ts), usd: Number(r.usd) }));
}

/** The fills counted here, one by one, per wallet and UTC day (the date's own day number). */
function replay(fills: readonly Fill[]): string[] {
  const sums = new Map<string, [number, number]>();
  for (const f of fills) {
    const date = new Date(f.ts * 1000);
    const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()) / 1000 / DAY;
    const key = `${f.wallet} ${day}`;
    const sum = sums.get(key) ?? [0, 0];
    sums.set(key, [sum[0] + 1, sum[1] + f.usd]);
  }
  return [...sums].map(([key, s]) => `${key} ${s.join(" ")}`).sort();
}

describe.each(storeBackends)("wallet_daily_fills on $kind", (backend) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (disposers.length) await disposers.pop()!();
  });

  it("holds each wallet's fills per UTC day as a replay of the fills, whether rebuild or the migration fills it, and totals any range as the fills do", async () => {
    const { store, dispose } = await backend.open();
    disposers.push(dispose);
    const clock = new ManualClock((world.end + 3_600) * 1000);
    await loadWorld(store, world, { updatedAt: clock.now() });
    // Fills on either side of a day's end, and at its first and last second.
    const [model] = worldFillRows(world);
    const dayEnd = Math.ceil(world.end / DAY) * DAY - 10 * DAY;
    const extra: NewFill[] = [dayEnd - 1, dayEnd, dayEnd + 1, dayEnd + DAY - 1].map((ts, i) => ({
      ...model!,
      fill_key: `test:days:${i}`,
      source: "data_api",
      log_index: null,
      block_number: null,
      usd: 1_000_000 + i,
      ts,
    }));
    await store.transaction((tx) => insertFills(tx, extra));

    await rebuild(store, deriveConfig(), clock);
    const fills = await storedFills(store);
    const expected = replay(fills);
    expect(expected.length).toBeGreaterThan(400);
    expect(await tableRows(store)).toEqual(expected);
    await fillWalletDailyFillsFromFills(store.db, store.kind);
    expect(await tableRows(store)).toEqual(expected);

    // Ranges (from, to] of every length from a second to 40 days, whole days or not, against the fills themselves.
    const counts = new Map<string, number>();
    for (const f of fills) counts.set(f.wallet, (counts.get(f.wallet) ?? 0) + 1);
    const busiest = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    const wallets = [busiest, model!.wallet];
    const edges = [dayEnd - DAY - 1, dayEnd - 2, dayEnd - 1, dayEnd, dayEnd + 1, dayEnd + DAY - 1, dayEnd + DAY];
    const starts = [...edges, world.end - 40 * DAY, world.end - 30 * DAY + 17, world.end - 7 * DAY, world.end - 61];
    const ends = [...edges, world.end, world.end + 3_600, world.end - 3 * DAY];
    let checked = 0;
    for (const wallet of wallets)
      for (const from of starts)
        for (const to of ends) {
          const inRange = fills.filter((f) => f.wallet === wallet && f.ts > from && f.ts <= to);
          const totals = await walletFillTotals(store.db, store.kind, wallet, from, to);
          expect(totals, `${wallet} (${from}, ${to}]`).toEqual({
            fills: inRange.length,
            usd: inRange.reduce((a, f) => a + f.usd, 0),
          });
          if (inRange.length > 0) checked++;
        }
    expect(checked).toBeGreaterThan(40);
  });
});
