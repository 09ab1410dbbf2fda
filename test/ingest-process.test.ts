/**
 * `pelagic ingest` and `pelagic serve --role ...` as processes against a fake venue on loopback, on SQLite and
 * (with TEST_DATABASE_URL) a fresh PostgreSQL database: the ingest command catches up and exits, and the roles
 * split serving and ingest. (Kills at random points against the simulated venue: ingest-kill.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXCHANGE_V1, EXCHANGE_V2, M, matchEvents, resolution, split } from "../src/venue/testing/chain-events.js";
import { address, startFakeVenue, type FakeVenue } from "../src/ingest/testing/fake-venue.js";
import { gammaMarket } from "../src/venue/testing/fixtures.js";
import { createKey } from "../src/accounts/keys.js";
import { migrateStore } from "../src/store/migrate.js";
import { spawnPelagic } from "./support/cli.js";
import { openSse, until } from "./support/live-clients.js";
import { openProcessStore, processStoreKinds, type ProcessStore } from "./support/process-stores.js";

const stores: ProcessStore[] = [];
/** A fresh store, disposed at the end of the file. */
async function freshStore(kind: ProcessStore["kind"]): Promise<ProcessStore> {
  const store = await openProcessStore(kind);
  stores.push(store);
  return store;
}

let venue: FakeVenue;
const condition = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as const;

beforeAll(async () => {
  venue = await startFakeVenue();
  venue.gamma.events = [{ id: "900", slug: "e", title: "E" }];
  venue.gamma.markets = [
    gammaMarket(1, { events: [{ id: "900", slug: "e", title: "E" }] }),
    gammaMarket(2, { events: [{ id: "900", slug: "e", title: "E" }] }),
  ];
  venue.chain.head = 400;
  for (let block = 100; block < 400; block += 3) {
    const exchange = block < 250 ? EXCHANGE_V1 : EXCHANGE_V2;
    const market = 1 + (block % 2);
    const taker = {
      owner: address(0x100 + (block % 11)),
      side: "BUY" as const,
      token: BigInt(1000 + market),
      size: 10n * M,
      usd: 6n * M,
    };
    venue.chain.addTx(
      block,
      matchEvents(exchange, taker, [
        { owner: address(0x200 + (block % 7)), side: "BUY", token: BigInt(2000 + market), size: 10n * M, usd: 4n * M },
      ]),
    );
    if (block % 30 === 1) venue.chain.addTx(block, [split(address(0x300 + (block % 5)), condition(market), 2n * M)]);
  }
  venue.chain.addTx(390, [resolution(condition(1), [0n, 1n])]);
});
afterAll(async () => {
  await venue.close();
  for (const store of stores.splice(0)) await store.dispose();
});

/** A trade as the venue's live feed (RTDS `activity`/`trades`) sends it, on a market of the fake venue. */
function liveTrade() {
  return {
    proxyWallet: address(0x777),
    side: "BUY",
    asset: "1001",
    conditionId: condition(1),
    size: 100,
    price: 0.6,
    timestamp: Math.floor(Date.now() / 1000),
    outcomeIndex: 0,
    transactionHash: `0x${"ab".repeat(32)}`,
    title: "T",
    outcome: "Yes",
    name: "whale",
    pseudonym: "Swift-Otter",
  };
}

function venueEnv(store: ProcessStore): Record<string, string> {
  return {
    ...store.env,
    REDIS_URL: "",
    LOG_LEVEL: "info",
    VENUE_GAMMA_URL: venue.urls.gamma,
    VENUE_DATA_API_URL: venue.urls.dataApi,
    VENUE_PNL_URL: venue.urls.dataApi,
    VENUE_RTDS_URL: venue.urls.rtds,
    VENUE_RPC_URL: venue.urls.rpc,
    INGEST_START: "100",
    INGEST_CONFIRMATIONS: "0",
    INGEST_BLOCK_SPAN: "7",
  };
}

