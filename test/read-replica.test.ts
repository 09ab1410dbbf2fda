/**
 * DATABASE_READ_URL: an API process (`--role api`) reads from a PostgreSQL streaming replica that this test builds
 * (test/support/replica.ts), while the writes go to the primary. The world is written to the primary as a complete
 * ingest and derivation write it, and reaches the replica by streaming. With the replica's replay paused (a lag as
 * long as the test wants), the Deriver's tables rewritten on the primary an hour later are not what the API
 * answers: the overview's `as_of` tells the age of what it read; a key created on the primary meanwhile is accepted
 * at once (keys are a read-your-write path, read from the primary). Once replay resumes, the answers catch up.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { loadConfig } from "../src/config/index.js";
import { rebuild } from "../src/derive/rebuild.js";
import { expectedIngestSources } from "../src/ingest/sources.js";
import { ManualClock } from "../src/platform/clock.js";
import { createLogger } from "../src/platform/logger.js";
import { startService, type Service } from "../src/runtime/index.js";
import { smallWorld } from "../src/sim/world/testing/worlds.js";
import { saveCheckpoint } from "../src/store/checkpoints.js";
import { openStore, type Store } from "../src/store/database.js";
import { FIRST_SYNC_DERIVED, writeDeriveState } from "../src/store/derive-state.js";
import { migrateStore } from "../src/store/migrate.js";
import { TEST_DATABASE_URL, adminQuery, uniqueName } from "./support/backends.js";
import { buildReplica, replicaUnavailable, type Replica } from "./support/replica.js";
import { storeWorld } from "./support/world-app.js";

const unavailable = replicaUnavailable(TEST_DATABASE_URL);
if (unavailable && TEST_DATABASE_URL) console.warn(`read-replica test skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)("an API process reading from a streaming replica (DATABASE_READ_URL)", () => {
  const database = uniqueName("pelagic_replica");
  let replica: Replica | undefined;
  let primary: Store | undefined;
  let service: Service | undefined;

  afterAll(async () => {
    await service?.stop();
    await primary?.close();
    await replica?.dispose();
    await adminQuery(`drop database if exists ${database} with (force)`).catch(() => undefined);
  });

  it("answers from the replica, as old as its as_of says, and reads keys from the primary", async () => {
    replica = await buildReplica(TEST_DATABASE_URL as string);
    await adminQuery(`create database ${database}`);
    const primaryUrl = new URL(TEST_DATABASE_URL as string);
    primaryUrl.pathname = `/${database}`;
    const config = loadConfig({
      DATABASE_URL: primaryUrl.toString(),
      DATABASE_READ_URL: replica.url(database),
      ROLE: "api",
      PORT: "0",
      LOG_LEVEL: "silent",
      WALLET_OVERVIEW_CACHE_SECONDS: "1",
      WALLET_OVERVIEW_CACHED_BODIES: "0",
    });

    // The world as a complete first sync and its derivation leave it, written to the primary.
    primary = await openStore({ kind: "postgres", databaseUrl: config.store.databaseUrl, poolSize: 2 });
    await migrateStore(primary);
    const world = smallWorld(29);
    const t1 = world.end;
    await storeWorld(primary, world, config, new ManualClock(t1 * 1000));
    for (const source of expectedIngestSources(config)) await saveCheckpoint(primary.db, source, "caught-up", t1, true);
    await writeDeriveState(primary.db, FIRST_SYNC_DERIVED, 1);
    const { key } = await createKey(primary.db, { account: "reader", plan: "premium", now: t1 });
    await replica.caughtUp();

    service = await startService(config, { logger: createLogger("silent") });
    const url = service.url;
    const { wallet } = await primary.db
      .selectFrom("wallet_stats")
      .select("wallet")
      .orderBy("total_trades", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    const overview = async (apiKey = key) => {
      const answer = await fetch(`${url}/api/v2/wallet/${wallet}/overview`, { headers: { "x-api-key": apiKey } });
      return { status: answer.status, body: (await answer.json()) as { as_of: number } };
    };
    const health = (await (await fetch(`${url}/api/v1/health`, { headers: { "x-api-key": key } })).json()) as {
      ready: boolean;
    };
    expect(health.ready).toBe(true);
    expect((await overview()).body.as_of).toBe(t1);

    // The replica stops replaying: the Deriver's tables rewritten on the primary an hour later do not reach it.
    await replica.pauseReplay();
    const t2 = t1 + 3_600;
    await rebuild(primary, config, new ManualClock(t2 * 1000));
    const stored = await primary.db
      .selectFrom("wallet_stats")
      .select("computed_at")
      .where("wallet", "=", wallet)
      .executeTakeFirstOrThrow();
    expect(stored.computed_at).toBe(t2);
    const { key: newKey } = await createKey(primary.db, { account: "newcomer", plan: "premium", now: t2 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const lagging = await overview();
    expect(lagging.status).toBe(200);
    // What the API read is an hour older than the primary: as_of says so.
    expect(lagging.body.as_of).toBe(t1);
    // A key the replica has not seen yet is accepted: keys are read from the primary.
    expect((await overview(newKey)).status).toBe(200);

    await replica.resumeReplay();
    await replica.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await overview()).body.as_of).toBe(t2);
  }, 300_000);
});
