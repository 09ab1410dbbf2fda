/**
 * Migrations 0027 and 0028 on both stores: the partial index of ranked wallet_stats rows and the index on the 24 h
 * P&L, created idempotently; the ranked population counts only rows with a rank, on SQLite from the index alone.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { emptyStats, rankedTraders, rankedTradersQuery } from "../analytics/wallet/wallet-overview.js";
import type { Store } from "./database.js";
import { indexNamesOf } from "./testing/index-names.js";
import { rankedTradersIndex } from "./migrations/0027_ranked_traders_index.js";
import { HOT_TRADERS_INDEX, hotTradersIndex } from "./migrations/0028_hot_traders_index.js";

const NO_BOARD = { avg_entry_price: null, mint_volume_30d: 0, merge_volume_30d: 0, maker_volume_30d: 0, volume_30d: 0 };
const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describe.each(storeBackends)("wallet_stats read indexes on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  it("creates each once, however often its migration runs", async () => {
    for (const [name, migration] of [
      ["wallet_stats_ranked", rankedTradersIndex],
      [HOT_TRADERS_INDEX.name, hotTradersIndex],
    ] as const) {
      await sql`drop index ${sql.id(name)}`.execute(store.db);
      for (let run = 0; run < 2; run++) await store.transaction((tx) => migration.up(tx.db as never, store.kind));
      expect(await indexNamesOf(store, "wallet_stats")).toContain(name);
    }
  });

  it("counts the ranked traders only", async () => {
    const rows = [1, 2, 3, 4, 5].map((n) => ({
      ...emptyStats(wallet(n), 1_700_000_000),
      ...NO_BOARD,
      rank_pnl: n <= 3 ? n : null,
    }));
    await store.db.insertInto("wallet_stats").values(rows).execute();
    expect(await rankedTraders(store)).toBe(3);
  });

  it.runIf(backend.kind === "sqlite")("counts them from the index alone", async () => {
    const { sql: text, parameters } = rankedTradersQuery(store.db).compile();
    const plan = (await store.sqlite?.prepare(`explain query plan ${text}`).all(...parameters)) as { detail: string }[];
    expect(plan.map((step) => step.detail)).toContainEqual(
      "SEARCH wallet_stats USING COVERING INDEX wallet_stats_ranked (rank_pnl>?)",
    );
  });
});
