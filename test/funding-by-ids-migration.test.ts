/**
 * Migration 0055 (the funding reader's transfers by address ids, src/store/funding-layout.ts) changes no answer. A
 * simulated world is stored and derived in today's layout and every answer that reads funding is taken (each wallet's
 * funding and insider page, every cluster, the clusters' list, the insider alerts, the informed flow of every scored
 * market). Then its transfers are turned back into a table of texts, as before 0055, and migrated by 0055 again; the
 * Deriver's writers compute the clusters and insider scores again from the migrated transfers, and every answer is the
 * same: status, content type and body, byte for byte. (The store's other tables stay in today's layout: copied into a
 * store migrated only to before 0055, they would hold what later migrations wrote, which theirs would not read.
 * src/store/funding-by-ids.test.ts migrates a store made before 0055 through the migrator.) On SQLite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { FundingClusterWriter } from "../src/derive/funding-clusters.js";
import { InsiderScoreWriter } from "../src/derive/insider-scores.js";
import type { Store } from "../src/store/database.js";
import { FUNDING_TRANSFER_ROWS } from "../src/store/funding-layout.js";
import { fundingByIds } from "../src/store/migrations/0055_funding_by_ids.js";
import { queryRows } from "../src/store/raw-sql.js";
import { operationSubjects, operationUrls } from "./support/api/operations.js";
import { storeBackends } from "./support/backends.js";
import { answerTaker, expectSameAnswers, migrationWorld, withFreshApp } from "./support/migration-answers.js";
import { viewAsTableOfTexts } from "./support/earlier-layout.js";
import { storeWorld } from "./support/world-app.js";

/** The operations whose answers read the funding tables, or what the Deriver computes from them. */
const READS_FUNDING = [/\/funding(\/|$)/, /\/insider(-alerts)?$/, /\/informed-flow$/];

/** The URLs that read funding: the served operations' and the same for every wallet, cluster and scored market. */
async function fundingUrls(app: FastifyInstance, store: Store, now: number): Promise<string[]> {
  const operations = (await operationUrls(app, await operationSubjects(store, now)))
    .filter(({ template }) => READS_FUNDING.some((reads) => reads.test(template)))
    .map(({ url }) => url);
  const column = async (text: string) => (await queryRows<{ v: string }>(store.db, store.kind, text)).map((r) => r.v);
  const wallets = await column("select address as v from funding_addresses where hop = 0 order by address");
  const clusters = await column("select distinct cluster_id as v from funding_clusters order by cluster_id");
  const scored = await column("select distinct wallet as v from insider_scores order by wallet");
  const markets = await column("select distinct condition_id as v from insider_scores order by condition_id");
  return [
    ...operations,
    "/api/v2/funding/clusters?limit=500",
    ...wallets.map((w) => `/api/v2/wallet/${w}/funding`),
    ...clusters.map((c) => `/api/v2/funding/cluster/${c}`),
    ...scored.map((w) => `/api/v2/wallet/${w}/insider`),
    ...markets.map((m) => `/api/v2/market/${m}/informed-flow`),
  ];
}

describe.each(storeBackends)("migrating the funding transfers to ids, on $kind", (backend) => {
  it("answers every request that reads funding byte for byte as the same world stored in today's layout", async () => {
    const { store, dispose } = await backend.open();
    const { world, clock, config } = migrationWorld();
    try {
      await storeWorld(store, world, config, clock);
      const urls = await withFreshApp(store, config, clock, (app) => fundingUrls(app, store, world.end));
      const take = await answerTaker(store, config, clock, world.end);
      const answers = () => take(urls);
      const before = await answers();
      const transfers = await store.db
        .selectFrom("funding_transfers")
        .selectAll()
        .orderBy("block_number")
        .orderBy("log_index")
        .execute();

      await viewAsTableOfTexts(store, "funding_transfers", FUNDING_TRANSFER_ROWS);
      await fundingByIds.up(store.db as never, store.kind);
      expect(
        await store.db
          .selectFrom("funding_transfers")
          .selectAll()
          .orderBy("block_number")
          .orderBy("log_index")
          .execute(),
      ).toEqual(transfers);
      // Computed again from the migrated transfers, as the Deriver's refresh would.
      expect(await new FundingClusterWriter(store, config.funding).refresh()).toBe(true);
      await new InsiderScoreWriter(store, config.insider).refresh(world.end, true);
      const after = await answers();

      const ok = expectSameAnswers(before, after);
      expect(ok.length).toBeGreaterThan(50);
      expect(ok.filter((a) => a.includes('"funders":[{')).length).toBeGreaterThan(20);
      expect(ok.filter((a) => a.includes('"members":[{')).length).toBeGreaterThan(2);
    } finally {
      await dispose();
    }
  }, 300_000);
});
