/**
 * Migrations 0029 (fills in the compact layout, src/store/fill-layout.ts) and those after it (0030: SQLite's
 * text-keyed derived tables WITHOUT ROWID; 0031: the P&L series by wallet id; 0047: packed) change no answer. A simulated world is
 * stored and derived in today's layout, then copied into a store in the layout before 0029
 * (test/support/earlier-layout.ts), which is migrated; every GET operation of the served document is answered by an
 * app over each store: the same status, content type and body, byte for byte. Then ingest goes on
 * in the new layout, and a replayed fill or activity row (0045) is refused. On SQLite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import type { FastifyInstance } from "fastify";
import type { Store } from "../src/store/database.js";
import { describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { buildApp } from "../src/api/app.js";
import { worldFillRows, worldOperationRows } from "../src/derive/testing/stored-world.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import { smallWorld } from "../src/sim/world/testing/worlds.js";
import { insertActivity, insertFills } from "../src/store/fills.js";
import { migrateStore } from "../src/store/migrate.js";
import { migrations } from "../src/store/migrations/index.js";
import { operationSubjects, operationUrls } from "./support/api/operations.js";
import { memoryPlatform, migrationsBefore, storeBackends } from "./support/backends.js";
import { copyIntoEarlierLayout } from "./support/earlier-layout.js";
import { migrationWorldConfig } from "./support/migration-answers.js";
import { storeWorld } from "./support/world-app.js";

const COMPACT_FILLS = "0029_compact_fills";
/** Answers that move by themselves between two rounds: the AI report's generation, the key's own usage. */
/** Not about fills, or whose tables come with a later migration (the alerts, 0032; funding, 0037; insider scores, 0038; the signal ledger, 0039). */
const UNSTABLE = [
  /\/ai-analysis$/,
  /\/key\/verify$/,
  /^\/api\/v2\/alerts\//,
  /\/funding(\/|$)/,
  /\/insider(-alerts)?$/,
  /\/informed-flow$/,
  /\/scorecard(\/|$)/,
];
/** A search's own timing. */
const ELAPSED = /"_elapsed_ms":\d+(\.\d+)?/g;

describe.each(storeBackends)("migrating a stored world to compact fills, on $kind", (backend) => {
  it("answers every GET operation byte for byte as the same world stored in today's layout, and ingest goes on", async () => {
    const { store, dispose } = await backend.open({ migrations: migrationsBefore(COMPACT_FILLS) });
    const current = await backend.open();
    const world = smallWorld(7);
    const clock = new ManualClock();
    clock.set(world.end * 1000);
    const config = migrationWorldConfig();
    const { platform, dispose: disposePlatform } = await memoryPlatform.open(clock);
    try {
      await storeWorld(current.store, world, config, clock);
      await copyIntoEarlierLayout(current.store, store);
      const subjects = await operationSubjects(current.store, world.end);

      // A first round records what the views count (lookups, sync requests); the second is the one compared.
      const answers = async (over: Store): Promise<Map<string, string>> => {
        const { key } = await createKey(over.db, { account: "migration", plan: "premium", now: world.end });
        await ask(over, key);
        return ask(over, key);
      };
      const ask = async (over: Store, key: string): Promise<Map<string, string>> => {
        const app: FastifyInstance = await buildApp(
          { config, store: over, platform, expectedSources: [], startedAt: clock.now() },
          createLogger("silent"),
        );
        await app.ready();
        try {
          const out = new Map<string, string>();
          for (const { template, url } of await operationUrls(app, subjects)) {
            if (UNSTABLE.some((unstable) => unstable.test(template))) continue;
            const r = await app.inject({ url, headers: { "x-api-key": key } });
            out.set(url, `${r.statusCode} ${r.headers["content-type"]} ${r.body.replace(ELAPSED, "")}`);
          }
          return out;
        } finally {
          await app.close();
        }
      };
      // Today's code reads today's layout only (the fills' rows by their dictionaries' ids, among others): the
      // answers before are those of the same world stored in today's layout, which the migrated copy must give.
      const before = await answers(current.store);

      const applied = await migrateStore(store);
      // 0029 and every migration after it (0030 rebuilds SQLite's text-keyed derived tables WITHOUT ROWID).
      expect(applied.map((r) => [r.migrationName, r.status])).toEqual(
        Object.keys(migrations)
          .filter((name) => name >= COMPACT_FILLS)
          .map((name) => [name, "Success"]),
      );
      const after = await answers(store);

      expect(before.size).toBeGreaterThan(40);
      expect([...before.values()].filter((a) => a.startsWith("200 ")).length).toBeGreaterThan(40);
      const changed = [...before].filter(([url, answer]) => after.get(url) !== answer).map(([url]) => url);
      expect(changed).toEqual([]);
      expect(after.size).toBe(before.size);

      // The stored fills read back as they were written, and a replay of them is refused.
      const written = [...worldFillRows(world)];
      const stored = await store.db.selectFrom("fills").selectAll().orderBy("id").execute();
      expect(stored.map(({ id: _id, ...fill }) => fill)).toEqual(written);
      expect(await store.transaction((tx) => insertFills(tx, written.slice(0, 50)))).toEqual([]);
      // So do the activity rows (0045), every kind of key among them, in the order they were written.
      const operations = [...worldOperationRows(world)].flatMap((row) => ("activity" in row ? [row.activity] : []));
      const activity = await store.db.selectFrom("wallet_activity").selectAll().orderBy("id").execute();
      const plain = (row: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(row).filter(([column, value]) => column !== "id" && value != null));
      expect(activity.map(plain)).toEqual(operations.map(plain));
      expect(new Set(operations.map((a) => a.source))).toEqual(new Set(["chain", "data_api"]));
      expect(await store.transaction((tx) => insertActivity(tx, operations))).toEqual([]);
    } finally {
      await disposePlatform();
      await current.dispose();
      await dispose();
    }
  }, 300_000);
});
