/**
 * The scaled mode run as a whole: one `pelagic serve --role ingest` and two `--role api` processes on PostgreSQL
 * and Redis, against a simulated venue that trades live (its clock is the test's: frozen, the venue stops trading
 * and its head rests). Checked:
 * - live trades reach the stream subscribers of both API processes, the same ones in the same order;
 * - the free budget and the per-key stream slots are shared: the processes refuse together;
 * - the ingest process killed with SIGKILL mid-trading and restarted resumes without loss: once the head rests the
 *   store holds exactly the simulation's ground truth up to it;
 * - both API processes answer the same figures (as_of within the Deriver's refresh) before and after the ingest
 *   wrote more, and both moved: neither kept an answer from before the write;
 * - one API process killed with SIGKILL under load: the other answers every request, then everything it was asked,
 *   and the killed one's stream slots come back once their lease (LIVE_SLOT_LEASE_SECONDS) ends.
 * Runs only with TEST_DATABASE_URL and TEST_REDIS_URL (npm run test:backends).
 */
import { afterAll, describe, expect, it } from "vitest";
import { createKey } from "../src/accounts/keys.js";
import { SOURCES } from "../src/ingest/sources.js";
import { simIngestEnv } from "../src/ingest/testing/sim-ingest.js";
import { truthChecksum } from "../src/ingest/testing/sim-truth.js";
import type { RelayTradeEvent } from "../src/live/trade-events.js";
import { startSimVenue, type SimVenue } from "../src/sim/servers/index.js";
import { blockAt, blockTimestamp, generateWorld } from "../src/sim/world/index.js";
import { readCheckpoint } from "../src/store/checkpoints.js";
import { storeChecksum } from "../src/store/checksum.js";
import type { Store } from "../src/store/database.js";
import { TEST_DATABASE_URL, TEST_REDIS_URL, deleteRedisPrefix, uniqueName } from "./support/backends.js";
import { spawnPelagic, type Running } from "./support/cli.js";
import { openSse, until, type SseClient } from "./support/live-clients.js";
import { openProcessStore, type ProcessStore } from "./support/process-stores.js";
import { historyEnd } from "./support/world-end.js";

const REFRESH_SECONDS = 2;
const LEASE_SECONDS = 4;
const FREE_PER_MINUTE = 10;

const blockOf = (cursor: string | undefined) => Number(/^block:(\d+)$/.exec(cursor ?? "")?.[1] ?? Number.NaN);

/** A body without the fields that tell when it was computed, and those fields' values. */
function withoutTimes(value: unknown, times: number[] = []): { body: unknown; times: number[] } {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) {
      if (k === "as_of" || k === "generated_at" || k === "cached_at") {
        if (typeof inner === "number") times.push(inner);
        else if (typeof inner === "string") times.push(Date.parse(inner) / 1000);
      } else out[k] = strip(inner);
    }
    return out;
  };
  return { body: strip(value), times };
}

