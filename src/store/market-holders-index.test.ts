/**
 * The positions' indexes since 0041 (the rows by ids, src/store/id-keyed.ts) on both stores: a wallet's positions by
 * status and close, and a market's open positions, whose holders' read (`holdersQuery`) SQLite answers from the index
 * alone through the positions as the view reads them (by the status's code since 0060: src/store/position-status.ts),
 * each holder's address by its dictionary's primary key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeBackends } from "../../test/support/backends.js";
import { holdersQuery } from "../analytics/markets/market-consensus.js";
import type { Store } from "./database.js";
import { ID_KEYED } from "./id-keyed.js";
import { POSITION_INDEXES } from "./migrations/0041_positions_by_ids.js";
import { indexNamesOf } from "./testing/index-names.js";

describe.each(storeBackends)("the positions' indexes on $kind", (backend) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ store, dispose } = await backend.open());
  });
  afterAll(async () => dispose?.());

  it("keeps the two reads' indexes on the rows table, and the positions' old ones are gone", async () => {
    const names = await indexNamesOf(store, ID_KEYED.positions.rows);
    for (const name of Object.keys(POSITION_INDEXES)) expect(names).toContain(name);
    expect(names).not.toContain("positions_condition");
    expect(names).not.toContain("positions_wallet_status");
  });

  it.runIf(backend.kind === "sqlite")("reads a market's open positions from the index alone", async () => {
    const { sql: text, parameters } = holdersQuery(store.db, store.kind, "0xabc").compile();
    const plan = (await store.sqlite?.prepare(`explain query plan ${text}`).all(...parameters)) as { detail: string }[];
    expect(plan.map((step) => step.detail)).toContainEqual(
      "SEARCH r USING COVERING INDEX positions_condition_holders (condition_ref=? AND status=?)",
    );
  });
});
