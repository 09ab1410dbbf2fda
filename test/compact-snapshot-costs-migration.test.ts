/**
 * Migration 0065 (a snapshot's costs stored as the average prices their shares cost them at,
 * src/store/snapshot-costs.ts) changes no answer. A simulated world is stored and derived in today's layout, the
 * signal recorder records its signals (whale flips read the snapshots), and every GET operation's answer is taken
 * for the busiest wallet and its market, with the whale flips over every number of days back. Then the runs and the
 * staged rows are turned back into the layout before 0065 (the costs as they are) and migrated by 0065 again: the
 * views read every run and every day's row as before (doubles bit for bit), every cost the Deriver wrote is stored as
 * a price, the recorder records the same signals into an emptied ledger, and every answer is the same: status,
 * content type and body, byte for byte. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Config } from "../src/config/index.js";
import { SignalRecorder } from "../src/derive/signal-recorder.js";
import type { Clock } from "../src/platform/clock.js";
import type { Store } from "../src/store/database.js";
import { idKeyedViewSql } from "../src/store/id-keyed.js";
import { compactSnapshotCosts } from "../src/store/migrations/0065_compact_snapshot_costs.js";
import { columnTypes } from "../src/store/migrations/column-types.js";
import { SNAPSHOT_RUNS, SNAPSHOT_STAGE, snapshotViewSql } from "../src/store/position-snapshots.js";
import { queryRows } from "../src/store/raw-sql.js";
import { exactRows } from "../src/store/testing/exact-rows.js";
import { SNAPSHOT_COST_CODES } from "../src/store/snapshot-costs.js";
import { operationSubjects, operationUrls } from "./support/api/operations.js";
import { storeBackends } from "./support/backends.js";
import { answerTaker, expectSameAnswers, migrationWorld, withFreshApp } from "./support/migration-answers.js";
import { storeWorld } from "./support/world-app.js";

const run = (store: Store, text: string) => queryRows<Record<string, unknown>>(store.db, store.kind, text);

const snapshots = async (store: Store) => ({
  days: exactRows(await run(store, "select * from position_snapshots order by day, wallet, condition_id")),
  runs: exactRows(await run(store, "select * from position_snapshot_runs order by wallet, condition_id, from_day")),
});
const ledger = (store: Store) => run(store, "select * from signal_ledger order by seq");

/** Answers that move by themselves between two rounds: the AI report's generation, the key's own usage. */
const UNSTABLE = [/\/ai-analysis$/, /\/key\/verify$/];
/** A search's own timing. */
const ELAPSED = /"_elapsed_ms":\d+(\.\d+)?/g;

/** Every GET operation for the busiest wallet and its market, and the whale flips over each number of days back. */
async function snapshotUrls(store: Store, config: Config, clock: Clock, now: number): Promise<string[]> {
  const subjects = await operationSubjects(store, now);
  const operations = await withFreshApp(store, config, clock, (app) => operationUrls(app, subjects));
  const flips = [1, 2, 3, 5, 7, 14, 30].flatMap((days) => [
    `/api/v2/whale-flips?days=${days}&limit=500`,
    `/api/public/v1/whale-flips?days=${Math.min(days, 7)}&limit=500`,
  ]);
  return [...operations.filter((o) => !UNSTABLE.some((u) => u.test(o.template))).map((o) => o.url), ...flips];
}

/**
 * The runs and the staged rows as they stood before 0065: each table made again with its costs as the views read
 * them (not null) and no prices, and the views made as 0058 made them.
 */
