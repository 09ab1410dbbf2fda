/**
 * The wallet-keyed P&L series (src/store/wallet-keyed.ts, migration 0031): written through the derived tables'
 * writers, stored with the fills' address ids, read through the views as the tables were. On SQLite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { deleteAll, deleteWhereIn, insertRows, upsertRows } from "./derived-tables.js";
import { queryRows } from "./raw-sql.js";
import { replaceVenuePnlPoints } from "./wallet-cache.js";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;

describe.each(storeBackends)("the wallet-keyed P&L series, on $kind", (backend) => {
  it("store each wallet once as an id, and read back through their views as written", async () => {
    const { store, dispose } = await backend.open();
    try {
      const points = [
        { wallet: A, resolution: "hour" as const, t: 3_600, pnl: 1.5 },
        { wallet: A, resolution: "day" as const, t: 86_400, pnl: -2.25 },
        { wallet: B, resolution: "hour" as const, t: 3_600, pnl: 10 },
      ];
      await store.transaction((tx) => insertRows(tx, "pnl_points", points));
      // Replacing a key's value, and adding a point.
      await store.transaction((tx) =>
        upsertRows(tx, "pnl_points", [
          { wallet: B, resolution: "hour", t: 3_600, pnl: 12 },
          { wallet: B, resolution: "hour", t: 7_200, pnl: 13 },
        ]),
      );
      const all = () =>
        store.db.selectFrom("pnl_points").selectAll().orderBy("wallet").orderBy("resolution").orderBy("t").execute();
      expect(await all()).toEqual([
        { wallet: A, resolution: "day", t: 86_400, pnl: -2.25 },
        { wallet: A, resolution: "hour", t: 3_600, pnl: 1.5 },
        { wallet: B, resolution: "hour", t: 3_600, pnl: 12 },
        { wallet: B, resolution: "hour", t: 7_200, pnl: 13 },
      ]);
      const ids = await queryRows<{ address: string }>(store.db, store.kind, "select address from address_ids");
      expect(ids.map((r) => r.address).sort()).toEqual([A, B]);

      // B has no daily points: nothing goes.
      await store.transaction((tx) => deleteWhereIn(tx, "pnl_points", "wallet", [B], "resolution = 'day'"));
      expect(await all()).toHaveLength(4);
      await store.transaction((tx) => deleteAll(tx, "pnl_points", "resolution = 'hour' and t < ?", [7_200]));
      expect((await all()).map((r) => [r.wallet, r.resolution, r.t])).toEqual([
        [A, "day", 86_400],
        [B, "hour", 7_200],
      ]);
      await store.transaction((tx) => deleteWhereIn(tx, "pnl_points", "wallet", [A]));
      expect((await all()).map((r) => r.wallet)).toEqual([B]);

      // The venue's points: replaced whole per wallet, a point listed twice kept once.
      await store.transaction((tx) =>
        replaceVenuePnlPoints(tx, A, [
          { wallet: A, t: 10, pnl: 5_000_000 },
          { wallet: A, t: 20, pnl: 6_000_000 },
          { wallet: A, t: 20, pnl: 6_000_000 },
        ]),
      );
      await store.transaction((tx) => replaceVenuePnlPoints(tx, B, [{ wallet: B, t: 10, pnl: 1 }]));
      await store.transaction((tx) => replaceVenuePnlPoints(tx, A, [{ wallet: A, t: 30, pnl: 7_000_000 }]));
      expect(
        await store.db.selectFrom("venue_pnl_points").selectAll().orderBy("wallet").orderBy("t").execute(),
      ).toEqual([
        { wallet: A, t: 30, pnl: 7_000_000 },
        { wallet: B, t: 10, pnl: 1 },
      ]);
      const stored = await queryRows<{ n: number }>(
        store.db,
        store.kind,
        "select count(*) as n from venue_pnl_point_rows",
      );
      expect(Number(stored[0]!.n)).toBe(2);
    } finally {
      await dispose();
    }
  });
});
