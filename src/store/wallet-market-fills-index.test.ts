/**
 * Migration 0024 on both stores: the covering index replaces `fills_wallet_condition_ts`, once and idempotently,
 * stays deferred in a first sync that deferred its fills indexes, and the market summary's read uses it alone
 * (on `fill_rows` since 0029; on SQLite without its `id` column since 0054, src/store/sums-index-without-id.test.ts).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationsBefore, storeBackends } from "../../test/support/backends.js";
import { summaryFillsSql } from "../analytics/wallet/wallet-market.js";
import type { Store } from "./database.js";
import { indexNamesOf } from "./testing/index-names.js";
import {
  chainFillKey,
  createDeferredFillIndexes,
  deferredFillIndexesPresent,
  dropDeferredFillIndexes,
  insertFills,
} from "./fills.js";
import { walletMarketFillSums } from "./migrations/0024_wallet_market_fill_sums.js";
import { dialectText } from "./raw-sql.js";

const NEW = "fills_wallet_condition_sums";
const OLD = "fills_wallet_condition_ts";

describe.each(storeBackends)("fills_wallet_condition_sums on $kind", (backend) => {
  // 0024 ran on the fills table of the layout before 0029; the summary reads today's layout.
  let store: Store;
  let current: Store;
  const disposals: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    const earlier = await backend.open({ migrations: migrationsBefore("0029_compact_fills") });
    const latest = await backend.open();
    disposals.push(earlier.dispose, latest.dispose);
    store = earlier.store;
    current = latest.store;
  });
  afterAll(async () => {
    for (const dispose of disposals) await dispose();
  });

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
  });

  it("leaves it to a first sync that deferred the fills indexes", async () => {
    await sql`drop index ${sql.id(NEW)}`.execute(store.db);
    await sql`drop index fills_wallet_ts`.execute(store.db);
    await migrate();
    expect(await indexNames()).not.toContain(NEW);
    // Today's first sync drops and builds it with the others, on fill_rows.
    await current.transaction(dropDeferredFillIndexes);
    expect(await indexNamesOf(current, "fill_rows")).not.toContain(NEW);
    await current.transaction(createDeferredFillIndexes);
    expect(await indexNamesOf(current, "fill_rows")).toContain(NEW);
    expect(await current.transaction(deferredFillIndexesPresent)).toBe(true);
  });

  it("answers the summary's read, now and at an instant, from the index alone", async () => {
    // Rows and statistics, as the planner meets the table in service: 4,000 fills of 100 wallets in 40 markets.
    const hex = (n: number, digits: number) => `0x${n.toString(16).padStart(digits, "0")}`;
    const fills = Array.from({ length: 4_000 }, (_, i) => ({
      fill_key: chainFillKey(60_000_000 + i, 0),
      source: "chain" as const,
      tx_hash: hex(i, 64),
      log_index: 0,
      block_number: 60_000_000 + i,
      wallet: hex(i % 100, 40),
      counterparty: hex((i + 1) % 100, 40),
      role: "taker" as const,
      condition_id: hex(i % 40, 64),
      token_id: String(i % 80),
      outcome_index: 0,
      side: "BUY" as const,
      size: 1_000_000,
      usd: 500_000,
      price: 0.5,
      fee: 0,
      ts: 1_776_000_000 + i * 60,
    }));
    await current.transaction((tx) => insertFills(tx, fills));
    if (current.kind === "postgres") await sql`analyze`.execute(current.db);
    const plan = async (at: number): Promise<string> => {
      const params = at > 0 ? [hex(7, 40), hex(7, 64), at] : [hex(7, 40), hex(7, 64)];
      if (current.kind === "sqlite")
        return current
          .sqlite!.prepare(`explain query plan ${summaryFillsSql(current.kind, at)}`)
          .all(...params)
          .map((r) => (r as { detail: string }).detail)
          .join("\n");
      return current.transaction(async (tx) => {
        if (tx.raw.kind !== "postgres") throw new Error("postgres expected");
        const explained = await tx.raw.client.query(
          `explain ${dialectText("postgres", summaryFillsSql(current.kind, at))}`,
          params,
        );
        return explained.rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n");
      });
    };
    for (const at of [0, 1_777_000_000]) {
      const text = await plan(at);
      if (current.kind === "sqlite") {
        // Since 0054 the index holds no id column: only each second's fills are put in id order.
        expect(text).toContain(`USING COVERING INDEX ${NEW}`);
        expect(text).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      } else {
        // Each month's partition read from its copy of the index alone (the few rows of one wallet in one market are
        // then put in order across months).
        expect(text).toMatch(/Index Only Scan using fill_rows_p\d+_wallet_id_condition_ref_ts_id_\w+ on fill_rows_p/);
        expect(text).not.toMatch(/Seq Scan on fill_rows_p/);
      }
    }
  });
});