describe.runIf(TEST_DATABASE_URL && TEST_REDIS_URL)(
  "the scaled mode: two API processes and one ingest process on PostgreSQL and Redis",
  () => {
    const prefix = `${uniqueName("pelagic_scaled")}:`;
    const processes: Running[] = [];
    const streams: SseClient[] = [];
    let venue: SimVenue | undefined;
    let processStore: ProcessStore | undefined;
    let reader: Store | undefined;

    afterAll(async () => {
      for (const s of streams) s.close();
      for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGTERM");
      await Promise.all(processes.map((p) => p.exited));
      await reader?.close();
      await venue?.close();
      await processStore?.dispose();
      await deleteRedisPrefix(TEST_REDIS_URL as string, prefix);
    });

    it("agrees across API processes, shares limits, survives a killed API process and a restarted ingest without loss", async () => {
      const nowSeconds = Math.floor(Date.now() / 1000);
      let frozenMs: number | null = null;
      const world = generateWorld({
        seed: 29,
        end: historyEnd(nowSeconds),
        markets: 30,
        wallets: 200,
        fills: 4_000,
        days: 20,
      });
      venue = await startSimVenue({
        world,
        live: { matchesPerSecond: 8, from: nowSeconds },
        liveTickMs: 100,
        clockMs: () => frozenMs ?? Date.now(),
      });
      processStore = await openProcessStore("postgres");
      const env = {
        ...processStore.env,
        ...simIngestEnv(venue, {
          INGEST_POLL_SECONDS: "1",
          INGEST_READ_THREAD: "false",
          VENUE_RPC_REQUESTS_PER_SECOND: "1000",
          ISW_MONITOR: "false",
        }),
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: prefix,
        LOG_LEVEL: "info",
        DERIVE_REFRESH_SECONDS: String(REFRESH_SECONDS),
        WALLET_OVERVIEW_CACHE_SECONDS: "1",
        RATE_FREE_PER_MINUTE: String(FREE_PER_MINUTE),
        RATE_PREMIUM_PER_MINUTE: "100000",
        SSE_CONNECTIONS_PER_KEY: "3",
        LIVE_SLOT_LEASE_SECONDS: String(LEASE_SECONDS),
      };
      const serve = (role: "api" | "ingest") => {
        const p = spawnPelagic(["serve", "--role", role, "--port", "0"], env);
        processes.push(p);
        return p
          .waitFor((l) => l.msg === "pelagic serving", 240_000)
          .then(
            (l) => l.url as string,
            (error: Error) => {
              throw new Error(`${role}: ${error.message}; last lines: ${JSON.stringify(p.lines.slice(-5))}`);
            },
          );
      };
      await serve("ingest");
      const [urlA, urlB] = await Promise.all([serve("api"), serve("api")]);
      const apiA = processes[1] as Running;
      reader = await processStore.open();
      const store = reader;
      const { key } = await createKey(store.db, { account: "reader", plan: "premium", now: nowSeconds });
      const { key: streamKey } = await createKey(store.db, { account: "streamer", plan: "premium", now: nowSeconds });
      const premium = { "x-api-key": key };
      const get = (url: string, headers: Record<string, string> = premium) => fetch(url, { headers });
      const ready = async (url: string) =>
        ((await (await get(`${url}/api/v1/health`)).json()) as { ready: boolean }).ready;
      await until(
        "both API processes ready",
        async () => (await ready(urlA as string)) && (await ready(urlB as string)),
        180_000,
      );

      // Live trades reach the subscribers of both processes: the same trades, in the same order.
      const [liveA, liveB] = [
        await openSse(`${urlA}/api/public/v1/live/trades`, premium),
        await openSse(`${urlB}/api/public/v1/live/trades`, premium),
      ];
      streams.push(liveA, liveB);
      await until(
        "live trades on both processes",
        () => liveA.trades().length >= 30 && liveB.trades().length >= 30,
        60_000,
      );
      const idOf = (e: RelayTradeEvent) => `${e.transactionHash}|${e.proxyWallet}|${e.outcomeIndex}`;
      const [seenA, seenB] = [liveA.trades<RelayTradeEvent>().map(idOf), liveB.trades<RelayTradeEvent>().map(idOf)];
      const from = Math.max(seenA.indexOf(seenB[0] as string), 0);
      const common = seenA.slice(from, from + Math.min(seenA.length - from, seenB.length) - 5);
      expect(common.length).toBeGreaterThan(10);
      expect(seenB.slice(0, common.length)).toEqual(common);

      // One free budget for a client, whichever process it calls.
      const statuses: number[] = [];
      for (let i = 0; i < FREE_PER_MINUTE + 4; i++)
        statuses.push((await fetch(`${i % 2 ? urlB : urlA}/api/v1/health`)).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);
      expect(statuses.slice(0, FREE_PER_MINUTE).every((s) => s !== 429)).toBe(true);

      // One set of stream slots per key: 2 on A and 1 on B fill the 3; a fourth is refused by either.
      const keyed = { "x-api-key": streamKey };
      for (const url of [urlA, urlA, urlB]) {
        const s = await openSse(`${url}/api/public/v1/live/trades`, keyed);
        streams.push(s);
        expect(s.status).toBe(200);
      }
      expect((await openSse(`${urlB}/api/public/v1/live/trades`, keyed)).status).toBe(429);
      expect((await openSse(`${urlA}/api/public/v1/live/trades-indexed`, keyed)).status).toBe(429);

      const { wallet } = await store.db
        .selectFrom("positions")
        .select("wallet")
        .orderBy("last_ts", "desc")
        .limit(1)
        .executeTakeFirstOrThrow();
      const paths = [
        "/api/v2/site-stats",
        "/api/v2/whales/leaderboard",
        "/api/v2/markets/hot",
        "/api/leaderboard",
        `/api/v2/wallet/${wallet}/overview`,
        `/api/v2/wallet/${wallet}/positions`,
        `/api/v2/wallet/${wallet}/trades`,
      ];
      const restAt = async () => {
        frozenMs = Date.now();
        const head = blockAt(Math.floor(frozenMs / 1000));
        await until(
          "the chain follower at the resting head",
          async () => blockOf((await readCheckpoint(store.db, SOURCES.chain))?.cursor) >= head,
          60_000,
        );
        return head;
      };
      /** Each path's answer, once both processes give the same one. */
      const agreed = async () => {
        const answers = new Map<string, unknown>();
        for (const path of paths) {
          let last = "";
          await until(
            `both processes agree on ${path}`,
            async () => {
              const [a, b] = await Promise.all([get(`${urlA}${path}`), get(`${urlB}${path}`)]);
              expect([a.status, b.status]).toEqual([200, 200]);
              const [ta, tb] = [withoutTimes(await a.json()), withoutTimes(await b.json())];
              last = `${JSON.stringify(ta.body).slice(0, 300)} / ${JSON.stringify(tb.body).slice(0, 300)}`;
              if (JSON.stringify(ta.body) !== JSON.stringify(tb.body)) return false;
              // What both read is of the same refresh or the next.
              for (let i = 0; i < Math.min(ta.times.length, tb.times.length); i++)
                expect(Math.abs((ta.times[i] as number) - (tb.times[i] as number))).toBeLessThanOrEqual(
                  REFRESH_SECONDS * 2 + 2,
                );
              answers.set(path, ta.body);
              return true;
            },
            30_000,
          ).catch((error: Error) => {
            throw new Error(`${error.message}: ${last}`);
          });
        }
        return answers;
      };

      await restAt();
      const before = await agreed();
      const lastBefore = Number(
        (
          await store.db
            .selectFrom("fills")
            .select((eb) => eb.fn.max("id").as("id"))
            .executeTakeFirst()
        )?.id ?? 0,
      );

      // Trading resumes; the ingest process is killed mid-way and restarted.
      frozenMs = null;
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const ingest = processes[0] as Running;
      ingest.child.kill("SIGKILL");
      await ingest.exited;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await serve("ingest");
      const head = await restAt();
      // Fills and resolutions equal the chain's truth exactly. Activity may hold more: the API processes' views queue
      // wallet syncs, which add the venue's income rows (rewards, rebates) that chain logs do not carry.
      const stored = await storeChecksum(store.db);
      const truth = truthChecksum(world, { to: blockTimestamp(head + 1) });
      expect({ ...stored, activity: undefined }).toEqual({ ...truth, activity: undefined });
      expect(stored.activity.count).toBeGreaterThanOrEqual(truth.activity.count);

      // Both processes move on past the write, and agree again: a trade stored after trading resumed is on its wallet's
      // trades page in both (the wallet of the paths above may not have traded meanwhile; site-stats and the
      // leaderboards are kept for minutes by design).
      const fresh = await store.db
        .selectFrom("fills")
        .select(["wallet", "tx_hash"])
        .where("id", ">", lastBefore)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      expect(fresh, "a fill stored after trading resumed").toBeDefined();
      const freshTrades = `/api/v2/wallet/${fresh!.wallet}/trades`;
      let served = "";
      await until(
        "both processes serve a trade stored after the write, and agree",
        async () => {
          const [a, b] = await Promise.all([get(`${urlA}${freshTrades}`), get(`${urlB}${freshTrades}`)]);
          const [ta, tb] = [withoutTimes(await a.json()).body, withoutTimes(await b.json()).body];
          served = JSON.stringify(ta);
          return served === JSON.stringify(tb) && served.includes(fresh!.tx_hash);
        },
        REFRESH_SECONDS * 4_000 + 30_000,
      );
      expect(served).toContain(fresh!.tx_hash);
      const after = await agreed();
      expect([...after.keys()]).toEqual([...before.keys()]);

      // API process A is killed under load: B answers everything, during and after.
      const failures: string[] = [];
      let loading = true;
      const load = (async () => {
        for (let i = 0; loading; i++) {
          const path = paths[i % paths.length] as string;
          const b = await get(`${urlB}${path}`);
          if (b.status !== 200) failures.push(`${path} → ${b.status}`);
          await get(`${urlA}${path}`).catch(() => undefined);
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      apiA.child.kill("SIGKILL");
      await apiA.exited;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      loading = false;
      await load;
      expect(failures).toEqual([]);
      for (const path of paths) expect((await get(`${urlB}${path}`)).status).toBe(200);

      // A's two streams of the key held their slots; their lease ends, and B gives them out again.
      expect((await openSse(`${urlB}/api/public/v1/live/trades`, keyed)).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 500));
      for (let i = 0; i < 2; i++) {
        const s = await openSse(`${urlB}/api/public/v1/live/trades`, keyed);
        streams.push(s);
        expect(s.status).toBe(200);
      }
      expect((await openSse(`${urlB}/api/public/v1/live/trades`, keyed)).status).toBe(429);
    }, 900_000);
  },
);