describe.each(processStoreKinds)("pelagic ingest on %s", (kind) => {
  it("backfills until caught up and exits 0", async () => {
    const store = await freshStore(kind);
    const run = spawnPelagic(["ingest", "--until-caught-up"], venueEnv(store));
    expect(await run.exited).toBe(0);
    expect(run.lines).toContainEqual(expect.objectContaining({ msg: "ingest caught up", fills: 200 }));
    const stored = await store.checksum();
    expect(stored.fills.count).toBe(200);
    expect(stored.activity.count).toBe(10);
    expect(stored.resolutions.count).toBe(1);
  }, 180_000);

  it("following the venue, it derives too: an API process over the same store turns ready with the wallets' statistics", async () => {
    const store = await freshStore(kind);
    const ingest = spawnPelagic(["ingest"], venueEnv(store));
    const api = spawnPelagic(["serve", "--port", "0", "--role", "api"], venueEnv(store));
    const url = (await api.waitFor((l) => l.msg === "pelagic serving", 120_000)).url as string;
    let ready = false;
    for (let i = 0; i < 1_200 && !ready; i++) {
      ready = ((await (await fetch(`${url}/api/v1/health`)).json()) as { ready: boolean }).ready;
      if (!ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(ready).toBe(true);
    expect(ingest.lines).toContainEqual(expect.objectContaining({ msg: "ingest caught up; following the venue" }));
    // 0x100 + (block % 11) took the taker's side of every eleventh match: its trades come from the derived statistics.
    const wallet = (await (await fetch(`${url}/api/v2/wallet/${address(0x100)}`)).json()) as {
      overview: { total_trades: number };
    };
    expect(wallet.overview.total_trades).toBeGreaterThan(0);
    for (const run of [ingest, api]) run.child.kill("SIGTERM");
    expect(await ingest.exited).toBe(0);
    expect(await api.exited).toBe(0);
  }, 180_000);
});

describe.each(processStoreKinds)("pelagic serve roles on %s", (kind) => {
  it("--role ingest runs ingest and serves only /api/v1/health; it turns ready after the first full sync", async () => {
    const store = await freshStore(kind);
    const run = spawnPelagic(["serve", "--port", "0", "--role", "ingest"], venueEnv(store));
    const line = await run.waitFor((l) => l.msg === "pelagic serving", 120_000);
    const url = line.url as string;
    expect(line).toMatchObject({ role: "ingest", ingest: true });
    expect((await fetch(`${url}/api/openapi.json`)).status).toBe(404);
    let health: { ready: boolean; sources: { source: string; status: string }[] } = { ready: false, sources: [] };
    for (let i = 0; i < 200 && !health.ready; i++) {
      health = (await (await fetch(`${url}/api/v1/health`)).json()) as typeof health;
      if (!health.ready) await new Promise((r) => setTimeout(r, 50));
    }
    expect(health.ready).toBe(true);
    expect(health.sources.map((s) => s.source)).toEqual(expect.arrayContaining(["chain-logs", "gamma-markets"]));
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(await store.checksum()).toMatchObject({ fills: { count: 200 } });
  }, 180_000);

  it("--role all ingests on a thread of its own: ready after the first sync, the thread's counters in /metrics, the live feed's trades on the stream, a clean stop", async () => {
    const store = await freshStore(kind);
    const opened = await store.open();
    await migrateStore(opened);
    const { key } = await createKey(opened.db, {
      account: "thread",
      plan: "premium",
      now: Math.floor(Date.now() / 1000),
    });
    await opened.close();
    const run = spawnPelagic(["serve", "--port", "0"], {
      ...venueEnv(store),
      LIVE_SETTLEMENT_HOLD_MS: "50",
      ISW_MONITOR: "false",
    });
    const line = await run.waitFor((l) => l.msg === "pelagic serving", 120_000);
    expect(line).toMatchObject({ role: "all", ingest: "thread" });
    const url = line.url as string;
    let health = { ready: false };
    for (let i = 0; i < 600 && !health.ready; i++) {
      health = (await (await fetch(`${url}/api/v1/health`)).json()) as typeof health;
      if (!health.ready) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health.ready).toBe(true);
    // Counted by the ingest thread, served by the serving thread.
    const exposition = await (await fetch(`${url}/metrics`)).text();
    const batches = /^pelagic_ingest_batches_total\{source="chain-logs"\} (\d+)$/m.exec(exposition);
    expect(Number(batches?.[1])).toBeGreaterThan(0);
    expect(exposition.match(/^process_resident_memory_bytes /gm)).toHaveLength(1);

    // A trade of the venue's live feed, received by the ingest thread, reaches a stream of the serving thread.
    const stream = await openSse(`${url}/api/public/v1/live/trades`, { "X-API-Key": key });
    expect(stream.status).toBe(200);
    await until("an RTDS connection", () => venue.rtds.sockets.size > 0, 30_000);
    const live = liveTrade();
    venue.rtds.broadcastTrade(live);
    await stream.waitFor("the live trade", () => stream.trades().length > 0, 30_000);
    expect(stream.trades()[0]).toMatchObject({ transactionHash: live.transactionHash, proxyWallet: live.proxyWallet });
    stream.close();

    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(await store.checksum()).toMatchObject({ fills: { count: 200 } });
  }, 180_000);

  it("--role api serves without ingest, and reports the ingest sources as waiting", async () => {
    const run = spawnPelagic(["serve", "--port", "0", "--role", "api"], venueEnv(await freshStore(kind)));
    const line = await run.waitFor((l) => l.msg === "pelagic serving", 120_000);
    expect(line).toMatchObject({ role: "api", ingest: false });
    const health = (await (await fetch(`${line.url as string}/api/v1/health`)).json()) as {
      ready: boolean;
      sources: { status: string }[];
    };
    expect(health.ready).toBe(false);
    expect(health.sources.map((s) => s.status)).toEqual(["waiting", "waiting", "waiting"]);
    expect((await fetch(`${line.url as string}/api/openapi.json`)).status).toBe(200);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
  }, 180_000);
});