async function costsAsBefore0065(store: Store): Promise<void> {
  const db = store.db as unknown as Kysely<unknown>;
  const t = columnTypes(store.kind);
  const exec = (text: string) => sql.raw(text).execute(db);
  const { yes_cost, no_cost } = SNAPSHOT_COST_CODES;
  await exec("drop view position_snapshots");
  await exec("drop view position_snapshot_runs");
  const tables = [
    { name: SNAPSHOT_RUNS, leading: ["wallet_id", "condition_ref", "from_day", "day_count"], types: [] as string[] },
    { name: SNAPSHOT_STAGE, leading: ["day", "wallet_id", "condition_ref"], types: ["day"] },
  ];
  for (const { name, leading, types } of tables) {
    const coded = `${name}_coded`;
    await exec(`alter table ${name} rename to ${coded}`);
    if (store.kind === "postgres") await exec(`alter table ${coded} rename constraint ${name}_pk to ${coded}_pk`);
    let create = db.schema.createTable(name);
    for (const column of leading)
      create = create.addColumn(column, types.includes(column) ? t.int : "integer", (c) => c.notNull());
    for (const [column, type] of [
      ["yes_shares", t.int],
      ["yes_cost", t.real],
      ["no_shares", t.int],
      ["no_cost", t.real],
    ] as const)
      create = create.addColumn(column, type, (c) => c.notNull());
    create = create.addPrimaryKeyConstraint(`${name}_pk`, leading.slice(0, 3) as never);
    await (store.kind === "sqlite" ? create.modifyEnd(sql`without rowid`) : create).execute();
    await exec(`insert into ${name} (${leading.join(", ")}, yes_shares, yes_cost, no_shares, no_cost)
      select ${leading.map((c) => `r.${c}`).join(", ")}, r.yes_shares, ${yes_cost.valueSql("r", store.kind)},
        r.no_shares, ${no_cost.valueSql("r", store.kind)} from ${coded} r order by 1, 2, 3`);
    await exec(`drop table ${coded}`);
  }
  await exec(snapshotViewSql("day numbers"));
  await exec(idKeyedViewSql("position_snapshot_runs", store.kind, ["yes_cost", "no_cost"]));
}

describe.each(storeBackends)("migrating the snapshots' costs to average prices, on $kind", (backend) => {
  it("answers every GET operation and the whale flips as before, and records the same signals", async () => {
    const { store, dispose } = await backend.open();
    const { world, clock, config: settings } = migrationWorld();
    // Any swing is a flip, so that the flips read many snapshots (the small world's are far below the default's).
    const config = { ...settings, whales: { ...settings.whales, flipMinSwingUsd: 1 } };
    try {
      await storeWorld(store, world, config, clock);
      const recorder = new SignalRecorder(store, config);
      await recorder.record(world.end);
      const recorded = await ledger(store);

      const urls = await snapshotUrls(store, config, clock, world.end);
      const answers = await answerTaker(store, config, clock, world.end);
      const take = async (asked: readonly string[]) =>
        new Map([...(await answers(asked))].map(([url, answer]) => [url, answer.replace(ELAPSED, "")]));
      const before = await take(urls);
      const stored = await snapshots(store);
      expect(stored.runs.length).toBeGreaterThan(50);

      await costsAsBefore0065(store);
      expect(await snapshots(store)).toEqual(stored);
      await compactSnapshotCosts.up(store.db as never, store.kind);
      expect(await snapshots(store)).toEqual(stored);
      // Every cost the Deriver wrote is stored as a price: none kept as it was.
      expect(
        await run(
          store,
          `select count(*) as n from ${SNAPSHOT_RUNS} where yes_cost is not null or no_cost is not null
            or yes_avg_price_micro is null or no_avg_price_micro is null`,
        ),
      ).toEqual([{ n: 0 }]);
      // The recorder reads the migrated snapshots into the same signals: an emptied ledger holds the same records.
      await sql.raw("delete from signal_ledger").execute(store.db);
      await recorder.record(world.end);
      expect(await ledger(store)).toEqual(recorded);
      const after = await take(urls);

      const ok = expectSameAnswers(before, after);
      expect(ok.length).toBeGreaterThan(40);
      expect(ok.filter((a) => a.includes('"flips":[{')).length).toBeGreaterThan(0);
    } finally {
      await dispose();
    }
  }, 300_000);
});
