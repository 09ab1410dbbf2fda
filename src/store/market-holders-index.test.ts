/**
 * Migration 0025 on both stores: the covering index of a market's open positions replaces `positions_condition`,
 * idempotently, and on SQLite the holders' read (`holdersQuery`) finds the positions from it alone.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { holdersQuery } from "../analytics/markets/market-consensus.js";
import type { Store } from "./database.js";
import { indexNamesOf } from "./testing/index-names.js";
import { MARKET_HOLDERS_INDEX, marketHoldersIndex } from "./migrations/0025_market_holders_index.js";

describe.each(storeBackends)("positions_condition_holders on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  const positionIndexes = () => indexNamesOf(store, "positions");

  it("replaces the condition index with the covering one, idempotently", async () => {
    expect(await positionIndexes()).toContain(MARKET_HOLDERS_INDEX.name);
    expect(await positionIndexes()).not.toContain("positions_condition");
    // A store as 0001 left it.
    await sql`drop index ${sql.id(MARKET_HOLDERS_INDEX.name)}`.execute(store.db);
    await sql`create index positions_condition on positions (condition_id, status)`.execute(store.db);
    for (let run = 0; run < 2; run++)
      await store.transaction((tx) => marketHoldersIndex.up(tx.db as never, store.kind));
    const names = await positionIndexes();
    expect(names).toContain(MARKET_HOLDERS_INDEX.name);
    expect(names).not.toContain("positions_condition");
  });

  it.runIf(backend.kind === "sqlite")("reads a market's open positions from the index alone", async () => {
    const { sql: text, parameters } = holdersQuery(store.db, "0xabc").compile();
    const plan = (await store.sqlite?.prepare(`explain query plan ${text}`).all(...parameters)) as { detail: string }[];
    expect(plan.map((step) => step.detail)).toContainEqual(
      `SEARCH p USING COVERING INDEX ${MARKET_HOLDERS_INDEX.name} (condition_id=? AND status=?)`,
    );
  });
});
