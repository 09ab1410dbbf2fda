/**
 * Migration 0024 on both stores: the covering index replaces `fills_wallet_condition_ts`, once and idempotently,
 * stays deferred in a first sync that deferred its fills indexes, and the market summary's read uses it alone.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { summaryFillsSql } from "../analytics/wallet/wallet-market.js";
import type { Store } from "./database.js";
import { indexNamesOf } from "./testing/index-names.js";
import { createDeferredFillIndexes, deferredFillIndexesPresent, dropDeferredFillIndexes } from "./fills.js";
import { walletMarketFillSums } from "./migrations/0024_wallet_market_fill_sums.js";
import { dialectText } from "./raw-sql.js";

const NEW = "fills_wallet_condition_sums";
const OLD = "fills_wallet_condition_ts";

describe.each(storeBackends)("fills_wallet_condition_sums on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  const indexNames = () => indexNamesOf(store, "fills");
  const migrate = () => store.transaction((tx) => walletMarketFillSums.up(tx.db as never, store.kind));

  it("replaces the wallet-market index with the covering one, idempotently", async () => {
    expect(await indexNames()).toContain(NEW);
    expect(await indexNames()).not.toContain(OLD);
    // A store as 0014 left it.
    await sql`drop index ${sql.id(NEW)}`.execute(store.db);
    await sql`create index ${sql.id(OLD)} on fills (wallet, condition_id, ts, id)`.execute(store.db);
    await migrate();
    await migrate();
    const names = await indexNames();
    expect(names).toContain(NEW);
    expect(names).not.toContain(OLD);
    expect(await store.transaction(deferredFillIndexesPresent)).toBe(true);
  });

  it("leaves it to a first sync that deferred the fills indexes", async () => {
    await store.transaction(dropDeferredFillIndexes);
    await migrate();
    expect(await indexNames()).not.toContain(NEW);
    await store.transaction(createDeferredFillIndexes);
    expect(await indexNames()).toContain(NEW);
  });

  it("answers the summary's read, now and at an instant, from the index alone", async () => {
    const plan = async (at: number): Promise<string> => {
      const params = at > 0 ? ["0xw", "0xc", at] : ["0xw", "0xc"];
      if (store.kind === "sqlite")
        return store
          .sqlite!.prepare(`explain query plan ${summaryFillsSql(at)}`)
          .all(...params)
          .map((r) => (r as { detail: string }).detail)
          .join("\n");
      // An empty table would be scanned: the planner is told not to, to show which index it can use.
      return store.transaction(async (tx) => {
        if (tx.raw.kind !== "postgres") throw new Error("postgres expected");
        await tx.raw.client.query("set local enable_seqscan = off");
        await tx.raw.client.query("set local enable_bitmapscan = off");
        const explained = await tx.raw.client.query(`explain ${dialectText("postgres", summaryFillsSql(at))}`, params);
        return explained.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
      });
    };
    for (const at of [0, 1_777_000_000]) {
      const text = await plan(at);
      if (store.kind === "sqlite") expect(text).toContain(`USING COVERING INDEX ${NEW}`);
      else expect(text).toMatch(/Index Only Scan/);
      expect(text).not.toMatch(/TEMP B-TREE|Sort/);
    }
  });
});
