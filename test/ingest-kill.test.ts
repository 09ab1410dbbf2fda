/**
 * `pelagic ingest --until-caught-up` as a process against the simulated venue (served from this test process):
 * killed with SIGKILL at random points of its backfill at least 20 times and restarted each time, it ends with
 * the store of a clean run, which is the simulation's ground truth. The i-th run is killed once it has committed
 * something new and the store holds a number of fills drawn at random from the i-th twentieth of the backfill's
 * first 85%, at a random moment within the next 30 ms (so every kill lands inside the backfill, wherever a step
 * stands: fetching, settling or committing, however fast the machine), and the venue answers after a few ms, as a
 * remote one does.
 *
 * On SQLite by default; with TEST_DATABASE_URL (npm run test:backends) on a fresh PostgreSQL database instead,
 * since `npm test` has already run it on SQLite and each kill costs a process start.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../src/ingest/sources.js";
import { simIngestEnv } from "../src/ingest/testing/sim-ingest.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import type { SimVenue } from "../src/sim/servers/index.js";
import { SMALL_WORLD, closeVenues, smallVenue } from "../src/sim/servers/testing/venues.js";
import { readCheckpoint } from "../src/store/checkpoints.js";
import type { StoreChecksum } from "../src/store/checksum.js";
import type { Store } from "../src/store/database.js";
import { TEST_DATABASE_URL } from "./support/backends.js";
import { spawnPelagic, type Running } from "./support/cli.js";
import { openProcessStore, type ProcessStore } from "./support/process-stores.js";

const KILLS = 20;

let venue: SimVenue;
let truth: StoreChecksum;
const stores: ProcessStore[] = [];
const children: Running[] = [];

beforeAll(async () => {
  venue = await smallVenue({ worldOptions: { ...SMALL_WORLD, seed: 2, fills: 6_000 }, latencyMs: 10 });
  truth = truthChecksum(venue.world);
});
afterAll(async () => {
  for (const child of children)
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exited));
  await closeVenues();
  for (const store of stores.splice(0)) await store.dispose();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const blockOf = (cursor: string | undefined) => Number(/^block:(\d+)$/.exec(cursor ?? "")?.[1] ?? -1);
const chainBlock = async (store: Store) => blockOf((await readCheckpoint(store.db, SOURCES.chain))?.cursor);
const fillCount = async (store: Store) =>
  Number(
    (
      await store.db
        .selectFrom("fills")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe.each([TEST_DATABASE_URL ? "postgres" : "sqlite"] as const)(
  "pelagic ingest killed with SIGKILL on %s",
  (kind) => {
    const open = async () => {
      const store = await openProcessStore(kind);
      stores.push(store);
      return store;
    };
    // Ranges of at most 40,000 blocks (about 65 over the world's 60 days), paced by the client: many commits to land between.
    const env = (store: ProcessStore) => ({
      ...store.env,
      ...simIngestEnv(venue, { INGEST_BLOCK_SPAN: "40000", INGEST_BATCH_RECORDS: "100" }),
      REDIS_URL: "",
      LOG_LEVEL: "info",
    });
    const ingestProcess = (store: ProcessStore) => {
      const child = spawnPelagic(["ingest", "--until-caught-up"], env(store));
      children.push(child);
      return child;
    };

    it(`ends with the store of a clean run after ${KILLS} kills at random points of the backfill and restarts`, async () => {
      const clean = await open();
      expect(await ingestProcess(clean).exited).toBe(0);
      const expected = await clean.checksum();
      expect(expected).toEqual(truth);

      const killed = await open();
      const slot = (0.85 * expected.fills.count) / KILLS;
      const kills: { block: number; fills: number }[] = [];
      let reader: Store | null = null;
      try {
        for (let previous = -1; kills.length < KILLS; ) {
          const child = ingestProcess(killed);
          await child.waitFor((l) => l.msg === "ingest starting", 30_000);
          reader ??= await killed.open();
          let exited = false;
          void child.exited.then(() => (exited = true));
          const target = (kills.length + Math.random()) * slot;
          while (!exited && ((await chainBlock(reader)) <= previous || (await fillCount(reader)) < target))
            await pause(5);
          await pause(Math.random() * 30);
          if (exited) throw new Error(`the backfill ended after ${kills.length} kills: ${JSON.stringify(kills)}`);
          child.child.kill("SIGKILL");
          expect(await child.exited).toBeNull();
          previous = await chainBlock(reader);
          kills.push({ block: previous, fills: await fillCount(reader) });
        }
      } finally {
        await reader?.close();
      }
      // Every kill left the committed batches in place, and landed before the backfill's end.
      expect(kills.map((k) => k.fills)).toEqual(kills.map((k) => k.fills).sort((a, b) => a - b));
      expect(kills.every((k) => k.fills < expected.fills.count)).toBe(true);

      expect(await ingestProcess(killed).exited).toBe(0);
      expect(await killed.checksum()).toEqual(expected);
    }, 480_000);
  },
);
