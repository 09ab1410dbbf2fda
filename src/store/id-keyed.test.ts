/**
 * The id-keyed tables (src/store/id-keyed.ts, migrations 0031 and 0036): written through the derived tables'
 * writers, stored with the fills' address and market ids, read through the views as the tables were. On SQLite, and
 * on PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { deleteWhereIn, insertRowStream, upsertRows } from "./derived-tables.js";
import { addSnapshotRows, pruneSnapshots } from "./position-snapshots.js";
import { queryRows } from "./raw-sql.js";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;
const C = `0x${"c".repeat(40)}`;

describe.each(storeBackends)("the id-keyed tables, on $kind", (backend) => {
  it("store a wallet and a market as ids: snapshots, sums and last moves read back through their views", async () => {
    const { store, dispose } = await backend.open();
    const [M, N] = [`0x${"1".repeat(64)}`, `0x${"2".repeat(64)}`];
    try {
      const snapshot = (day: number, wallet: string, market: string, yes: number) => ({
        day,
        wallet,
        condition_id: market,
        yes_shares: yes,
        yes_cost: yes / 2,
        no_shares: 0,
        no_cost: 0,
      });
      await store.transaction((tx) => addSnapshotRows(tx, [snapshot(86_400, A, M, 10), snapshot(86_400, B, N, 20)]));
      await store.transaction((tx) => addSnapshotRows(tx, [snapshot(172_800, A, N, 30)]));
      const snapshots = () =>
        store.db
          .selectFrom("position_snapshots")
          .selectAll()
          .orderBy("day")
          .orderBy("wallet")
          .orderBy("condition_id")
          .execute();
      expect(await snapshots()).toEqual([
        snapshot(86_400, A, M, 10),
        snapshot(86_400, B, N, 20),
        snapshot(172_800, A, N, 30),
      ]);
      const latest = await queryRows<{ day: number }>(
        store.db,
        store.kind,
        "select max(day) as day from position_snapshots where day <= ?",
        [100_000],
      );
      expect(Number(latest[0]!.day)).toBe(86_400);
      const byWallet = await queryRows<{ condition_id: string }>(
        store.db,
        store.kind,
        "select condition_id from position_snapshots where day = ? and wallet in (?)",
        [172_800, A],
      );
      expect(byWallet).toEqual([{ condition_id: N }]);
      await store.transaction((tx) => pruneSnapshots(tx, 172_800));
      expect((await snapshots()).map((r) => r.day)).toEqual([172_800]);
      const markets = await queryRows<{ condition_id: string }>(
        store.db,
        store.kind,
        "select condition_id from condition_ids",
      );
      expect(markets.map((r) => r.condition_id).sort()).toEqual([M, N]);

      // Sums add up per key; a last move keeps the later fill.
      await store.transaction((tx) =>
        upsertRows(tx, "wallet_daily_fills", [{ wallet: A, day: 1, fills: 2, usd: 5 }], "add"),
      );
      await store.transaction((tx) =>
        upsertRows(
          tx,
          "wallet_daily_fills",
          [
            { wallet: A, day: 1, fills: 1, usd: 7 },
            { wallet: B, day: 1, fills: 4, usd: 1 },
          ],
          "add",
        ),
      );
      expect(await store.db.selectFrom("wallet_daily_fills").selectAll().orderBy("wallet").execute()).toEqual([
        { wallet: A, day: 1, fills: 3, usd: 12 },
        { wallet: B, day: 1, fills: 4, usd: 1 },
      ]);
      const move = (ts: number, fillId: number) => ({
        wallet: A,
        condition_id: M,
        ts,
        fill_id: fillId,
        side: "BUY" as const,
        outcome_index: 0,
        entry_type: null,
        size: fillId,
        usd: fillId,
        price: 0.5,
      });
      await store.transaction((tx) => upsertRows(tx, "wallet_last_moves", [move(100, 2)], "add"));
      await store.transaction((tx) => upsertRows(tx, "wallet_last_moves", [move(90, 3)], "add"));
      await store.transaction((tx) => upsertRows(tx, "wallet_last_moves", [move(100, 4)], "add"));
      expect(await store.db.selectFrom("wallet_last_moves").selectAll().execute()).toEqual([move(100, 4)]);
      await store.transaction((tx) => deleteWhereIn(tx, "wallet_daily_fills", "wallet", [A]));
      expect((await store.db.selectFrom("wallet_daily_fills").select("wallet").execute()).map((r) => r.wallet)).toEqual(
        [B],
      );

      if (store.sqlite) {
        const plan = (query: string) =>
          store
            .sqlite!.prepare(`explain query plan ${query}`)
            .all(1)
            .map((r) => (r as { detail: string }).detail)
            .join("; ");
        // A read of no text leaves the dictionaries out; a read by wallet finds its id, then one range of the key.
        expect(plan("select max(day) from position_snapshots where day <= ?")).not.toMatch(/address_ids|condition_ids/);
        expect(plan("select fills from wallet_daily_fills where wallet = ? ")).toMatch(
          /SEARCH r USING PRIMARY KEY \(wallet_id=\?\)/,
        );
      }
    } finally {
      await dispose();
    }
  });

  it("take a stream of rows as its generator makes them, past SQLite's slices and PostgreSQL's copy chunks", async () => {
    const { store, dispose } = await backend.open();
    try {
      // Row i: wallet A, B or C in turn, day i / 3 + 1, i dollars (micro-units) in one fill.
      const count = 120_001;
      let made = 0;
      function* rows() {
        for (let i = 0; i < count; i++) {
          made++;
          yield { wallet: [A, B, C][i % 3]!, day: 86_400 * (Math.floor(i / 3) + 1), fills: 1, usd: i };
        }
      }
      const stream = rows();
      expect(made).toBe(0);
      await store.transaction((tx) => insertRowStream(tx, "wallet_daily_fills", stream));
      expect(made).toBe(count);
      const [totals] = await queryRows<{ n: number; usd: number; last: number }>(
        store.db,
        store.kind,
        "select count(*) as n, sum(usd) as usd, max(day) as last from wallet_daily_fills",
      );
      expect(Number(totals!.n)).toBe(count);
      expect(Number(totals!.usd)).toBe(((count - 1) * count) / 2);
      expect(Number(totals!.last)).toBe(86_400 * 40_001);
      const lastOfC = await store.db
        .selectFrom("wallet_daily_fills")
        .selectAll()
        .where("wallet", "=", C)
        .orderBy("day", "desc")
        .limit(1)
        .execute();
      expect(lastOfC).toEqual([{ wallet: C, day: 86_400 * 40_000, fills: 1, usd: 119_999 }]);
    } finally {
      await dispose();
    }
  });
});
